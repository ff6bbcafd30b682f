import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, type ServerProcess } from './support/server-process';
import { TEST_REDIS_URL } from './support/services';
import { registerApiUser, startedRecipe, webhookPath, type ApiUser, type RecipeRecord } from './support/api-user';
import { FLEET_COMBINATION, SECRET_KEY, sleep, TcpProxy, until, useFleet } from './fleet-support';

/**
 * Graceful shutdown of the real processes (PostgreSQL + BullMQ on Redis): a web server sent
 * SIGTERM with 50 requests in flight (25 slow handlers, 25 webhook calls whose body is still
 * arriving) answers all of them, answers /readyz 503 while it drains and exits 0 with the jobs it
 * ran finished; a worker finishes its running jobs and exits 0, or, past SHUTDOWN_TIMEOUT_MS, exits
 * 1 and leaves them to another worker, which runs each once; `npm run worker` exits 0 when its
 * process group is signalled; /readyz asks Redis over one kept connection and names Redis while
 * it is cut off. Fails, never skips, when PostgreSQL or Redis is unreachable.
 */
const repo = path.resolve(__dirname, '../..');

interface JobRow {
  id: string;
  status: string;
}

describe('graceful shutdown of the fleet processes', () => {
  const fleet = useFleet('fleet-shutdown');
  const { root, dataDir, pluginsDir } = fleet;

  const pgRows = <R extends object>(text: string, values?: unknown[]) => fleet.schema.query<R>(text, values);
  const jobsOf = (rec: RecipeRecord) =>
    pgRows<JobRow>(`select id::text as id, status from automation_jobs where recipe_id = $1 order by created_at`, [rec.recipe_id]);
  const runsOf = (rec: RecipeRecord) =>
    pgRows<{ job_id: string; pid: number }>(
      `select r.job_id, r.pid from fleet_runs r join automation_jobs j on j.id::text = r.job_id where j.recipe_id = $1 order by r.id`,
      [rec.recipe_id],
    );
  const effectsOf = (rec: RecipeRecord) =>
    pgRows<{ job_id: string; pid: number }>(
      `select e.job_id, e.pid from fleet_effects e join automation_jobs j on j.id::text = e.job_id where j.recipe_id = $1 order by e.job_id`,
      [rec.recipe_id],
    );
  const web = (env: Record<string, string> = {}, redisUrl?: string) => fleet.web({ env, redisUrl });
  const worker = (env: Record<string, string>) => fleet.worker({ env: { LOG_LEVEL: 'info', ...env } });
  /**
   * One web server with RUN_JOBS=false for the two worker tests and the Redis test (one start
   * instead of three), started by the first test that asks. It reaches Redis through a TCP proxy,
   * which the last test cuts off.
   */
  let jobless: Promise<{ server: ServerProcess; proxy: TcpProxy; proxyPort: number }> | undefined;
  const joblessWeb = () =>
    (jobless ??= (async () => {
      const target = new URL(TEST_REDIS_URL);
      const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
      const proxyPort = await proxy.start();
      const viaProxy = new URL(fleet.redis.url);
      viaProxy.host = `127.0.0.1:${proxyPort}`;
      return { server: await web({ RUN_JOBS: 'false' }, viaProxy.toString()), proxy, proxyPort };
    })());
  afterAll(async () => {
    const started = await jobless?.catch(() => undefined);
    await started?.proxy.cut();
  });

  it('a web server sent SIGTERM with 50 requests in flight answers them all, says not ready while draining, finishes its jobs and exits 0', async () => {
    const server = await web({ SHUTDOWN_DRAIN_MS: '3000', FLEET_EFFECT_MS: '1500' });
    const user: ApiUser = await registerApiUser(server.url, dataDir);
    const rec = await startedRecipe(server.url, user, FLEET_COMBINATION);
    const port = Number(new URL(server.url).port);

    // 25 slow handlers (8 s: the server stays up long enough after the drain for its queue to begin
    // some of the webhooks' jobs, even on a machine busy with other tests) and 25 webhook calls that send half their body now, the rest later
    const slow = Array.from({ length: 25 }, () =>
      fetch(`${server.url}/api/plugins/fleet-probe/slow?ms=8000`).then(async (r) => ({ status: r.status, body: await r.json() })),
    );
    const partial = Array.from({ length: 25 }, (_, n) => {
      const body = Buffer.from(JSON.stringify({ name: `Customer ${n}`, n, padding: 'x'.repeat(200) }));
      let rest!: () => void;
      const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, method: 'POST', path: webhookPath(rec), headers: { 'content-type': 'application/json', 'content-length': body.length } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }));
          },
        );
        req.on('error', reject);
        req.write(body.subarray(0, 100));
        rest = () => req.end(body.subarray(100));
      });
      return { answer, rest: () => rest() };
    });
    await sleep(500); // every request's head has arrived

    const signalled = Date.now();
    process.kill(server.pid, 'SIGTERM');
    // draining (SHUTDOWN_DRAIN_MS): not ready, still alive and serving
    const ready = await until(
      '/readyz to answer 503',
      async () => {
        const r = await fetch(`${server.url}/readyz`);
        return r.status === 503 ? r.json() : undefined;
      },
      2000,
      50,
    );
    expect(ready).toEqual({ status: 'unavailable', failing: ['shutting down'] });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(Date.now() - signalled).toBeLessThan(3000);
    // past the drain the port takes no new connections; the bodies still arriving are finished then
    await sleep(Math.max(0, 3400 - (Date.now() - signalled)));
    await expect(newConnectionGet(port, '/healthz')).rejects.toThrow(/ECONNREFUSED/);
    for (const p of partial) p.rest();

    const slowAnswers = await Promise.all(slow);
    expect(slowAnswers).toEqual(Array(25).fill({ status: 200, body: { waited: 8000 } }));
    const webhookAnswers = await Promise.all(partial.map((p) => p.answer));
    expect(webhookAnswers.map((a) => a.status)).toEqual(Array(25).fill(200));
    expect(await server.exited).toBe(0);
    // the jobs it had begun itself (RUN_JOBS defaults to true) finished before it exited; those
    // still waiting in the queue are left there for the fleet
    const ids = webhookAnswers.map((a) => String(a.body.job_id)).sort();
    const begun = new Set((await runsOf(rec)).map((r) => r.job_id));
    expect(begun.size).toBeGreaterThan(0);
    const atExit = await jobsOf(rec);
    expect(atExit.map((j) => j.id).sort()).toEqual(ids);
    expect(atExit.filter((j) => begun.has(j.id)).map((j) => j.status)).toEqual(Array(begun.size).fill('succeeded'));
    expect(atExit.filter((j) => !begun.has(j.id)).map((j) => j.status)).not.toContain('succeeded');
    expect((await effectsOf(rec)).map((e) => e.pid)).toEqual(Array(begun.size).fill(server.pid));

    // a worker runs the rest, each job once
    const w = await worker({ FLEET_EFFECT_MS: '50' });
    await until('every job to succeed', async () => ((await jobsOf(rec)).every((j) => j.status === 'succeeded') ? true : undefined), 30_000, 250);
    await sleep(500);
    const runs = await runsOf(rec);
    expect(runs.map((r) => r.job_id).sort()).toEqual(ids);
    expect(runs.map((r) => r.pid)).toEqual(runs.map((r) => (begun.has(r.job_id) ? server.pid : w.pid)));
    expect((await effectsOf(rec)).map((e) => e.job_id).sort()).toEqual(ids);
    w.child.kill('SIGTERM');
    expect(await w.ended).toBe(0);
  }, 180_000);

  it('a worker sent SIGTERM says not ready, finishes its running jobs and exits 0', async () => {
    // started together; registration's verification mail is a job, which the worker sends (RUN_JOBS=false)
    const [{ server }, w] = await Promise.all([joblessWeb(), worker({ FLEET_EFFECT_MS: '4000' })]);
    const user = await registerApiUser(server.url, dataDir);
    const rec = await startedRecipe(server.url, user, FLEET_COMBINATION);
    const ids: string[] = [];
    for (let n = 0; n < 4; n++) ids.push(String((await postJson(`${server.url}${webhookPath(rec)}`, { n })).job_id));
    await until('four jobs inside the slow step', async () => ((await runsOf(rec)).length === 4 ? true : undefined), 20_000);

    w.child.kill('SIGTERM');
    const ready = await until(
      'the worker /readyz to answer 503',
      async () => {
        const r = await fetch(`${w.url}/readyz`);
        return r.status === 503 ? r.json() : undefined;
      },
      3000,
      50,
    );
    expect(ready).toEqual({ status: 'unavailable', failing: ['shutting down'] });
    expect(await w.ended).toBe(0);
    const jobs = await jobsOf(rec);
    expect(jobs.map((j) => [j.id, j.status])).toEqual(ids.map((id) => [id, 'succeeded']));
    expect((await runsOf(rec)).map((r) => r.pid)).toEqual(Array(4).fill(w.pid));
    expect(pairs(await effectsOf(rec))).toEqual(ids.map((id) => `${id}@${w.pid}`).sort());
  }, 180_000);

  it('a worker whose jobs outlast SHUTDOWN_TIMEOUT_MS exits 1 naming it, and another worker runs each of them once', async () => {
    // started together; the slow worker also sends registration's verification mail (a quick job)
    const [{ server }, slowWorker] = await Promise.all([joblessWeb(), worker({ FLEET_EFFECT_MS: '20000', SHUTDOWN_TIMEOUT_MS: '1000' })]);
    const user = await registerApiUser(server.url, dataDir);
    const rec = await startedRecipe(server.url, user, FLEET_COMBINATION);
    const ids: string[] = [];
    for (let n = 0; n < 2; n++) ids.push(String((await postJson(`${server.url}${webhookPath(rec)}`, { n })).job_id));
    await until('two jobs inside the slow step', async () => ((await runsOf(rec)).length === 2 ? true : undefined), 20_000);

    const signalled = Date.now();
    slowWorker.child.kill('SIGTERM');
    // the other worker starts meanwhile: it cannot take the jobs before their locks lapse, well after the slow worker is gone
    const starting = worker({ FLEET_EFFECT_MS: '100' });
    expect(await slowWorker.ended).toBe(1);
    expect(Date.now() - signalled).toBeLessThan(4000);
    expect(readFileSync(path.join(root, 'worker.log'), 'utf8')).toContain('The shutdown took longer than SHUTDOWN_TIMEOUT_MS (1000 ms): exiting now');

    const next = await starting;
    await until(
      'both jobs to succeed on the other worker',
      async () => ((await jobsOf(rec)).every((j) => j.status === 'succeeded') ? true : undefined),
      60_000,
      500,
    );
    await sleep(1000);
    const runs = await runsOf(rec);
    for (const id of ids) expect(runs.filter((r) => r.job_id === id).map((r) => r.pid)).toEqual([slowWorker.pid, next.pid]);
    expect(runs.length).toBe(4);
    expect(pairs(await effectsOf(rec))).toEqual(ids.map((id) => `${id}@${next.pid}`).sort());
    next.child.kill('SIGTERM');
    expect(await next.ended).toBe(0);
  }, 180_000);

  it('`npm run worker` exits 0, leaving no process behind, when its process group gets SIGTERM', async () => {
    const port = await freePort();
    const child = spawn('npm', ['run', 'worker'], {
      cwd: repo,
      detached: true, // a process group of its own, as a container runtime or a terminal gives it
      stdio: 'ignore',
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        SECRET_KEY,
        DATA_DIR: dataDir,
        PLUGINS_DIR: pluginsDir,
        DATABASE_URL: fleet.schema.url,
        REDIS_URL: fleet.redis.url,
        WORKER_PORT: String(port),
        HOST: '127.0.0.1',
      },
    });
    const ended = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
    await until('npm run worker to answer /healthz', async () => ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200 ? true : undefined), 60_000);
    process.kill(-child.pid!, 'SIGTERM');
    expect(await ended).toBe(0);
    await sleep(300);
    expect(() => process.kill(-child.pid!, 0)).toThrow(/ESRCH/);
  }, 90_000);

  it('/readyz asks Redis over one kept connection, names Redis while it is cut off, and is ready again once it is back', async () => {
    const { server, proxy, proxyPort } = await joblessWeb();
    expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({ status: 'ready' });
    const before = proxy.accepted;
    for (let i = 0; i < 20; i++) expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect(proxy.accepted).toBe(before);

    await proxy.cut();
    const down = await fetch(`${server.url}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ status: 'unavailable', failing: ['redis'] });
    expect(await (await fetch(`${server.url}/readyz`, { headers: { accept: 'text/plain' } })).text()).toBe('unavailable: redis\n');
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    await proxy.start(proxyPort);
    await until('/readyz to answer 200 again', async () => ((await fetch(`${server.url}/readyz`)).status === 200 ? true : undefined), 15_000, 250);
    await server.stop();
    expect(await server.exited).toBe(0);
    await proxy.cut();
  }, 90_000);
});

const pairs = (rows: Array<{ job_id: string; pid: number }>) => rows.map((r) => `${r.job_id}@${r.pid}`).sort();

/** GET over a new TCP connection (never one kept alive from earlier requests). */
function newConnectionGet(port: number, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: target, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

async function postJson(url: string, body: unknown): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST ${url} answered ${res.status}: ${text}`);
  return JSON.parse(text);
}
