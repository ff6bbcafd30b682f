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

/** On SIGINT or SIGTERM (once): runs stop, then exits 0. */
export function stopOnSignals(log: { info(msg: string): void }, message: string, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, ${message}`);
    await stop();
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
