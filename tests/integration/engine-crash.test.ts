import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { emptyRedisDb, freshPgSchema, type PgSchema, type RedisDb } from './support/services';
import { PROBE, PROBE_PLUGIN_ID, writeProbePlugin } from './support/probe-plugin';
import { call, registerApiUser, startedRecipe, webhookPath, type ApiUser, type RecipeRecord } from './support/api-user';

/**
 * kill -9 of the real server (a child process) while three jobs are inside a slow step whose
 * side effect is already done, then a restart on the same database and queue: every job must
 * complete exactly once (succeeded, its side effect and its stored record once, the slow step
 * run again only because the first run never checkpointed), and none may be lost. With the
 * database queue on PostgreSQL, with BullMQ on Redis, and with the embedded PGlite default.
 * Fails, never skips, when PostgreSQL or Redis is unreachable.
 */
const repo = path.resolve(__dirname, '../..');
const JOBS = 3;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Counts {
  runs: Array<{ key: string; attempt: number; pid: number }>;
  effects: Array<{ key: string }>;
  records: Array<{ key: string }>;
  jobs: Array<{ id: string; status: string; attempt: number }>;
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(200);
  }
}

describe.each([
  ['the DB queue on PostgreSQL', { postgres: true, redis: false }],
  ['BullMQ on Redis (PostgreSQL database)', { postgres: true, redis: true }],
  ['the embedded default (PGlite + DB queue)', { postgres: false, redis: false }],
])('kill -9 in the middle of a job: %s', (_label, setup) => {
  const root = path.join(repo, '.tmp', `engine-crash-${process.pid}-${randomBytes(3).toString('hex')}`);
  const dataDir = path.join(root, 'data');
  const pluginsDir = path.join(root, 'plugins');
  const logFile = path.join(root, 'server.log');
  let pgSchema: PgSchema | undefined;
  let redisDb: RedisDb | undefined;
  let server: ServerProcess | undefined;

  const start = () => startServerProcess({ dataDir, pluginsDir, logFile, databaseUrl: pgSchema?.url, redisUrl: redisDb?.url, env: { LOG_LEVEL: 'info' } });

  beforeAll(async () => {
    mkdirSync(dataDir, { recursive: true });
    writeProbePlugin(pluginsDir);
    if (setup.postgres) pgSchema = await freshPgSchema();
    if (setup.redis) redisDb = await emptyRedisDb();
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    await pgSchema?.drop().catch(() => undefined);
    await redisDb?.clear().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  }, 30_000);

  it('completes every job exactly once after a restart, losing none', async () => {
    server = await start();
    const user: ApiUser = await registerApiUser(server.url, dataDir);
    const rec: RecipeRecord = await startedRecipe(server.url, user, PROBE.crash);
    const counts = (s: ServerProcess) => call<Counts>(s.url, 'GET', `/api/plugins/${PROBE_PLUGIN_ID}/counts?recipe=${rec.recipe_id}`, { token: user.access });

    const jobIds: string[] = [];
    for (let n = 0; n < JOBS; n++) {
      const res = await call<{ status: string; job_id: string }>(server.url, 'POST', webhookPath(rec), {
        body: { name: `Customer ${n}`, order: { total: 10 + n }, n },
      });
      jobIds.push(res.job_id);
    }
    // every job inside the slow step, its side effect done, nothing checkpointed yet
    const live = server;
    await until('the three jobs to be inside the slow step', 20_000, async () => {
      const c = await counts(live);
      return c.runs.length === JOBS && c.effects.length === JOBS ? c : undefined;
    });
    await sleep(300);
    const before = await counts(server);
    expect(before.jobs.map((j) => j.status)).toEqual(Array(JOBS).fill('running'));
    const killedPid = server.pid;
    await server.kill9();
    server = undefined;

    const restartedAt = Date.now();
    server = await start();
    const again = server;
    const after = await until('every job to finish after the restart', 75_000, async () => {
      const c = await counts(again);
      return c.jobs.every((j) => j.status === 'succeeded' || j.status === 'failed') ? c : undefined;
    });
    // nothing runs a third time afterwards
    await sleep(2000);
    const settled = await counts(server);
    console.log(`${_label}: ${JOBS} jobs recovered ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the restart began`);

    expect(settled).toEqual(after);
    expect(after.jobs.map((j) => [j.id, j.status])).toEqual(jobIds.map((id) => [id, 'succeeded']));
    const keys = jobIds.map((id) => `${id}:1`).sort();
    // the side effect once per job, the stored record once per job
    expect(after.effects.map((e) => e.key)).toEqual(keys);
    expect(after.records.map((r) => r.key)).toEqual(jobIds.map((id) => `${id}:2`).sort());
    // the slow step ran twice per job: once in the killed process, once after the restart
    for (const key of keys) {
      const runs = after.runs.filter((r) => r.key === key);
      expect(runs.map((r) => r.pid === killedPid)).toEqual([true, false]);
    }
    const record = await call<{ workato_recipes: RecipeRecord[] }>(server.url, 'GET', `/api/platform/userByWorkatoRecipe/${user.workatoId}/`, {
      token: user.access,
    });
    expect(record.workato_recipes.find((r) => r.recipe_id === rec.recipe_id)).toMatchObject({ job_succeeded_count: JOBS, job_failed_count: 0 });
    for (const id of jobIds) {
      const { steps } = await call<{ steps: Array<{ status: string }> }>(server.url, 'GET', `/api/automation/jobs/${id}`, { token: user.access });
      expect(steps.map((s) => s.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    }
  }, 120_000);
});
