import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { ServerMetrics } from '../../../src/server/ops/metrics';
import { installOpsRoutes } from '../../../src/server/ops/routes';
import { readinessChecks } from '../../../src/server/ops/readiness';
import { startTestServer, type TestServer } from '../../support/server';

/** A loopback port nothing listens on (bound, then let go). */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function get(url: string, accept?: string) {
  const res = await fetch(url, { headers: accept ? { accept } : {} });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

describe('GET /healthz and GET /readyz', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ listen: true });
  });
  afterAll(() => server?.close());

  it('answers /healthz 200 as JSON, or as plain text when asked', async () => {
    const json = await get(`${server.url}/healthz`);
    expect(json.status).toBe(200);
    expect(json.type).toMatch(/^application\/json/);
    expect(JSON.parse(json.text)).toEqual({ status: 'ok' });
    const text = await get(`${server.url}/healthz`, 'text/plain');
    expect(text).toEqual({ status: 200, type: 'text/plain; charset=utf-8', text: 'ok\n' });
  });

  it('answers /readyz 200 when the database answers and every migration is applied', async () => {
    const res = await get(`${server.url}/readyz`, 'application/json');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ status: 'ready' });
    expect(await get(`${server.url}/readyz`, 'text/plain, */*')).toMatchObject({ status: 200, text: 'ready\n' });
  });

  it('answers /readyz 503 naming "migrations" when a migration is not recorded', async () => {
    const [row] = (await server.db
      .selectFrom('schema_migrations' as never)
      .selectAll()
      .limit(1)
      .execute()) as Array<{ id: string; applied_at: Date }>;
    await server.db
      .deleteFrom('schema_migrations' as never)
      .where('id' as never, '=', row.id as never)
      .execute();
    try {
      const res = await get(`${server.url}/readyz`);
      expect(res.status).toBe(503);
      expect(JSON.parse(res.text)).toEqual({ status: 'unavailable', failing: ['migrations'] });
      expect(await get(`${server.url}/readyz`, 'text/plain')).toMatchObject({ status: 503, text: 'unavailable: migrations\n' });
    } finally {
      await server.db
        .insertInto('schema_migrations' as never)
        .values(row as never)
        .execute();
    }
    expect((await get(`${server.url}/readyz`)).status).toBe(200);
  });
});

describe('a Redis that does not answer', () => {
  it('stops the start with a message naming REDIS_URL (not "max retries")', async () => {
    const port = await closedPort();
    const start = startTestServer({ env: { REDIS_URL: `redis://:hunter2@127.0.0.1:${port}` } });
    await expect(start).rejects.toThrow(
      new RegExp(`^Redis at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port} is unreachable \\(REDIS_URL\\): connect ECONNREFUSED`),
    );
    await expect(start).rejects.not.toThrow(/max retries|hunter2/);
  });

  describe('once running', () => {
    let app: FastifyInstance;
    let url: string;
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
      const redisUrl = `redis://127.0.0.1:${await closedPort()}`;
      app = Fastify();
      installOpsRoutes(app, { checks: readinessChecks({ db: server.db, migrations: [], redisUrl }), metrics: new ServerMetrics() });
      url = await app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await app?.close();
      await server?.close();
    });

    it('answers /readyz 503 naming "redis" while /healthz stays 200', async () => {
      const res = await get(`${url}/readyz`);
      expect(res.status).toBe(503);
      expect(JSON.parse(res.text)).toEqual({ status: 'unavailable', failing: ['redis'] });
      expect(await get(`${url}/readyz`, 'text/plain')).toMatchObject({ status: 503, text: 'unavailable: redis\n' });
      expect((await get(`${url}/healthz`)).status).toBe(200);
    });
  });
});
