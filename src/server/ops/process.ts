import { ConfigError } from '../config';

/** Loads the configuration, or prints what is wrong with it (naming the variable) and exits 1. */
export function configOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
}

type Env = Record<string, string | undefined>;

function msVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(name, `must be a whole number of milliseconds from ${min} to ${max}, got "${raw}"`);
  return n;
}

export interface ShutdownTimes {
  /** SHUTDOWN_TIMEOUT_MS: how long a graceful stop may take before the process exits anyway; default 10 000 */
  timeoutMs: number;
  /**
   * SHUTDOWN_DRAIN_MS: how long a web server keeps serving after the signal, answering /readyz 503,
   * before it stops taking connections (so a load balancer polling readiness stops sending first);
   * default 0. Counted within SHUTDOWN_TIMEOUT_MS.
   */
  drainMs: number;
}

/** The shutdown timings from the environment; a bad value throws a ConfigError naming the variable. */
export function shutdownTimes(env: Env = process.env): ShutdownTimes {
  const timeoutMs = msVar(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 100, 3_600_000);
  const drainMs = msVar(env, 'SHUTDOWN_DRAIN_MS', 0, 0, 3_600_000);
  if (drainMs >= timeoutMs) throw new ConfigError('SHUTDOWN_DRAIN_MS', `(${drainMs}) must be shorter than SHUTDOWN_TIMEOUT_MS (${timeoutMs})`);
  return { timeoutMs, drainMs };
}

export interface StopOptions {
  /** the whole stop must end within this, ms (SHUTDOWN_TIMEOUT_MS) */
  timeoutMs: number;
  /** runs when the stop took too long, just before the process exits 1 (e.g. hand running jobs back) */
  onTimeout?: () => Promise<void> | void;
}

/**
 * On SIGINT or SIGTERM: runs stop, then exits 0. Later signals are ignored (a process group
 * signalled through `npm run` and tsx gets the signal more than once). When stop takes longer
 * than timeoutMs, or fails, the process says so and exits 1.
 */
export function stopOnSignals(log: { info(msg: string): void; error(msg: string): void }, message: string, stop: () => Promise<void>, opts: StopOptions): void {
  let stopping = false;
  const onSignal = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, ${message} (at most ${opts.timeoutMs} ms, SHUTDOWN_TIMEOUT_MS)`);
    const timer = setTimeout(async () => {
      log.error(`The shutdown took longer than SHUTDOWN_TIMEOUT_MS (${opts.timeoutMs} ms): exiting now`);
      // a stuck hand-back must not keep the process: one more second at most
      await Promise.race([Promise.resolve(opts.onTimeout?.()).catch(() => undefined), new Promise((r) => setTimeout(r, 1000))]);
      process.exit(1);
    }, opts.timeoutMs);
    try {
      await stop();
    } catch (e) {
      log.error(`The shutdown failed: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    }
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGINT', () => void onSignal('SIGINT'));
  process.on('SIGTERM', () => void onSignal('SIGTERM'));
}

/** Runs a process's main; a failure prints its message (no stack) and exits 1. */
export function runMain(main: () => Promise<void>): void {
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
