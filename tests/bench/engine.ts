/**
 * Engine benchmark: `npx tsx tests/bench/engine.ts` (also called by `npm run bench`). Prints
 * figures; asserts nothing. The real server runs in a child process (src/server/main.ts) with a
 * probe plugin whose catalogue gives the recipes; the load comes from another child process
 * (undici, loopback only, bounded in count and time). Latency is measured from the job record's
 * creation (the webhook accepted the call) to its completion, both stamped by the server.
 * Set-ups: embedded PGlite + DB queue, PostgreSQL + DB queue, PostgreSQL + BullMQ
 * (TEST_DATABASE_URL / TEST_REDIS_URL, default the local services). Add `--only=embedded` etc.
 * Each phase also prints the server process's CPU time per execution (from /proc), a figure that
 * depends far less on what else loads a shared machine than rates and latencies do; the load
 * average is printed with every set-up. `--cpu-prof=<dir>` has each server process write a V8 CPU
 * profile into <dir> when it stops (engine-<set-up>-<pid>.cpuprofile, for Chrome's DevTools; node
 * refuses --cpu-prof in NODE_OPTIONS, so a small preload starts the profiler).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { startServerProcess, type ServerProcess } from '../integration/support/server-process';
import { emptyRedisDb, freshPgSchema, type PgSchema, type RedisDb } from '../integration/support/services';
import { PROBE, PROBE_PLUGIN_ID, writeProbePlugin } from '../integration/support/probe-plugin';
import { call, registerApiUser, startedRecipe, webhookPath, type ApiUser } from '../integration/support/api-user';

const repo = path.resolve(__dirname, '../..');

// ---------------------------------------------------------------- the load generator (child)

interface LoadSpec {
  url: string;
  paths: string[];
  /** closed: `concurrency` calls in flight; open: `rate` calls per second whatever the answers */
  mode: 'closed' | 'open';
  count: number;
  concurrency: number;
  rate: number;
  maxSeconds: number;
}

interface LoadResult {
  sent: number;
  accepted: number;
  refused: Record<string, number>;
  seconds: number;
  acceptP50: number;
  acceptP99: number;
}

/** Open-loop calls in flight at most: a server that falls behind is not buried under thousands. */
const MAX_IN_FLIGHT = 256;

const quantile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN);

async function loadGenerator(spec: LoadSpec): Promise<LoadResult> {
  const { Pool } = await import('undici');
  const pool = new Pool(spec.url, { connections: Math.max(spec.concurrency, 64), pipelining: 1 });
  const latencies: number[] = [];
  const refused: Record<string, number> = {};
  let sent = 0;
  const started = performance.now();
  const deadline = started + spec.maxSeconds * 1000;
  const one = async (i: number) => {
    const t = performance.now();
    try {
      const res = await pool.request({
        method: 'POST',
        path: spec.paths[i % spec.paths.length],
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Customer ${i}`, order: { total: i % 1000, lines: [{ sku: 'A-1', qty: 2 }] }, n: i }),
      });
      await res.body.text();
      if (res.statusCode === 200) latencies.push(performance.now() - t);
      else refused[res.statusCode] = (refused[res.statusCode] ?? 0) + 1;
    } catch (e) {
      const code = (e as { code?: string }).code ?? 'error';
      refused[code] = (refused[code] ?? 0) + 1;
    }
  };
  if (spec.mode === 'closed') {
    await Promise.all(
      Array.from({ length: spec.concurrency }, async () => {
        while (sent < spec.count && performance.now() < deadline) await one(sent++);
      }),
    );
  } else {
    const inFlight = new Set<Promise<void>>();
    while (sent < spec.count && performance.now() < deadline) {
      const due = started + (sent * 1000) / spec.rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight); // bounded even when the server stalls
      const p = one(sent++).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await Promise.all(inFlight);
  }
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { sent, accepted: latencies.length, refused, seconds, acceptP50: quantile(latencies, 0.5), acceptP99: quantile(latencies, 0.99) };
}

/** Runs the load generator in its own process and returns what it measured. */
function runLoad(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', __filename, '--load', JSON.stringify(spec)],
      // room for the calls still in flight when sending stops, on a slow (loaded) machine
      { cwd: repo, timeout: (spec.maxSeconds + 240) * 1000, maxBuffer: 1 << 20, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' } },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`The load generator failed: ${err.message}\n${stderr}`));
        resolve(JSON.parse(stdout.trim().split('\n').pop()!));
      },
    );
  });
}

// ---------------------------------------------------------------- the orchestrator

interface Setup {
  name: string;
  key: 'embedded' | 'pg-db' | 'pg-bullmq';
  postgres: boolean;
  redis: boolean;
}

const SETUPS: Setup[] = [
  { name: 'embedded PGlite + DB queue', key: 'embedded', postgres: false, redis: false },
  { name: 'PostgreSQL + DB queue', key: 'pg-db', postgres: true, redis: false },
  { name: 'PostgreSQL + BullMQ', key: 'pg-bullmq', postgres: true, redis: true },
];

interface JobTime {
  status: string;
  created: number;
  completed: number | null;
}

interface Phase {
  label: string;
  load: LoadResult;
  done: number;
  failed: number;
  rate: number;
  p50: number;
  p99: number;
  /** CPU time of the server process per finished execution (accepting and running it), ms */
  cpuPerExec: number;
}

/** CPU time (user + system) a process has used so far, ms (Linux /proc; NaN elsewhere). */
function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 1/100 s
  } catch {
    return NaN;
  }
}

const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '—');

class Bench {
  private readonly recipes = new Map<string, { user: ApiUser; id: number; path: string }>();
  constructor(
    private readonly server: ServerProcess,
    private readonly users: ApiUser[],
  ) {}

  async prepare(): Promise<void> {
    for (const [i, user] of this.users.entries()) {
      for (const c of [PROBE.threeStep, ...(i === 0 ? [PROBE.oneAction, PROBE.threeActions] : [])]) {
        const rec = await startedRecipe(this.server.url, user, c);
        this.recipes.set(`${c}:${i}`, { user, id: rec.recipe_id, path: webhookPath(rec) });
      }
    }
  }

  private of(combination: number) {
    return [...this.recipes.entries()].filter(([k]) => k.startsWith(`${combination}:`)).map(([, v]) => v);
  }

  private async finishedCount(combination: number): Promise<number> {
    let n = 0;
    for (const r of this.of(combination)) {
      const body = await call<{ workato_recipes: Array<{ recipe_id: number; job_succeeded_count: number; job_failed_count: number }> }>(
        this.server.url,
        'GET',
        `/api/platform/userByWorkatoRecipe/${r.user.workatoId}/`,
        { token: r.user.access },
      );
      const rec = body.workato_recipes.find((x) => x.recipe_id === r.id)!;
      n += rec.job_succeeded_count + rec.job_failed_count;
    }
    return n;
  }

  private async times(combination: number, from: number): Promise<JobTime[]> {
    const all: JobTime[] = [];
    for (const r of this.of(combination)) {
      const body = await call<{ jobs: JobTime[] }>(this.server.url, 'GET', `/api/plugins/${PROBE_PLUGIN_ID}/job-times?recipe=${r.id}`, {
        token: r.user.access,
      });
      all.push(...body.jobs.filter((j) => j.created >= from));
    }
    return all;
  }

  /** Sends the load, waits (bounded) for the jobs to finish, and reads their server-side times. */
  async phase(label: string, combination: number, spec: Omit<LoadSpec, 'url' | 'paths'>, waitSeconds = 90): Promise<Phase> {
    const before = await this.finishedCount(combination);
    const from = Date.now() - 5;
    const cpuBefore = cpuMsOf(this.server.pid);
    const load = await runLoad({ ...spec, url: this.server.url, paths: this.of(combination).map((r) => r.path) });
    const deadline = Date.now() + waitSeconds * 1000;
    while ((await this.finishedCount(combination)) - before < load.accepted && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    const cpu = cpuMsOf(this.server.pid) - cpuBefore;
    const jobs = await this.times(combination, from);
    const finished = jobs.filter((j) => j.completed !== null);
    const lat = finished.map((j) => j.completed! - j.created).sort((a, b) => a - b);
    const span = finished.length ? (Math.max(...finished.map((j) => j.completed!)) - Math.min(...jobs.map((j) => j.created))) / 1000 : NaN;
    return {
      label,
      load,
      done: finished.filter((j) => j.status === 'succeeded').length,
      failed: finished.filter((j) => j.status === 'failed').length,
      rate: finished.length / span,
      p50: quantile(lat, 0.5),
      p99: quantile(lat, 0.99),
      cpuPerExec: cpu / Math.max(1, finished.length),
    };
  }
}

function printPhase(p: Phase): void {
  const refused = Object.entries(p.load.refused)
    .map(([k, v]) => `${k}×${v}`)
    .join(' ');
  console.log(
    `  ${p.label.padEnd(34)} sent ${String(p.load.sent).padStart(5)} (${fmt(p.load.sent / p.load.seconds, 0)}/s)  done ${String(p.done).padStart(5)}${p.failed ? ` failed ${p.failed}` : ''}` +
      `  ${fmt(p.rate).padStart(6)} exec/s  accepted→completed p50 ${fmt(p.p50).padStart(6)} ms  p99 ${fmt(p.p99).padStart(7)} ms  (accept p50 ${fmt(p.load.acceptP50)} ms)  server CPU ${fmt(p.cpuPerExec, 2)} ms/exec${refused ? `  refused: ${refused}` : ''}`,
  );
}

/**
 * A preload (node --import) that profiles the process from its start and writes the profile to
 * `<prefix>-<pid>.cpuprofile` when it exits (the server exits on SIGTERM after its shutdown).
 */
function writeProfilerPreload(dir: string, prefix: string): string {
  const file = path.join(dir, 'cpu-profiler.mjs');
  writeFileSync(
    file,
    `import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.start');
process.once('exit', () => {
  // an in-thread session answers synchronously, so this runs before the process ends
  session.post('Profiler.stop', (err, res) => {
    if (!err) writeFileSync(${JSON.stringify(prefix)} + '-' + process.pid + '.cpuprofile', JSON.stringify(res.profile));
  });
});
`,
  );
  return file;
}

async function benchSetup(setup: Setup, cpuProfDir?: string): Promise<void> {
  const root = path.join(repo, '.tmp', `bench-engine-${process.pid}-${randomBytes(3).toString('hex')}`);
  const dataDir = path.join(root, 'data');
  const pluginsDir = path.join(root, 'plugins');
  mkdirSync(dataDir, { recursive: true });
  writeProbePlugin(pluginsDir);
  let pg: PgSchema | undefined;
  let redis: RedisDb | undefined;
  let server: ServerProcess | undefined;
  try {
    if (setup.postgres) pg = await freshPgSchema();
    if (setup.redis) redis = await emptyRedisDb();
    server = await startServerProcess({
      dataDir,
      pluginsDir,
      logFile: path.join(root, 'server.log'),
      databaseUrl: pg?.url,
      redisUrl: redis?.url,
      // many users' jobs at once, as production sees them: the per-user limit is not what is measured
      env: {
        ENGINE_USER_CONCURRENCY: '1000',
        LOG_LEVEL: 'warn',
        ...(cpuProfDir ? { NODE_OPTIONS: `--import ${JSON.stringify(writeProfilerPreload(root, path.join(cpuProfDir, `engine-${setup.key}`)))}` } : {}),
      },
    });
    const users: ApiUser[] = [];
    for (let i = 0; i < 4; i++) users.push(await registerApiUser(server.url, dataDir));
    const bench = new Bench(server, users);
    await bench.prepare();
    console.log(
      `\n${setup.name} (load average ${os
        .loadavg()
        .map((l) => fmt(l, 2))
        .join(' ')})`,
    );
    await bench.phase('warm-up', PROBE.threeStep, { mode: 'closed', count: 200, concurrency: 8, rate: 0, maxSeconds: 20 });
    printPhase(await bench.phase('3-step, max (32 in flight)', PROBE.threeStep, { mode: 'closed', count: 1500, concurrency: 32, rate: 0, maxSeconds: 30 }));
    printPhase(await bench.phase('3-step, 200/s offered for 10 s', PROBE.threeStep, { mode: 'open', count: 2000, concurrency: 0, rate: 200, maxSeconds: 12 }));
    printPhase(await bench.phase('3-step, 100/s offered for 10 s', PROBE.threeStep, { mode: 'open', count: 1000, concurrency: 0, rate: 100, maxSeconds: 12 }));
    const one = await bench.phase('1 action, one at a time', PROBE.oneAction, { mode: 'closed', count: 200, concurrency: 1, rate: 0, maxSeconds: 30 });
    const three = await bench.phase('3 actions, one at a time', PROBE.threeActions, { mode: 'closed', count: 200, concurrency: 1, rate: 0, maxSeconds: 30 });
    printPhase(one);
    printPhase(three);
    console.log(
      `  per-step overhead (p50 of 3 transforms − p50 of 1 transform) / 2 = ${fmt((three.p50 - one.p50) / 2, 2)} ms; in server CPU ${fmt((three.cpuPerExec - one.cpuPerExec) / 2, 2)} ms`,
    );
    console.log(
      `  load average at the end: ${os
        .loadavg()
        .map((l) => fmt(l, 2))
        .join(' ')}`,
    );
  } finally {
    await server?.stop();
    await pg?.drop().catch(() => undefined);
    await redis?.clear().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  }
}

/** Runs the engine benchmark over the three set-ups (or those named by --only=a,b). */
export async function benchEngine(argv: string[] = process.argv.slice(2)): Promise<void> {
  const only = argv
    .find((a) => a.startsWith('--only='))
    ?.slice(7)
    .split(',');
  const cpuProf = argv.find((a) => a.startsWith('--cpu-prof='))?.slice(11);
  const cpuProfDir = cpuProf ? path.resolve(cpuProf) : undefined;
  if (cpuProfDir) mkdirSync(cpuProfDir, { recursive: true });
  const load = os.loadavg()[0];
  console.log(
    `Engine: webhook → transform → store_record, ${os.cpus().length} cores, load average ${fmt(load, 2)} at start${load > 1 ? ' (the machine is shared: figures are lower than on an idle one)' : ''}`,
  );
  for (const s of SETUPS) if (!only || only.includes(s.key)) await benchSetup(s, cpuProfDir);
}

if (process.argv[2] === '--load') {
  loadGenerator(JSON.parse(process.argv[3]) as LoadSpec)
    .then((r) => console.log(JSON.stringify(r)))
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
} else if (require.main === module) {
  benchEngine().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
