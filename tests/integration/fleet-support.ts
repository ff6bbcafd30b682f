/**
 * What the fleet tests and the fleet bench share: a drop-in plugin whose recipe has a slow step
 * with a side effect (and a slow route), worker processes, a TCP proxy that can cut a service
 * off, and a Prometheus text parser.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { freePort, startServerProcess, type ServerProcess } from './support/server-process';
import { emptyRedisDb, freshPgSchema, type PgSchema, type RedisDb } from './support/services';

const repo = path.resolve(__dirname, '../..');

export const FLEET_PLUGIN_ID = 'fleet-probe';
/** webhook → fleet_probe:effect (waits params.ms or FLEET_EFFECT_MS, then its side effect) → flowmatic:store_record */
export const FLEET_COMBINATION = 9201;
export const SECRET_KEY = 'integration-secret-key-that-is-long-enough-0123456789';

/**
 * Writes the plugin into `pluginsDir/fleet-probe/server.ts` (`pluginsDir` inside the repository).
 * Its step writes a row to fleet_runs on every execution, waits, then makes its side effect: a
 * row in fleet_effects (no unique key: a second delivery would show as a second row), written in
 * the statement that records the step's idempotency key in the engine's ledger, so it happens
 * once per key however often the step runs. GET /api/plugins/fleet-probe/slow?ms= answers after ms.
 */
export function writeFleetPlugin(pluginsDir: string): void {
  const dir = path.join(pluginsDir, FLEET_PLUGIN_ID);
  mkdirSync(dir, { recursive: true });
  const face = path.relative(dir, path.join(repo, 'src/server')).replace(/\\/g, '/');
  writeFileSync(
    path.join(dir, 'server.ts'),
    `import { sql } from 'kysely';
import { defineServerPlugin, contribute, AutomationActions, T, type Db } from '${face}';

let db: Db | undefined;
const step = (provider: string, action: string) => ({ kind: 'action', provider, action });

const effect = {
  provider: 'fleet_probe',
  action: 'effect',
  name: 'Fleet side effect',
  retries: 3,
  async run(input: any, ctx: any) {
    if (!db) throw new Error('fleet-probe has not started');
    await sql\`insert into fleet_runs (key, job_id, attempt, pid) values (\${ctx.idempotencyKey}, \${ctx.jobId}, \${ctx.attempt}, \${process.pid})\`.execute(db);
    const ms = Number(ctx.params?.ms ?? process.env.FLEET_EFFECT_MS ?? 300);
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      ctx.signal?.addEventListener('abort', () => { clearTimeout(t); resolve(); });
    });
    const key = 'fleet:' + ctx.idempotencyKey;
    await sql\`with claimed as (
        insert into automation_sent_keys (key, kind) values (\${key}, 'fleet') on conflict (key) do nothing returning key)
      insert into fleet_effects (key, job_id, pid) select \${ctx.idempotencyKey}, \${ctx.jobId}, \${process.pid} from claimed\`.execute(db);
    return { ...(input?.data ?? input), effect: ctx.idempotencyKey };
  },
};

export default defineServerPlugin({
  id: '${FLEET_PLUGIN_ID}',
  needs: { db: T.Db },
  migrations: [{
    id: '${FLEET_PLUGIN_ID}/0001_fleet',
    async up(d) {
      await sql\`create table fleet_runs (id serial primary key, key text not null, job_id text not null, attempt integer not null, pid integer not null, at timestamptz not null default now())\`.execute(d);
      await sql\`create table fleet_effects (id serial primary key, key text not null, job_id text not null, pid integer not null, at timestamptz not null default now())\`.execute(d);
    },
  }],
  catalogue: {
    solutions: [{ id: 920, name: 'Fleet probe', descrption: 'Fleet probe', icon: 'test', status: 'active', author_first_name: 'Test', created_time: '2026-11-22T00:00:00Z' }],
    workflows: [{ id: 9200, solution_id: 920, name: 'Fleet probe workflow', descrption: 'Fleet probe', icon: 'test' }],
    combinations: [{
      id: ${FLEET_COMBINATION}, workflow_id: 9200, order: 1, name: 'Fleet: side effect, store', sub_title: 'fleet probe', icon: 'test',
      created_time: '2026-11-22T00:00:00Z', status: 'active', enabled: true, recommended: false, triggers: [], connectors: [],
      recipe: { name: 'Fleet probe', description: 'Fleet probe', steps: [
        { kind: 'trigger', provider: 'webhook', action: 'webhook_received' }, step('fleet_probe', 'effect'), step('flowmatic', 'store_record'),
      ] },
    }],
  } as any,
  contributes: [contribute(AutomationActions, effect)],
  onStart(deps) {
    db = deps.db;
  },
  routes(app) {
    app.get('/api/plugins/${FLEET_PLUGIN_ID}/slow', async (request) => {
      const ms = Math.min(30_000, Number((request.query as any).ms) || 0);
      await new Promise((r) => setTimeout(r, ms));
      return { waited: ms };
    });
  },
});
`,
  );
}

export interface ChildProc {
  child: ChildProcess;
  pid: number;
  exited: Promise<number | null>;
  /** resolves with the exit code (or the signal's name when killed by one) */
  ended: Promise<number | string | null>;
}

/**
 * `src/server/worker.ts` in a child process (what `npm run worker` runs), logging to logFile.
 * `exited` resolves with the exit code (null when a signal ended it), `ended` with the code or the signal's name.
 */
export function spawnWorker(env: Record<string, string>, logFile: string): ChildProc {
  const fd = openSync(logFile, 'a');
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repo, 'src/server/worker.ts')], {
      cwd: repo,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        SECRET_KEY,
        SANDBOX_PROVIDERS: 'false',
        HOST: '127.0.0.1',
        ...env,
      },
      stdio: ['ignore', fd, fd],
    });
    const ended = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
    return { child, pid: child.pid!, exited: ended.then((c) => (typeof c === 'number' ? c : null)), ended };
  } finally {
    closeSync(fd);
  }
}

export interface FleetWorker extends ChildProc {
  /** where WORKER_PORT serves /healthz, /readyz and /metrics */
  url: string;
}

/** One test file's fleet: its folder, PostgreSQL schema and Redis database, and the processes it started on them. */
export interface Fleet {
  root: string;
  dataDir: string;
  pluginsDir: string;
  readonly schema: PgSchema;
  readonly redis: RedisDb;
  /**
   * A web server (src/server/main.ts) on the fleet's schema and Redis database (or `redisUrl`),
   * ENGINE_USER_CONCURRENCY=64 unless env says otherwise; logs to root/<log> (default web.log).
   */
  web(opts?: { env?: Record<string, string>; redisUrl?: string; log?: string; startTimeoutMs?: number }): Promise<ServerProcess>;
  /**
   * A worker on a free WORKER_PORT, the same schema and Redis database, ENGINE_USER_CONCURRENCY=64
   * unless env says otherwise; resolves once it answers /healthz. Logs to root/<log> (default worker.log).
   */
  worker(opts?: { env?: Record<string, string>; log?: string; name?: string; startTimeoutMs?: number }): Promise<FleetWorker>;
}

/**
 * Sets up a fleet for the enclosing describe: beforeAll makes a folder under .tmp with the
 * fleet-probe plugin, a fresh PostgreSQL schema and an empty Redis database; afterAll kills
 * (SIGKILL) every process started through it and removes all three.
 */
export function useFleet(name: string): Fleet {
  const root = path.join(repo, '.tmp', `${name}-${process.pid}-${randomBytes(3).toString('hex')}`);
  const dataDir = path.join(root, 'data');
  const pluginsDir = path.join(root, 'plugins');
  let schema: PgSchema | undefined;
  let redis: RedisDb | undefined;
  const webs: ServerProcess[] = [];
  const workers: ChildProc[] = [];

  beforeAll(async () => {
    mkdirSync(dataDir, { recursive: true });
    writeFleetPlugin(pluginsDir);
    [schema, redis] = await Promise.all([freshPgSchema(), emptyRedisDb()]);
  }, 30_000);

  afterAll(async () => {
    for (const w of workers) w.child.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.ended));
    await Promise.all(webs.map((s) => s.kill9()));
    await redis?.clear().catch(() => undefined);
    await schema?.drop().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  }, 30_000);

  const fleet: Fleet = {
    root,
    dataDir,
    pluginsDir,
    get schema() {
      if (!schema) throw new Error('The fleet has no PostgreSQL schema before its beforeAll');
      return schema;
    },
    get redis() {
      if (!redis) throw new Error('The fleet has no Redis database before its beforeAll');
      return redis;
    },
    async web({ env = {}, redisUrl, log = 'web.log', startTimeoutMs = 90_000 } = {}) {
      const s = await startServerProcess({
        dataDir,
        pluginsDir,
        databaseUrl: fleet.schema.url,
        redisUrl: redisUrl ?? fleet.redis.url,
        env: { ENGINE_USER_CONCURRENCY: '64', ...env },
        logFile: path.join(root, log),
        startTimeoutMs,
      });
      webs.push(s);
      return s;
    },
    async worker({ env = {}, log = 'worker.log', name = 'the worker', startTimeoutMs = 90_000 } = {}) {
      const port = await freePort();
      const w = spawnWorker(
        {
          DATA_DIR: dataDir,
          PLUGINS_DIR: pluginsDir,
          DATABASE_URL: fleet.schema.url,
          REDIS_URL: fleet.redis.url,
          WORKER_PORT: String(port),
          ENGINE_USER_CONCURRENCY: '64',
          ...env,
        },
        path.join(root, log),
      );
      workers.push(w);
      const worker = { ...w, url: `http://127.0.0.1:${port}` };
      await until(`${name} to answer /healthz`, async () => ((await fetch(`${worker.url}/healthz`)).status === 200 ? true : undefined), startTimeoutMs);
      return worker;
    },
  };
  return fleet;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls probe until it gives a value (errors count as not yet); throws naming `what` after timeoutMs. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** A TCP proxy to a service that can be cut off (connections dropped, port closed) and restored on the same port. */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  /** connections accepted so far */
  accepted = 0;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(port = 0): Promise<number> {
    const server = createServer((client) => {
      this.accepted += 1;
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as { port: number }).port;
    return this.port;
  }

  /** Drops every connection and stops listening: the service looks gone. */
  async cut(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export interface PromFamily {
  type: string;
  samples: Array<{ name: string; labels: Record<string, string>; value: number }>;
}

/**
 * Parses Prometheus text exposition (version 0.0.4): every line must be a # HELP / # TYPE comment
 * or a sample `name{label="value",...} number`; throws naming the first line that is neither.
 */
export function parsePrometheus(text: string): Map<string, PromFamily> {
  const families = new Map<string, PromFamily>();
  const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.eE+-]+|NaN|\+Inf|-Inf)(?: -?\d+)?$/;
  const label = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
  const familyOf = (name: string) => {
    for (const suffix of ['_bucket', '_sum', '_count', '']) {
      if (name.endsWith(suffix) && families.has(name.slice(0, name.length - suffix.length))) return families.get(name.slice(0, name.length - suffix.length))!;
    }
    return undefined;
  };
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      families.set(type[1], { type: type[2], samples: [] });
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* /.test(line)) continue;
    const m = sample.exec(line);
    if (!m) throw new Error(`Not Prometheus text: ${JSON.stringify(line)}`);
    const family = familyOf(m[1]);
    if (!family) throw new Error(`A sample without a # TYPE line: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(label)) labels[l[1]] = l[2];
    family.samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return families;
}

/** The value of one sample (by exact name and labels), or undefined. */
export function promValue(families: Map<string, PromFamily>, family: string, name: string, labels: Record<string, string>): number | undefined {
  const s = families
    .get(family)
    ?.samples.find((x) => x.name === name && JSON.stringify(Object.entries(x.labels).sort()) === JSON.stringify(Object.entries(labels).sort()));
  return s?.value;
}
