/**
 * The catalogue endpoint's speed beside a bare Fastify + JWT server, in the same run:
 * `npx tsx tests/bench/catalogue-throughput.ts`. Prints req/s, p50/p99 and the ratio; asserts
 * nothing. The load generator runs in a child process of its own (undici, 10 connections,
 * loopback only, bounded in requests and time), so it does not share the servers' event loop.
 * Also prints forgetPassword's reply times for a known and an unknown address (issue 7, item 5).
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { jwtVerify } from 'jose';
import { buildServer } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { Argon2Hasher } from '../../src/server/auth/password';
import type { TokenService } from '../../src/server/auth/token-service';
import * as T from '../../src/server/tokens';
import { discoverServerPlugins } from '../../src/server/plugin-loader';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

/** The load loop, run by `node -e` in a child process: undici Pool, fixed connections, bounded. */
const LOAD_LOOP = `
const { Pool } = require('undici');
const clock = require('node:perf_hooks').performance;
const [url, token, connections, maxRequests, maxSeconds, warmup] = process.argv.slice(1);
const u = new URL(url);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)) { console.error('loopback only'); process.exit(2); }
const pool = new Pool(u.origin, { connections: Number(connections), pipelining: 1 });
async function run(total, seconds, record) {
  const lat = []; let next = 0, errors = 0; const start = clock.now(); const deadline = start + seconds * 1000;
  await Promise.all(Array.from({ length: Number(connections) }, async () => {
    while (next < total && clock.now() < deadline) {
      next++;
      const t = clock.now();
      try {
        const res = await pool.request({ path: u.pathname, method: 'GET', headers: { authorization: 'Bearer ' + token } });
        await res.body.dump();
        if (res.statusCode !== 200) errors++;
      } catch { errors++; }
      if (record) lat.push(clock.now() - t);
    }
  }));
  return { lat, errors, seconds: (clock.now() - start) / 1000 };
}
(async () => {
  await run(Number(warmup), 5, false);
  const { lat, errors, seconds } = await run(Number(maxRequests), Number(maxSeconds), true);
  lat.sort((a, b) => a - b);
  const q = (p) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] || 0;
  process.stdout.write(JSON.stringify({ requests: lat.length, errors, seconds, rps: lat.length / seconds, p50: q(0.5), p99: q(0.99) }));
  await pool.close();
})().catch((e) => { console.error(e); process.exit(1); });
`;

/** Runs the load loop in its own process against `url` and returns its figures. */
export function runLoad(
  url: string,
  token: string,
  opts: { connections?: number; requests?: number; seconds?: number; warmup?: number } = {},
): Promise<LoadResult> {
  const args = [String(opts.connections ?? 10), String(opts.requests ?? 20_000), String(opts.seconds ?? 10), String(opts.warmup ?? 500)];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', LOAD_LOOP, url, token, ...args], { cwd: path.resolve(__dirname, '../..'), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as LoadResult) : reject(new Error(`load generator failed (${code}): ${err}`))));
  });
}

/** A bare Fastify server that verifies the same JWT and answers the same body. */
async function startBareServer(secret: string, body: string): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify({ logger: false });
  // the key imported once, as the product's TokenService does (raw bytes would be imported per call)
  const key = await webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  app.get('/api/platform/combinations', async (request, reply) => {
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!token) return reply.code(401).send({ status: 'error' });
    try {
      await jwtVerify(token, key, { algorithms: ['HS256'] });
    } catch {
      return reply.code(401).send({ status: 'error' });
    }
    return reply.type('application/json; charset=utf-8').send(body);
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

const fmt = (n: number, d = 1) => n.toFixed(d);

/** The machine's load (as `uptime` prints it), to read each figure against: others may share the cores. */
const load = () =>
  `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;

/** Starts the real server (embedded database on disk, core modules) and measures both; prints the figures. */
export async function benchCatalogueThroughput(print: (line: string) => void = console.log): Promise<{ real: LoadResult; bare: LoadResult; ratio: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'flowmatic-bench-cat-'));
  const secret = 'bench-secret-key-that-is-long-enough-0123456789';
  const config = loadConfig({ DATA_DIR: dataDir, SECRET_KEY: secret, AUTH_RATE_LIMIT: '100000', LOG_LEVEL: 'warn', CLIENT_DIR: path.join(dataDir, 'none') });
  const server = await buildServer({
    config,
    logger: false,
    plugins: await discoverServerPlugins(path.resolve(__dirname, '../../plugins')),
    overrides: (c) => c.rebind(T.PasswordHasher).toConstantValue(new Argon2Hasher({ memoryCost: 1024, timeCost: 1 })),
  });
  let bare: { url: string; close(): Promise<void> } | undefined;
  try {
    const user = await server.container
      .get(T.Db)
      .insertInto('users')
      .values({
        name: 'Bench',
        email: 'bench@example.com',
        password_hash: await new Argon2Hasher({ memoryCost: 1024, timeCost: 1 }).hash('bench password'),
        role: 'bm',
        company_name: 'B',
        is_verified: true,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await server.container.get(T.Db).insertInto('managed_users').values({ user_id: user.id, external_id: 'bench' }).execute();
    const { access } = await server.container.get<TokenService>(T.TokenService).sessionPair(user.id, 0);
    const realUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const first = await fetch(`${realUrl}/api/platform/combinations`, { headers: { authorization: `Bearer ${access}` } });
    const body = await first.text();
    bare = await startBareServer(secret, body);
    print(`catalogue: reply ${fmt(body.length / 1024)} KB, 10 connections, load generator in its own process`);
    // bare and real alternate, two rounds each: on a machine shared with others the load moves
    // between runs, so one pair alone can mislead
    const bares: LoadResult[] = [];
    const reals: LoadResult[] = [];
    const line = (name: string, r: LoadResult, at: string) =>
      print(
        `  ${name.padEnd(20)} ${fmt(r.rps, 0).padStart(7)} req/s  p50 ${fmt(r.p50, 2)} ms  p99 ${fmt(r.p99, 2)} ms  (${r.requests} req, ${r.errors} errors; ${at})`,
      );
    for (let round = 0; round < 2; round++) {
      let at = load();
      const b = await runLoad(`${bare.url}/api/platform/combinations`, access);
      line('bare Fastify + JWT', b, at);
      at = load();
      const r = await runLoad(`${realUrl}/api/platform/combinations`, access);
      line('GET combinations', r, at);
      bares.push(b);
      reals.push(r);
    }
    // each side's worse round: its lower req/s and its higher latencies
    const pick = (rs: LoadResult[]) => ({
      ...rs[0],
      rps: Math.min(...rs.map((r) => r.rps)),
      p50: Math.max(...rs.map((r) => r.p50)),
      p99: Math.max(...rs.map((r) => r.p99)),
    });
    const bareResult = pick(bares);
    const realResult = pick(reals);
    const ratio = realResult.rps / bareResult.rps;
    print(
      `  ratio ${fmt(ratio, 2)}x (each side's worse round; target >= 0.5x, p99 <= 10 ms: real p99 ${fmt(realResult.p99, 2)} ms, bare ${fmt(bareResult.p99, 2)} ms)`,
    );

    // item 5: forgetPassword answers alike for a known and an unknown address. The two kinds of
    // call alternate, with a pause after each for the queued job to run: a known address's job
    // (token, mail) runs after the reply, in this same process, and would otherwise slow
    // whichever call came next rather than the one that queued it.
    const pause = () => new Promise((r) => setTimeout(r, 40));
    const samples = { known: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < 80; i++) {
      const kind = i % 2 === 0 ? 'known' : 'unknown';
      const email = kind === 'known' ? 'bench@example.com' : 'nobody@example.com';
      const t = performance.now();
      await fetch(`${realUrl}/api/platform/forgetPassword`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
      samples[kind].push(performance.now() - t);
      await pause();
    }
    const q = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return { p50: s[Math.floor(s.length / 2)], p95: s[Math.floor(s.length * 0.95)] };
    };
    const known = q(samples.known);
    const unknown = q(samples.unknown);
    print(
      `forgetPassword: known address p50 ${fmt(known.p50, 2)} ms p95 ${fmt(known.p95, 2)} ms; unknown p50 ${fmt(unknown.p50, 2)} ms p95 ${fmt(unknown.p95, 2)} ms`,
    );
    return { real: realResult, bare: bareResult, ratio };
  } finally {
    await bare?.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchCatalogueThroughput().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
