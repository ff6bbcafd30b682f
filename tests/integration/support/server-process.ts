/**
 * The real server (src/server/main.ts) in a child process, for tests and benchmarks that must
 * kill it (kill -9) or load it from another process. Everything listens on 127.0.0.1 only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

const repo = path.resolve(__dirname, '../../..');

/** The server process did not come up, or died: names the log file to read. */
export class ServerProcessError extends Error {
  constructor(
    message: string,
    readonly logFile: string,
  ) {
    super(`${message} (server log: ${logFile})\n${tail(logFile, 30)}`);
    this.name = 'ServerProcessError';
  }
}

function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** A free loopback TCP port (asked of the OS, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcessOptions {
  /** DATA_DIR (the embedded database lives in DATA_DIR/pgdata when no databaseUrl) */
  dataDir: string;
  pluginsDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  /** more environment (ENGINE_USER_CONCURRENCY, LOG_LEVEL, …) */
  env?: Record<string, string>;
  /** appended to; survives restarts */
  logFile: string;
  /** how long the server may take to answer, ms; default 60 s */
  startTimeoutMs?: number;
}

export interface ServerProcess {
  url: string;
  pid: number;
  /** SIGKILL: no shutdown code runs, as in a crash or an OOM kill */
  kill9(): Promise<void>;
  /** SIGTERM (graceful shutdown), then SIGKILL after 15 s */
  stop(): Promise<void>;
  /** resolves when the process has exited */
  exited: Promise<number | null>;
}

/**
 * Starts `node --import tsx src/server/main.ts` (one process, so a kill reaches the server itself,
 * not a wrapper) and waits until it answers HTTP on its port.
 */
export async function startServerProcess(opts: ServerProcessOptions): Promise<ServerProcess> {
  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: opts.dataDir,
    PLUGINS_DIR: opts.pluginsDir,
    CLIENT_DIR: path.join(opts.dataDir, 'no-client'),
    SECRET_KEY: 'integration-secret-key-that-is-long-enough-0123456789',
    INBOUND_SMTP_PORT: '0',
    SANDBOX_PROVIDERS: 'false',
    AUTH_RATE_LIMIT: '100000',
    WRITE_RATE_LIMIT_PER_USER: '1000000',
    WRITE_RATE_LIMIT_PER_ADDRESS: '1000000',
    WEBHOOK_RATE_LIMIT: '1000000',
    LOG_LEVEL: 'warn',
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
    ...(opts.redisUrl ? { REDIS_URL: opts.redisUrl } : {}),
    ...opts.env,
  };
  const fd = openSync(opts.logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, ['--import', 'tsx', path.join(repo, 'src/server/main.ts')], { cwd: repo, env, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let gone = false;
  void exited.then(() => (gone = true));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.startTimeoutMs ?? 60_000);
  for (;;) {
    if (gone) throw new ServerProcessError(`The server process exited during start-up`, opts.logFile);
    try {
      const res = await fetch(`${url}/api/platform/userId`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      break; // any HTTP answer (401) means it listens
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new ServerProcessError(`The server did not answer on ${url} within ${opts.startTimeoutMs ?? 60_000} ms`, opts.logFile);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    pid: child.pid!,
    exited,
    async kill9() {
      if (!gone) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (gone) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(t);
    },
  };
}
