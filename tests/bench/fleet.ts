/**
 * Fleet benchmark: `npm run bench:fleet` (or `npx tsx tests/bench/fleet.ts [--calls=N]`). Prints
 * figures; asserts nothing. PostgreSQL + BullMQ on Redis (TEST_DATABASE_URL / TEST_REDIS_URL,
 * default the local services): one web server with RUN_JOBS=false takes webhook calls and
 * enqueues them; first one worker, then two, run the jobs. Each phase fires N webhook calls
 * (16 in flight) at a three-step recipe (webhook → a step that writes one row → store_record) and
 * measures from the first call to the last job succeeded: executions per second, the webhook
 * acceptance rate and the workers' CPU time per execution (from /proc, the figure that depends
 * least on what else loads a shared machine). The load average is printed: on a 2-core machine the
 * second worker need not add speed; the figure shows what it costs.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { freePort, startServerProcess, type ServerProcess } from '../integration/support/server-process';
import { emptyRedisDb, freshPgSchema, type PgSchema, type RedisDb } from '../integration/support/services';
import { call, registerApiUser, startedRecipe, webhookPath } from '../integration/support/api-user';
import { FLEET_COMBINATION, spawnWorker, until, writeFleetPlugin, type ChildProc } from '../integration/fleet-support';

const repo = path.resolve(__dirname, '../..');
const arg = (name: string, fallback: number) => {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a ? Number(a.split('=')[1]) : fallback;
};
const CALLS = arg('calls', 600);
const IN_FLIGHT = 16;

/** user + system CPU seconds of a process so far (Linux /proc). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s)
}

async function main() {
  const root = path.join(repo, '.tmp', `bench-fleet-${process.pid}-${randomBytes(3).toString('hex')}`);
  const dataDir = path.join(root, 'data');
  const pluginsDir = path.join(root, 'plugins');
  mkdirSync(dataDir, { recursive: true });
  writeFleetPlugin(pluginsDir);
  let schema: PgSchema | undefined;
  let redis: RedisDb | undefined;
  let web: ServerProcess | undefined;
  const workers: Array<ChildProc & { url: string }> = [];
  const startWorker = async (n: number) => {
    const port = await freePort();
    const w = spawnWorker(
      {
        DATA_DIR: dataDir,
        PLUGINS_DIR: pluginsDir,
        DATABASE_URL: schema!.url,
        REDIS_URL: redis!.url,
        WORKER_PORT: String(port),
        ENGINE_USER_CONCURRENCY: '64',
        FLEET_EFFECT_MS: '0',
        LOG_LEVEL: 'error',
      },
      path.join(root, `worker-${n}.log`),
    );
    const worker = { ...w, url: `http://127.0.0.1:${port}` };
    workers.push(worker);
    await until(`worker ${n} to answer /healthz`, async () => ((await fetch(`${worker.url}/healthz`)).status === 200 ? true : undefined), 90_000);
    return worker;
  };
  try {
    schema = await freshPgSchema();
    redis = await emptyRedisDb();
    console.log(
      `Fleet benchmark — node ${process.version}, ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} (1/5/15 min)`,
    );
    console.log(
      `PostgreSQL + BullMQ; one web server (RUN_JOBS=false); ${CALLS} webhook calls per phase, ${IN_FLIGHT} in flight; recipe: webhook → write a row → store_record\n`,
    );
    web = await startServerProcess({
      dataDir,
      pluginsDir,
      databaseUrl: schema.url,
      redisUrl: redis.url,
      env: { RUN_JOBS: 'false', ENGINE_USER_CONCURRENCY: '64', LOG_LEVEL: 'error' },
      logFile: path.join(root, 'web.log'),
      startTimeoutMs: 90_000,
    });
    await startWorker(1);
    const user = await registerApiUser(web.url, dataDir);
    const rec = await startedRecipe(web.url, user, FLEET_COMBINATION);
    const hook = webhookPath(rec);
    const succeeded = async () =>
      Number(
        (await schema!.query<{ n: number }>(`select count(*)::int as n from automation_jobs where recipe_id = $1 and status = 'succeeded'`, [rec.recipe_id]))[0]
          .n,
      );

    for (const phase of [1, 2]) {
      if (phase === 2) await startWorker(2);
      const before = await succeeded();
      const cpu0 = workers.map((w) => cpuSeconds(w.pid));
      const webCpu0 = cpuSeconds(web.pid);
      const t0 = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (next < CALLS) {
            const n = next++;
            await call(web!.url, 'POST', hook, { body: { name: `Customer ${n}`, n } });
          }
        }),
      );
      const accepted = (performance.now() - t0) / 1000;
      await until('every job of the phase to succeed', async () => ((await succeeded()) - before >= CALLS ? true : undefined), 300_000, 100);
      const seconds = (performance.now() - t0) / 1000;
      const workerCpu = workers.reduce((sum, w, i) => sum + cpuSeconds(w.pid) - cpu0[i], 0);
      const webCpu = cpuSeconds(web.pid) - webCpu0;
      console.log(
        `${phase} worker${phase > 1 ? 's' : ' '}: ${(CALLS / seconds).toFixed(1).padStart(6)} executions/s (webhook to done, ${seconds.toFixed(1)} s); ` +
          `webhooks accepted ${(CALLS / accepted).toFixed(0)}/s; CPU per execution: workers ${((workerCpu / CALLS) * 1000).toFixed(1)} ms, web ${((webCpu / CALLS) * 1000).toFixed(1)} ms; ` +
          `load average now ${os.loadavg()[0].toFixed(2)}`,
      );
    }
  } finally {
    for (const w of workers) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.ended));
    await web?.stop();
    await redis?.clear().catch(() => undefined);
    await schema?.drop().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
