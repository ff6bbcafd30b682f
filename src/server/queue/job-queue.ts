export type JobStatus = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed';

export interface JobOptions {
  /** total tries including the first; default 3 */
  attempts?: number;
  /** base of the exponential backoff between tries, ms; default 1000 */
  backoffMs?: number;
  /** run no earlier than this many ms from now */
  delayMs?: number;
  /**
   * idempotency key: adding a job with an existing key returns that job (its id) and adds
   * nothing. Ids returned by add() are opaque: always read a job back with the returned id.
   */
  jobId?: string;
}

export interface JobRecord<T = unknown> {
  id: string;
  name: string;
  data: T;
  status: JobStatus;
  attemptsMade: number;
  result?: unknown;
  error?: string;
  /** last progress reported by the handler, 0..100 */
  progress?: number;
  /** total tries allowed (JobOptions.attempts) */
  attempts?: number;
}

export interface JobContext {
  id: string;
  /** 1 for the first try */
  attempt: number;
  /** report progress 0..100 */
  progress(value: number): Promise<void>;
}

/**
 * One try of a job that ended: 'retry' failed and will be tried again, 'failed' will not (also a
 * job failed because its process stopped too often: no handler ran, no seconds), 'stalled' was
 * found running in a process that stopped (its lock ran out) and is taken up again (no seconds).
 */
export interface JobOutcome {
  queue: string;
  status: 'completed' | 'failed' | 'retry' | 'stalled';
  /** how long the handler ran; absent when none ran in this process */
  seconds?: number;
}

/** Told of every try that ends in this process (the metrics count them). */
export type JobObserver = (outcome: JobOutcome) => void;

export type JobHandler<T = any> = (data: T, job: JobContext) => Promise<unknown>;

/**
 * Every long piece of work runs as a job on this queue: durable in the database by default,
 * BullMQ on Redis when REDIS_URL is set. Retries with exponential backoff; a job that
 * completed is never run again.
 */
export interface JobQueue {
  add<T>(name: string, data: T, opts?: JobOptions): Promise<string>;
  /** Registers the handler for a job name; call before start(). */
  process(name: string, handler: JobHandler, opts?: { concurrency?: number }): void;
  get(id: string): Promise<JobRecord | undefined>;
  start(): Promise<void>;
  close(): Promise<void>;
  /** Jobs waiting (due or delayed) per job name, for the queue-depth gauge. */
  depths(): Promise<Record<string, number>>;
}
