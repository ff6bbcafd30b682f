import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { registerApiUser } from './support/api-user';
import { freePort, startServerProcess, type ServerProcess } from './support/server-process';
import { emptyRedisDb, freshPgSchema, type PgSchema, type RedisDb } from './support/services';
import { spawnWorker, until, type ChildProc } from './fleet-support';

const repo = path.resolve(__dirname, '../..');

/** The value of one sample line of Prometheus text, e.g. flowmatic_jobs_total{queue="mail.send",status="completed"}. */
function sampleValue(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('npm run worker', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'flowmatic-ops-worker-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('exits non-zero naming DATABASE_URL and REDIS_URL when they are not set', async () => {
    const log = path.join(dir, 'worker.log');
    const { exited } = spawnWorker({ DATA_DIR: dir }, log);
    expect(await exited).toBe(1);
    expect(readFileSync(log, 'utf8')).toContain(
      "Invalid configuration: DATABASE_URL and REDIS_URL must be set for a worker: it shares the web servers' PostgreSQL database and Redis queue",
    );
  });

  describe('beside a web server with RUN_JOBS=false', () => {
    let schema: PgSchema;
    let redis: RedisDb;
    let web: ServerProcess | undefined;
    let starting: Promise<ServerProcess> | undefined;
    let worker: ChildProc | undefined;
    afterEach(async () => {
      worker?.child.kill('SIGKILL');
      await worker?.exited;
      web ??= await starting?.catch(() => undefined);
      await web?.kill9();
      await redis?.clear();
      await schema?.drop();
    });

    it('runs the jobs the web server enqueues, and serves only /healthz, /readyz and /metrics on WORKER_PORT', async () => {
      schema = await freshPgSchema();
      redis = await emptyRedisDb();
      // the web server and the worker start together (the migrations run once under their advisory lock)
      starting = startServerProcess({
        dataDir: dir,
        pluginsDir: path.join(repo, 'plugins'),
        databaseUrl: schema.url,
        redisUrl: redis.url,
        env: { RUN_JOBS: 'false' },
        logFile: path.join(dir, 'web.log'),
      });
      const workerPort = await freePort();
      const appPort = await freePort();
      worker = spawnWorker(
        {
          DATA_DIR: dir,
          PLUGINS_DIR: path.join(repo, 'plugins'),
          DATABASE_URL: schema.url,
          REDIS_URL: redis.url,
          WORKER_PORT: String(workerPort),
          PORT: String(appPort),
        },
        path.join(dir, 'worker.log'),
      );
      const w = `http://127.0.0.1:${workerPort}`;
      [web] = await Promise.all([
        starting,
        until('the worker answers /healthz', async () => ((await fetch(`${w}/healthz`)).status === 200 ? true : undefined)),
      ]);

      // registration's verification mail is a job: the web server only enqueues it, the worker sends it
      const user = await registerApiUser(web.url, dir);
      expect(user.access).toEqual(expect.any(String));

      const workerMetrics = await (await fetch(`${w}/metrics`)).text();
      expect(sampleValue(workerMetrics, 'flowmatic_jobs_total{queue="mail.send",status="completed"}')).toBe(1);
      expect(sampleValue(workerMetrics, 'flowmatic_queue_depth{queue="mail.send"}')).toBe(0);
      const webMetrics = await (await fetch(`${web.url}/metrics`)).text();
      expect(webMetrics).not.toContain('flowmatic_jobs_total{');
      expect(webMetrics).toContain('flowmatic_http_request_duration_seconds_count{method="POST",route="/api/platform/register",status="');

      expect(await (await fetch(`${w}/readyz`)).json()).toEqual({ status: 'ready' });
      expect((await fetch(`${w}/readyz`)).status).toBe(200);
      expect((await fetch(`${w}/api/platform/userId`)).status).toBe(404);
      expect((await fetch(`${w}/`)).status).toBe(404);
      // nothing listens on PORT
      await expect(fetch(`http://127.0.0.1:${appPort}/healthz`)).rejects.toThrow();

      // SIGTERM: the worker closes its queue and exits 0
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
    });
  });
});
