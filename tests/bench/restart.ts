/**
 * `npm run bench -- restart`: how long `npm start` takes to answer, the way a user runs it.
 *
 * First the client build is brought up to date (`tsx src/server/client-build.ts`, what `npm start`
 * runs first; a no-op when nothing changed since the last build). Then `npm start` runs twice on
 * one new data folder: the first start creates the database and seeds the catalogue, the second
 * is a restart with nothing changed. Each start is timed from the spawn of `npm start` to the
 * first 200 from GET /healthz and from GET / (the app's page), then stopped with SIGTERM to its
 * process group. Prints figures; asserts nothing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const repo = path.resolve(__dirname, '../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** Runs `npm start` once; resolves the milliseconds to /healthz and to / answering 200. */
async function timeStart(dataDir: string): Promise<{ health: number; page: number }> {
  const port = await freePort();
  const smtp = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: repo,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      INBOUND_SMTP_PORT: String(smtp),
      SANDBOX_PORT: '0',
      LOG_LEVEL: 'error',
      LOG_FORMAT: 'json',
    },
  });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += String(d)));
  let exited = false;
  child.on('exit', () => (exited = true));
  try {
    let health = 0;
    let page = 0;
    while (!page && performance.now() - t0 < 600_000) {
      if (exited) throw new Error(`npm start exited before answering:\n${stderr.slice(-2000)}`);
      if (!health && (await answers(`${base}/healthz`))) health = performance.now() - t0;
      if (health && (await answers(`${base}/`))) page = performance.now() - t0;
      if (!page) await new Promise((r) => setTimeout(r, 100));
    }
    if (!page) throw new Error('npm start did not answer within 10 minutes');
    return { health, page };
  } finally {
    if (!exited && child.pid) {
      const gone = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 15_000))]);
      if (!exited) process.kill(-child.pid, 'SIGKILL');
    }
  }
}

async function main() {
  console.log(`npm start, time to first answer — node ${process.version}`);
  const b0 = performance.now();
  const build = spawnSync(path.join(repo, 'node_modules', '.bin', 'tsx'), ['src/server/client-build.ts'], { cwd: repo, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the client build failed');
  console.log(`client build brought up to date (a no-op when unchanged)   ${((performance.now() - b0) / 1000).toFixed(1)} s`);

  const dataDir = mkdtempSync(path.join(tmpdir(), 'flowmatic-restart-'));
  try {
    const first = await timeStart(dataDir);
    const second = await timeStart(dataDir);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(7);
    console.log(`first start (new database: migrations, catalogue seed)   /healthz ${s(first.health)}   app page ${s(first.page)}`);
    console.log(`second start (restart, nothing changed)                  /healthz ${s(second.health)}   app page ${s(second.page)}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
