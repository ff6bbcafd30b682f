import { Worker } from 'node:worker_threads';

/**
 * Parsing a user's file runs here: in a worker thread with a hard heap limit and a time-out, so
 * a file built to explode (a decompression bomb, a million rows) costs at most its budget and
 * never blocks the request thread. The worker loads the task's module itself (through tsx when
 * the module is TypeScript source), calls the named export with the input and posts the result;
 * a worker that finished within its budget is kept warm for the next parse (see `idle`).
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

/**
 * The worker's loop: it loads a task's module on first use (through tsx when it is TypeScript
 * source), runs each task it is sent and answers with the result and its heap in use afterwards.
 */
const ENTRY = `
const { parentPort } = require('node:worker_threads');
const v8 = require('node:v8');
let tsx = false;
const heap = () => v8.getHeapStatistics().used_heap_size;
parentPort.on('message', ({ id, file, fn, input }) => {
  Promise.resolve()
    .then(() => {
      if (!tsx && /\\.tsx?$/.test(file)) { require('tsx/cjs/api').register(); tsx = true; }
      return require(file)[fn](input);
    })
    .then(
      (value) => parentPort.postMessage({ id, ok: true, value, heap: heap() }),
      (error) => parentPort.postMessage({ id, ok: false, heap: heap(), error: { name: String(error && error.name || 'Error'), message: String(error && error.message || error), reason: error && typeof error.reason === 'string' ? error.reason : undefined, detail: error && typeof error.detail === 'string' ? error.detail : undefined } }),
    );
});
`;

type Answer<T> = ({ ok: true; value: T } | { ok: false; error: WorkerFailure }) & { id: number; heap: number };

/** A worker kept warm between tasks: one heap limit, one task at a time. */
interface WarmWorker {
  worker: Worker;
  memoryMb: number;
  tasks: number;
  idleTimer?: NodeJS.Timeout;
}

/** Tasks a worker runs before it is replaced by a fresh one. */
const TASKS_PER_WORKER = 200;
/** A worker whose heap stays above this share of its limit after a task is replaced. */
const HEAP_SHARE_TO_RECYCLE = 0.5;
/** An idle worker is stopped after this long. */
const IDLE_MS = 60_000;

/**
 * Idle warm workers by heap limit. Starting a worker and loading its modules (pdfjs, the
 * spreadsheet reader, tsx in development) costs about a second here, far more than most parses,
 * so a worker that finished a task within its budget waits for the next one. A worker that ran
 * out of memory or time is never reused: it is terminated and the next task gets a fresh one.
 */
const idle = new Map<number, WarmWorker[]>();
let nextTaskId = 1;

function spawn(memoryMb: number): WarmWorker {
  const worker = new Worker(ENTRY, {
    eval: true,
    resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    stdout: false,
    stderr: false,
  });
  const warm: WarmWorker = { worker, memoryMb, tasks: 0 };
  // A worker running out of memory between tasks, or after its task was given up on (out of time,
  // terminate() under way), has no task to tell: without a listener its 'error' would be thrown in
  // the server's own thread. A task's error is taken by that task's own listener (see runBounded).
  worker.on('error', () => {});
  worker.once('exit', () => {
    clearTimeout(warm.idleTimer);
    unlist(warm);
  });
  return warm;
}

/** Takes a worker off the idle list (it exited, or is being stopped), so no task is sent to it. */
function unlist(warm: WarmWorker) {
  const list = idle.get(warm.memoryMb);
  const at = list?.indexOf(warm) ?? -1;
  if (at >= 0) list!.splice(at, 1);
}

function take(memoryMb: number): WarmWorker {
  const warm = idle.get(memoryMb)?.pop();
  if (!warm) return spawn(memoryMb);
  clearTimeout(warm.idleTimer);
  warm.worker.ref();
  return warm;
}

function putBack(warm: WarmWorker, heap: number) {
  if (warm.tasks >= TASKS_PER_WORKER || heap > warm.memoryMb * 1024 * 1024 * HEAP_SHARE_TO_RECYCLE) {
    void warm.worker.terminate();
    return;
  }
  warm.worker.unref();
  // off the list before terminate() starts: a worker stopping is never handed a task
  warm.idleTimer = setTimeout(() => {
    unlist(warm);
    void warm.worker.terminate();
  }, IDLE_MS);
  warm.idleTimer.unref();
  const list = idle.get(warm.memoryMb);
  if (list) list.push(warm);
  else idle.set(warm.memoryMb, [warm]);
}

/** Stops the idle warm workers (a server's shutdown; a test's end). */
export async function stopIdleWorkers(): Promise<void> {
  const all = [...idle.values()].flat();
  idle.clear();
  await Promise.all(
    all.map((warm) => {
      clearTimeout(warm.idleTimer);
      return warm.worker.terminate();
    }),
  );
}

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
 * Runs `fn` exported by the module at `file` (an absolute path) on `input` in a bounded worker
 * (a warm one when one is idle). `rethrow` turns a task's own error back into the caller's error
 * class (else a plain Error with the same name and message).
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
    const warm = take(budget.memoryMb);
    warm.tasks++;
    const id = nextTaskId++;
    const { worker } = warm;
    return await new Promise<T>((resolve, reject) => {
      let settled = false;
      const finish = (action: () => void, reuse?: number) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (reuse === undefined) void worker.terminate();
        else putBack(warm, reuse);
        action();
      };
      const onMessage = (message: Answer<T>) => {
        if (message.id !== id) return;
        finish(() => {
          if (message.ok) resolve(message.value);
          else reject(opts.rethrow?.(message.error) ?? Object.assign(new Error(message.error.message), message.error));
        }, message.heap);
      };
      const onError = (error: Error & { code?: string }) =>
        finish(() =>
          reject(
            error.code === 'ERR_WORKER_OUT_OF_MEMORY' || /heap out of memory|Allocation failed/i.test(error.message) ? new ParseBudgetError('memory') : error,
          ),
        );
      const onExit = (code: number) =>
        finish(() => reject(code === 0 ? new Error('The file reader stopped without an answer.') : new ParseBudgetError('memory')));
      const timer = setTimeout(() => finish(() => reject(new ParseBudgetError('time'))), budget.timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ id, file, fn, input });
    });
  } finally {
    release();
  }
}
