/**
 * Benchmarks: `npm run bench`. Prints figures; asserts nothing. Runs the real server (on-disk
 * embedded database in a temp folder, every plugin) on a loopback port and drives it over HTTP.
 */
import 'reflect-metadata';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildServer } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { discoverServerPlugins } from '../../src/server/plugin-loader';
import { Argon2Hasher } from '../../src/server/auth/password';
import { DbQueue } from '../../src/server/queue/db-queue';
import type { Db } from '../../src/server/db/database';
import * as T from '../../src/server/tokens';

const repo = path.resolve(__dirname, '../..');

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { p50: q(0.5), p95: q(0.95), max: s[s.length - 1] };
}

const fmt = (n: number, d = 1) => n.toFixed(d);

/** Runs `total` calls of `fn` with `concurrency` in flight; returns per-call latencies and the rate. */
async function load(total: number, concurrency: number, fn: (i: number) => Promise<void>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        await fn(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { ...stats(latencies), rate: total / seconds };
}

function row(name: string, r: { p50: number; p95: number; max: number; rate: number }, unit = 'req/s') {
  console.log(
    `${name.padEnd(48)} ${fmt(r.rate).padStart(8)} ${unit}   p50 ${fmt(r.p50).padStart(6)} ms   p95 ${fmt(r.p95).padStart(6)} ms   max ${fmt(r.max).padStart(6)} ms`,
  );
}

async function main() {
  console.log(`Flowmatic benchmarks — node ${process.version}, ${require('node:os').cpus().length} cores\n`);

  // 1. password hashing at the production cost
  const hasher = new Argon2Hasher();
  const hashTimes: number[] = [];
  let hash = '';
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    hash = await hasher.hash('correct horse battery staple');
    hashTimes.push(performance.now() - t);
  }
  const h = stats(hashTimes);
  console.log(`argon2id hash (19 MiB, t=2)                      p50 ${fmt(h.p50)} ms   p95 ${fmt(h.p95)} ms`);

  // 2. the server over HTTP
  const dataDir = mkdtempSync(path.join(tmpdir(), 'flowmatic-bench-'));
  // the bench measures throughput, not the rate limits (a POST is a write: 60 a minute per user by default)
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      AUTH_RATE_LIMIT: '100000',
      WRITE_RATE_LIMIT_PER_USER: '1000000',
      WRITE_RATE_LIMIT_PER_ADDRESS: '1000000',
      LOG_LEVEL: 'error',
      CLIENT_DIR: path.join(dataDir, 'none'),
    },
    repo,
  );
  const startT = performance.now();
  const server = await buildServer({ config, plugins: await discoverServerPlugins(path.join(repo, 'plugins')), logger: false });
  const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  console.log(`server start-up (migrations + catalogue seed, new database)   ${fmt(performance.now() - startT, 0)} ms\n`);
  try {
    const db = server.container.get<Db>(T.Db);
    const email = 'bench@example.com';
    const user = await db
      .insertInto('users')
      .values({ name: 'Bench', email, password_hash: hash, role: 'bm', company_name: 'Bench Ltd', is_verified: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('managed_users').values({ user_id: user.id, external_id: 'bench' }).execute();

    const post = (p: string, body: unknown, token?: string) =>
      fetch(url + p, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    const get = (p: string, token: string) => fetch(url + p, { headers: { authorization: `Bearer ${token}` } });

    const login = await (await post('/api/platform/api-jwt-token/', { username: email, password: 'correct horse battery staple' })).json();
    const token = login.access as string;
    const check = async (res: Response) => {
      if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };

    row(
      'POST api-jwt-token/ (login, 4 in flight)',
      await load(40, 4, async () => check(await post('/api/platform/api-jwt-token/', { username: email, password: 'correct horse battery staple' }))),
    );
    row('GET userId (8 in flight)', await load(2000, 8, async () => check(await get('/api/platform/userId', token))));
    row('GET combinations (8 in flight)', await load(1000, 8, async () => check(await get('/api/platform/combinations', token))));
    row('GET workflows/10004/ (8 in flight)', await load(1000, 8, async () => check(await get('/api/platform/workflows/10004/', token))));
    row(
      'POST searchWorkflowTemplate (8 in flight)',
      await load(1000, 8, async () => check(await post('/api/platform/searchWorkflowTemplate', { SolutionId: 1, Query: 'invoice' }, token))),
    );
  } finally {
    await server.close();
  }

  // 3. the durable database queue
  {
    const cfg = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error', CLIENT_DIR: path.join(dataDir, 'none') }, repo);
    const s = await buildServer({ config: cfg, plugins: [], logger: false });
    try {
      const total = 500;
      let done = 0;
      let resolveAll!: () => void;
      const all = new Promise<void>((r) => (resolveAll = r));
      // a second queue instance on the server's database, with only the benchmark's handler
      const bench = new DbQueue(s.container.get<Db>(T.Db), { pollMs: 50 });
      bench.process(
        'bench.noop',
        async () => {
          if (++done === total) resolveAll();
        },
        { concurrency: 4 },
      );
      await bench.start();
      const t = performance.now();
      for (let i = 0; i < total; i++) await bench.add('bench.noop', { i });
      const enqueueMs = performance.now() - t;
      await all;
      const seconds = (performance.now() - t) / 1000;
      console.log(
        `\nDB queue (embedded): enqueue ${fmt(total / (enqueueMs / 1000), 0)} jobs/s; enqueue+run ${total} no-op jobs ${fmt(total / seconds, 0)} jobs/s`,
      );
      await bench.close();
    } finally {
      await s.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  // 4. the client bundle
  const dist = path.join(repo, 'dist', 'assets');
  if (existsSync(dist)) {
    const js = readdirSync(dist).filter((f) => f.endsWith('.js'));
    const sized = js
      .map((f) => ({ f, raw: statSync(path.join(dist, f)).size, gz: gzipSync(readFileSync(path.join(dist, f))).length }))
      .sort((a, b) => b.gz - a.gz);
    const main = sized.find((x) => x.f.startsWith('main.'));
    console.log(
      `\nclient bundle: ${js.length} chunks, main ${main ? fmt(main.gz / 1024) : '?'} KiB gz, all ${fmt(sized.reduce((a, x) => a + x.gz, 0) / 1024)} KiB gz`,
    );
  } else {
    console.log('\nclient bundle: not built (npm run build)');
  }
}

/**
 * The focused benchmarks, each in its own process (a fresh heap and event loop, so one cannot
 * slow the next), in this order. `npm run bench -- search engine` runs only those named;
 * `npm run bench -- --no-core` skips the figures above.
 */
const SUITES: Array<{ key: string; file: string; args?: string[]; needsBuild?: boolean }> = [
  { key: 'catalogue', file: 'catalogue-throughput.ts' },
  { key: 'engine', file: 'engine.ts' },
  { key: 'page-weight', file: 'page-weight.ts', needsBuild: true },
  { key: 'monitoring', file: 'monitoring.ts' },
  { key: 'search', file: 'search.ts' },
  { key: 'reconcile', file: 'reconcile.ts' },
  { key: 'extraction', file: 'extraction.ts' },
  { key: 'emotion', file: 'emotion.ts' },
  { key: 'bombs', file: 'bombs.ts' },
  { key: 'fleet', file: 'fleet.ts' },
  { key: 'public-api', file: 'public-api.ts' },
  { key: 'restart', file: 'restart.ts' },
];

function runSuite(suite: (typeof SUITES)[number]): Promise<number> {
  console.log(`\n==== ${suite.key} (tests/bench/${suite.file}) ====`);
  if (suite.needsBuild && !existsSync(path.join(repo, 'dist', 'index.html'))) {
    console.log('skipped: the client is not built (npm run build)');
    return Promise.resolve(0);
  }
  const tsx = path.join(repo, 'node_modules', '.bin', 'tsx');
  return new Promise((resolve) => {
    const child = spawn(tsx, [path.join(__dirname, suite.file), ...(suite.args ?? [])], { cwd: repo, stdio: 'inherit' });
    child.on('exit', (code) => resolve(code ?? 1));
    child.on('error', () => resolve(1));
  });
}

async function all() {
  const args = process.argv.slice(2);
  const named = args.filter((a) => !a.startsWith('--'));
  const unknown = named.filter((n) => !SUITES.some((s) => s.key === n) && n !== 'core');
  if (unknown.length) {
    console.error(`unknown benchmark ${unknown.join(', ')}; known: core, ${SUITES.map((s) => s.key).join(', ')}`);
    process.exit(2);
  }
  if (!args.includes('--no-core') && (named.length === 0 || named.includes('core'))) await main();
  const failed: string[] = [];
  for (const suite of SUITES) {
    if (named.length && !named.includes(suite.key)) continue;
    if ((await runSuite(suite)) !== 0) failed.push(suite.key);
  }
  if (failed.length) {
    console.error(`\nbenchmarks that failed: ${failed.join(', ')}`);
    process.exit(1);
  }
}

all().catch((e) => {
  console.error(e);
  process.exit(1);
});
