/**
 * GET /api/platform/monitoringData with 1,000,000 runs behind the daily roll-up (10,000 users,
 * one of them owning 100,000 runs): `npx tsx tests/bench/monitoring.ts`. Runs on PGlite and, if
 * reachable, on PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test,
 * in a fresh schema dropped afterwards). The roll-up rows are inserted directly (what the engine
 * would have written as the runs finished). Prints p50/p95/max per case; asserts nothing.
 * Latencies are of the whole Fastify pipeline (auth, validation, query, serialisation) through
 * app.inject, one request at a time.
 */
import 'reflect-metadata';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import monitoringPlugin from '../../plugins/monitoring/server';
import { buildServer } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import type { TokenService } from '../../src/server/auth/token-service';
import type { Db } from '../../src/server/db/database';
import { defineServerPlugin } from '../../src/server';
import * as T from '../../src/server/tokens';
import { openTestDatabase } from '../support/server';

const USERS = 10_000;
const BIG_USER_RUNS = 100_000;
const TOTAL_RUNS = 1_000_000;
const BIG_USER_DAYS = 365;
const OTHER_DAYS = 30;
const WORKFLOWS = [71001, 71002, 71003];
const SAMPLES = 400;

const benchCatalogue = defineServerPlugin({
  id: 'monitoring-bench',
  catalogue: {
    solutions: [
      {
        id: 7100,
        name: 'Bench',
        descrption: 'Bench solution',
        icon: 'test',
        status: 'active',
        author_first_name: 'Bench',
        created_time: '2024-01-01T00:00:00Z',
      },
    ],
    workflows: WORKFLOWS.map((id, i) => ({
      id,
      solution_id: 7100,
      name: `Bench workflow ${i + 1}`,
      descrption: 'Bench',
      icon: 'test',
      ...(i === 0 ? { minutes_per_run: 7.5 } : {}),
    })),
  },
});

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { p50: q(0.5), p95: q(0.95), max: s[s.length - 1] };
}

/** Users, then the roll-up: the big user over 365 days × 3 workflows, the others over 30 days of one. */
async function seed(db: Db): Promise<{
  bigUser: number;
  firstUser: number;
  rows: number;
  runs: number;
  seconds: number;
}> {
  const t = performance.now();
  await sql`insert into users (name, email, password_hash, role, company_name, is_verified)
    select 'Bench user ' || g, 'bench' || g || '@example.com', 'x', 'bm', 'Bench Ltd', true from generate_series(1, ${USERS}) g`.execute(db);
  const { first } = (
    await sql<{
      first: number;
    }>`select min(id) as first from users where email like 'bench%@example.com'`.execute(db)
  ).rows[0];
  const firstUser = Number(first);
  const bigUser = firstUser;
  const bigRows = BIG_USER_DAYS * WORKFLOWS.length;
  // row i of n gets floor(total*(i+1)/n) - floor(total*i/n) runs: the totals are exact; 90 % succeed
  await sql`insert into monitoring_daily_runs (user_id, workflow_id, day, succeeded, failed)
    select ${bigUser}::int, (array[${WORKFLOWS[0]}::int, ${WORKFLOWS[1]}::int, ${WORKFLOWS[2]}::int])[(i % 3) + 1], current_date - (i / 3)::int,
      (runs - runs / 10)::int, (runs / 10)::int
    from (select i, (${BIG_USER_RUNS}::bigint * (i + 1)) / ${bigRows} - (${BIG_USER_RUNS}::bigint * i) / ${bigRows} as runs
          from generate_series(0, ${bigRows - 1}) i) r`.execute(db);
  const otherRows = (USERS - 1) * OTHER_DAYS;
  const otherRuns = TOTAL_RUNS - BIG_USER_RUNS;
  await sql`insert into monitoring_daily_runs (user_id, workflow_id, day, succeeded, failed)
    select ${firstUser + 1}::int + k / ${OTHER_DAYS}::int, (array[${WORKFLOWS[0]}::int, ${WORKFLOWS[1]}::int, ${WORKFLOWS[2]}::int])[((k / ${OTHER_DAYS}) % 3) + 1],
      current_date - 2 * (k % ${OTHER_DAYS}::int), (runs - runs / 5)::int, (runs / 5)::int
    from (select k, (${otherRuns}::bigint * (k + 1)) / ${otherRows} - (${otherRuns}::bigint * k) / ${otherRows} as runs
          from generate_series(0, ${otherRows - 1}) k) r`.execute(db);
  await sql`analyze monitoring_daily_runs`.execute(db);
  const totals = (
    await sql<{
      rows: number;
      runs: number;
    }>`select count(*)::int as rows, sum(succeeded + failed)::int as runs from monitoring_daily_runs`.execute(db)
  ).rows[0];
  return {
    bigUser,
    firstUser,
    rows: Number(totals.rows),
    runs: Number(totals.runs),
    seconds: (performance.now() - t) / 1000,
  };
}

async function benchOn(label: string, db: Db | undefined): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'flowmatic-bench-monitoring-'));
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      SECRET_KEY: 'bench-secret-key-that-is-long-enough-0123456789',
      PUBLIC_URL: 'http://localhost:3000',
      LOG_LEVEL: 'error',
      CLIENT_DIR: path.join(dataDir, 'none'),
    },
    process.cwd(),
  );
  const server = await buildServer({
    config,
    db,
    plugins: [benchCatalogue, monitoringPlugin],
    logger: false,
  });
  try {
    const database = server.container.get<Db>(T.Db);
    const seeded = await seed(database);
    console.log(
      `${label}: ${seeded.runs.toLocaleString('en')} runs in ${seeded.rows.toLocaleString('en')} roll-up rows (${USERS.toLocaleString('en')} users; user ${seeded.bigUser} owns ${BIG_USER_RUNS.toLocaleString('en')}), seeded in ${seeded.seconds.toFixed(1)} s`,
    );
    const tokens = server.container.get<TokenService>(T.TokenService);
    const token = async (userId: number) => (await tokens.sessionPair(userId, 0)).access;
    const bigToken = await token(seeded.bigUser);
    const smallTokens = await Promise.all(Array.from({ length: 50 }, (_, i) => token(seeded.firstUser + 1 + ((i * 197) % (USERS - 1)))));
    const cases: Array<{
      name: string;
      request: (i: number) => { url: string; token: string };
    }> = [
      {
        name: 'big user, period 2 (14 days)',
        request: (i) => ({
          url: `/api/platform/monitoringData?client_id=x&datasource=${WORKFLOWS[i % 3]}&period=2`,
          token: bigToken,
        }),
      },
      {
        name: 'big user, period 52 (364 days)',
        request: (i) => ({
          url: `/api/platform/monitoringData?client_id=x&datasource=${WORKFLOWS[i % 3]}&period=52`,
          token: bigToken,
        }),
      },
      {
        name: 'other users, period 2',
        request: (i) => ({
          url: `/api/platform/monitoringData?client_id=x&datasource=${WORKFLOWS[i % 3]}&period=2`,
          token: smallTokens[i % smallTokens.length],
        }),
      },
    ];
    for (const c of cases) {
      for (let i = 0; i < 30; i += 1) await server.app.inject({ method: 'GET', ...withAuth(c.request(i)) }); // warm-up
      const lat: number[] = [];
      let errors = 0;
      for (let i = 0; i < SAMPLES; i += 1) {
        const t = performance.now();
        const res = await server.app.inject({
          method: 'GET',
          ...withAuth(c.request(i)),
        });
        lat.push(performance.now() - t);
        if (res.statusCode !== 200) errors += 1;
      }
      const s = stats(lat);
      console.log(
        `  ${label} ${c.name}: p50 ${s.p50.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms, max ${s.max.toFixed(2)} ms over ${SAMPLES} requests${errors ? `, ${errors} errors` : ''}`,
      );
    }
    const plan = await sql<{
      'QUERY PLAN': string;
    }>`explain analyze select day, succeeded, failed from monitoring_daily_runs
        where user_id = ${seeded.bigUser} and workflow_id = ${WORKFLOWS[0]} and day between current_date - 363 and current_date order by day`.execute(database);
    console.log(
      `  ${label} plan of the big user's year: ${plan.rows
        .map((r) => r['QUERY PLAN'].trim())
        .filter((l) => /Scan|Execution Time/.test(l))
        .join(' | ')}`,
    );
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function withAuth(r: { url: string; token: string }) {
  return { url: r.url, headers: { authorization: `Bearer ${r.token}` } };
}

/** Sizes in the built client (npm run build): the initial chunk(s) of index.html and the lazy plotly chunk. */
function chunkSizes(): void {
  const dist = path.resolve(__dirname, '../../dist');
  if (!existsSync(path.join(dist, 'index.html'))) {
    console.log('Chunks: not built (run npm run build first)');
    return;
  }
  const size = (file: string) => {
    const bytes = readFileSync(path.join(dist, file));
    return `${(bytes.length / 1024).toFixed(1)} KiB (${(gzipSync(bytes).length / 1024).toFixed(1)} KiB gzip)`;
  };
  const initial = [...readFileSync(path.join(dist, 'index.html'), 'utf8').matchAll(/src="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  for (const f of initial)
    console.log(`Initial chunk ${f}: ${size(f)}; contains plotly: ${readFileSync(path.join(dist, f), 'utf8').includes('plotlyServerURL') ? 'yes' : 'no'}`);
  const assets = readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js'));
  const plotly = assets.filter((f) => readFileSync(path.join(dist, 'assets', f), 'utf8').includes('plotlyServerURL'));
  for (const f of plotly) console.log(`Plotly chunk assets/${f}: ${size(`assets/${f}`)}`);
  for (const f of assets.filter((a) => /^(monitoring-chart|page-monitoring)\./.test(a))) console.log(`Monitoring chunk assets/${f}: ${size(`assets/${f}`)}`);
}

async function main() {
  chunkSizes();
  const pglite = await openTestDatabase(undefined);
  try {
    await benchOn('PGlite', pglite.db);
  } finally {
    await pglite.drop();
  }
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  let pg: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
  try {
    pg = await openTestDatabase(url);
  } catch (e) {
    console.log(`PostgreSQL: skipped (${(e as Error).message})`);
    return;
  }
  try {
    await benchOn('PostgreSQL', pg.db);
  } finally {
    await pg.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
