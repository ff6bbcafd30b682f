import { StepTimeoutError } from './errors';

/**
 * The wait before try `attempt + 1` after try `attempt` failed: base × 2^(attempt-1), capped,
 * with ±25 % jitter so many jobs that failed together do not all retry in the same instant.
 */
export function retryDelayMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  const jitter = 0.75 + random() * 0.5;
  return Math.max(0, Math.round(exponential * jitter));
}

/**
 * Runs `work` with an AbortSignal that fires after `timeoutMs`; rejects with StepTimeoutError
 * then, even if the work ignores the signal (its late result is dropped).
 */
export async function withTimeout<T>(stepName: string, timeoutMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new StepTimeoutError(stepName, timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(() => work(controller.signal)), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
