import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { freshPgSchema, type PgSchema } from './support/services';
import { call, registerApiUser, type ApiUser } from './support/api-user';

/**
 * A PostgreSQL connection blip: every connection of the real server (a child process) is
 * terminated with pg_terminate_backend. The server must stay up and serve the next requests on
 * new connections. Fails, never skips, when PostgreSQL is unreachable.
 */
const repo = path.resolve(__dirname, '../..');
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

jest.setTimeout(120_000);

describe('the server survives its database connections being terminated', () => {
  const root = path.join(repo, '.tmp', `db-blip-${process.pid}-${randomBytes(3).toString('hex')}`);
  const dataDir = path.join(root, 'data');
  const pluginsDir = path.join(root, 'plugins');
  const logFile = path.join(root, 'server.log');
  const appName = `d1-blip-${randomBytes(4).toString('hex')}`;
  let pgSchema: PgSchema;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    mkdirSync(pluginsDir, { recursive: true });
    mkdirSync(dataDir, { recursive: true });
    pgSchema = await freshPgSchema();
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
    await pgSchema?.drop().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  }, 30_000);

  const terminate = async () =>
    (await pgSchema.query(`select pg_terminate_backend(pid) as done from pg_stat_activity where application_name = $1`, [appName])).length;

  it('keeps serving after pg_terminate_backend of all its connections, twice', async () => {
    const url = new URL(pgSchema.url);
    url.searchParams.set('application_name', appName);
    server = await startServerProcess({ dataDir, pluginsDir, logFile, databaseUrl: url.toString() });
    let exitCode: number | null | undefined;
    void server.exited.then((c) => (exitCode = c));
    const user: ApiUser = await registerApiUser(server.url, dataDir);
    for (let round = 0; round < 2; round++) {
      // a few requests in flight so that busy and idle connections are both cut
      const busy = Array.from({ length: 4 }, () => call(server!.url, 'GET', '/api/platform/userId', { token: user.access }).catch(() => undefined));
      expect(await terminate()).toBeGreaterThan(0);
      await Promise.all(busy);
      await sleep(1500);
      expect(exitCode).toBeUndefined();
      // the next requests succeed, on new connections
      for (let i = 0; i < 5; i++) {
        const me = await call<{ workato_id: number | null }>(server.url, 'GET', '/api/platform/userId', { token: user.access });
        expect(me.workato_id).toBe(user.workatoId);
      }
      const fresh = await call<{ access: string }>(server.url, 'POST', '/api/platform/api-jwt-token/', {
        body: { username: user.email, password: 'a long enough password 123' },
      });
      expect(fresh.access).toEqual(expect.any(String));
    }
    await sleep(1000);
    expect(exitCode).toBeUndefined();
  });
});
