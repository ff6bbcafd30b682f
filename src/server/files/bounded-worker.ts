import { Worker } from 'node:worker_threads';

/**
 * Parsing a user's file runs here: in a worker thread with a hard heap limit and a time-out, so
 * a file built to explode (a decompression bomb, a million rows) costs at most its budget and
 * never blocks the request thread. The worker loads the task's module itself (through tsx when
 * the module is TypeScript source), calls the named export with the input and posts the result.
 * A task's own error comes back with its name and message; running out of memory or time comes
 * back as a ParseBudgetError, which the caller turns into a sentence about the file.
 */
export interface WorkerBudget {
  /** Heap (old generation) limit of the worker, in MB. */
  memoryMb: number;
  /** Wall-clock limit, in milliseconds. */
  timeoutMs: number;
}

/** Budget of one upload's parse: heap plus the worker's own code stays under 256 MB. */
export const DEFAULT_WORKER_BUDGET: WorkerBudget = { memoryMb: 160, timeoutMs: 30_000 };
/** Parses running at once in this process; more wait their turn. */
const MAX_PARALLEL = 2;

/** The file needed more memory or time than a parse may take. */
export class ParseBudgetError extends Error {
  constructor(readonly reason: 'memory' | 'time') {
    super(reason === 'memory' ? 'The file needs more memory to open than an upload may use.' : 'The file takes longer to open than an upload may take.');
    this.name = 'ParseBudgetError';
  }
}

/** An error raised inside the worker, as it crosses back: its class name, message and reason. */
export interface WorkerFailure {
  name: string;
  message: string;
  reason?: string;
  detail?: string;
}

const ENTRY = `
const { workerData, parentPort } = require('node:worker_threads');
if (/\\.tsx?$/.test(workerData.file)) require('tsx/cjs/api').register();
Promise.resolve()
  .then(() => require(workerData.file)[workerData.fn](workerData.input))
  .then(
    (value) => parentPort.postMessage({ ok: true, value }),
    (error) => parentPort.postMessage({ ok: false, error: { name: String(error && error.name || 'Error'), message: String(error && error.message || error), reason: error && typeof error.reason === 'string' ? error.reason : undefined, detail: error && typeof error.detail === 'string' ? error.detail : undefined } }),
  );
`;

let running = 0;
const waiting: (() => void)[] = [];

async function slot(): Promise<() => void> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

/**
 * Runs `fn` exported by the module at `file` (an absolute path) on `input` in a bounded worker.
 * `rethrow` turns a task's own error back into the caller's error class (else a plain Error
 * with the same name and message).
 */
export async function runBounded<T>(
  file: string,
  fn: string,
  input: unknown,
  opts: { budget?: Partial<WorkerBudget>; rethrow?: (failure: WorkerFailure) => Error | undefined } = {},
): Promise<T> {
  const budget = { ...DEFAULT_WORKER_BUDGET, ...opts.budget };
  const release = await slot();
  try {
    return await new Promise<T>((resolve, reject) => {
      const worker = new Worker(ENTRY, {
        eval: true,
        workerData: { file, fn, input },
        resourceLimits: { maxOldGenerationSizeMb: budget.memoryMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
        stdout: false,
        stderr: false,
      });
      let settled = false;
      const finish = (action: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        action();
        void worker.terminate();
      };
      const timer = setTimeout(() => finish(() => reject(new ParseBudgetError('time'))), budget.timeoutMs);
      worker.on('message', (message: { ok: true; value: T } | { ok: false; error: WorkerFailure }) =>
        finish(() => {
          if (message.ok) resolve(message.value);
          else reject(opts.rethrow?.(message.error) ?? Object.assign(new Error(message.error.message), message.error));
        }),
      );
      worker.on('error', (error: Error & { code?: string }) =>
        finish(() =>
          reject(
            error.code === 'ERR_WORKER_OUT_OF_MEMORY' || /heap out of memory|Allocation failed/i.test(error.message) ? new ParseBudgetError('memory') : error,
          ),
        ),
      );
      worker.on('exit', (code) => finish(() => reject(code === 0 ? new Error('The file reader stopped without an answer.') : new ParseBudgetError('memory'))));
    });
  } finally {
    release();
  }
}
