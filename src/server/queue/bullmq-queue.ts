import { randomUUID } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { JobHandler, JobObserver, JobOptions, JobQueue, JobRecord, JobStatus } from './job-queue';
import { pingRedis } from '../ops/redis-check';

export interface BullMqQueueOptions {
  /** redis:// or rediss:// URL */
  url: string;
  /** prefix of every Redis key (BullMQ's `prefix`); default 'flowmatic' */
  prefix?: string;
  /** how long finished jobs are kept for get(id) and jobId idempotency, seconds; default 30 days */
  keepFinishedSeconds?: number;
  /** how long start() waits to connect to Redis before it gives up, ms; default 10 000 */
  startTimeoutMs?: number;
  log?: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  onJobDone?: JobObserver;
}

/** How long a running job's lock lasts without renewal, ms. */
const LOCK_MS = 20_000;
/** How often a worker looks for jobs whose lock lapsed, ms. */
const STALLED_CHECK_MS = 10_000;

/** BullMQ's reason for a job whose process stopped more often than maxStalledCount allows. */
const STALLED_TOO_OFTEN = /stalled more than allowable limit/;

interface Registered {
  handler: JobHandler;
  concurrency: number;
}

const DEFAULTS = { attempts: 3, backoffMs: 1000 };

function check(name: string, value: number | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) throw new Error(`Job option ${name} must be a whole number >= ${min}, got ${value}`);
  return value;
}

function statusOf(state: string): JobStatus | undefined {
  switch (state) {
    case 'completed':
    case 'failed':
    case 'delayed':
    case 'active':
    case 'waiting':
      return state;
    case 'prioritized':
    case 'waiting-children':
      return 'waiting';
    default:
      return undefined;
  }
}

/**
 * The job queue on Redis through BullMQ (used when REDIS_URL is set). One BullMQ queue per job
 * name, so each name has its own concurrency and a process only takes the jobs it has handlers
 * for; any number of processes share the work. Ids are '<name>/<key>' (key: the jobId, or a
 * UUID), the same shape as the database queue's.
 */
export class BullMqQueue implements JobQueue {
  private readonly queues = new Map<string, Queue>();
  private readonly handlers = new Map<string, Registered>();
  private readonly workers: Worker[] = [];
  private readonly connection: { url: string; maxRetriesPerRequest: null };
  private readonly prefix: string;
  private readonly keep: number;
  private readonly startTimeoutMs: number;
  private started = false;
  private closed = false;

  constructor(private readonly opts: BullMqQueueOptions) {
    this.connection = { url: opts.url, maxRetriesPerRequest: null };
    this.prefix = opts.prefix ?? 'flowmatic';
    this.keep = opts.keepFinishedSeconds ?? 30 * 24 * 3600;
    this.startTimeoutMs = opts.startTimeoutMs ?? 10_000;
  }

  async add<T>(name: string, data: T, opts: JobOptions = {}): Promise<string> {
    const attempts = check('attempts', opts.attempts, DEFAULTS.attempts, 1);
    const backoffMs = check('backoffMs', opts.backoffMs, DEFAULTS.backoffMs);
    const delayMs = check('delayMs', opts.delayMs, 0);
    const key = opts.jobId ?? randomUUID();
    if (key.includes(':')) throw new Error(`jobId "${key}" must not contain ":"`);
    const job = await this.queue(name).add(name, data, {
      jobId: key,
      attempts,
      backoff: { type: 'exponential', delay: backoffMs },
      delay: delayMs || undefined,
      removeOnComplete: { age: this.keep },
      removeOnFail: { age: this.keep },
    });
    return `${name}/${job.id ?? key}`;
  }

  process(name: string, handler: JobHandler, opts: { concurrency?: number } = {}): void {
    const concurrency = opts.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`concurrency must be a whole number >= 1, got ${concurrency}`);
    if (this.handlers.has(name)) throw new Error(`A handler for job "${name}" is already registered`);
    this.queueName(name);
    this.handlers.set(name, { handler, concurrency });
    if (this.started) this.startWorker(name, this.handlers.get(name)!);
  }

  async get(id: string): Promise<JobRecord | undefined> {
    const slash = id.indexOf('/');
    if (slash <= 0) return undefined;
    const name = id.slice(0, slash);
    const key = id.slice(slash + 1);
    let queue: Queue;
    try {
      queue = this.queue(name);
    } catch (e) {
      if (e instanceof Error && /Job name/.test(e.message)) return undefined;
      throw e;
    }
    // the state first, then the job: a job read before its state could be staler than it
    const status = statusOf(await queue.getJobState(key));
    if (!status) return undefined;
    const job = await queue.getJob(key);
    if (!job) return undefined;
    const rec: JobRecord = {
      id,
      name,
      data: job.data,
      status,
      attemptsMade: job.attemptsMade,
      attempts: job.opts.attempts ?? 1,
      progress: typeof job.progress === 'number' ? job.progress : undefined,
    };
    if (status === 'completed') rec.result = job.returnvalue ?? undefined;
    if (job.failedReason) rec.error = job.failedReason;
    return rec;
  }

  async start(): Promise<void> {
    if (this.started || this.closed) return;
    this.started = true;
    await this.ping();
    for (const [name, reg] of this.handlers) this.startWorker(name, reg);
    await Promise.all(this.workers.map((w) => w.waitUntilReady()));
  }

  /**
   * Fails fast with a clear message when Redis does not answer (BullMQ's own connections
   * retry for ever and cannot be closed while they do).
   */
  private async ping(): Promise<void> {
    try {
      await pingRedis(this.opts.url, this.startTimeoutMs);
    } catch (e) {
      this.started = false;
      throw e;
    }
  }

  async depths(): Promise<Record<string, number>> {
    const names = new Set([...this.handlers.keys(), ...this.queues.keys()]);
    const out: Record<string, number> = {};
    for (const name of names) {
      const counts = await this.queue(name).getJobCounts('waiting', 'delayed', 'prioritized');
      out[name] = Object.values(counts).reduce((a, b) => a + b, 0);
    }
    return out;
  }

  /** Closes the workers (waiting for running handlers), then the queues and their connections. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.workers.length = 0;
    this.queues.clear();
  }

  private queueName(name: string): string {
    if (!name || name.includes(':') || name.includes('/')) throw new Error(`Job name "${name}" must not be empty or contain ":" or "/"`);
    return name;
  }

  private queue(name: string): Queue {
    if (this.closed) throw new Error('The job queue is closed');
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(this.queueName(name), { connection: this.connection, prefix: this.prefix });
      q.on('error', (e) => this.opts.log?.error({ err: e }, `BullMQ queue ${name}: ${e.message}`));
      this.queues.set(name, q);
    }
    return q;
  }

  private startWorker(name: string, reg: Registered): void {
    const worker = new Worker(
      name,
      async (job: Job) => {
        const began = performance.now();
        const seconds = () => (performance.now() - began) / 1000;
        try {
          const result = await reg.handler(job.data, {
            id: `${name}/${job.id}`,
            attempt: job.attemptsMade + 1,
            progress: (value: number) => job.updateProgress(Math.max(0, Math.min(100, Number(value) || 0))),
          });
          this.opts.onJobDone?.({ queue: name, status: 'completed', seconds: seconds() });
          return result;
        } catch (e) {
          const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
          this.opts.onJobDone?.({ queue: name, status: final ? 'failed' : 'retry', seconds: seconds() });
          throw e;
        }
      },
      // A running job's lock is renewed every lockDuration / 2; a job whose worker died is found
      // by the stalled check once its lock has lapsed (marked on one check, moved back on the
      // next). BullMQ's 30 s defaults let a kill -9 leave jobs waiting up to about 90 s; these
      // bring it to about 40 s.
      { connection: this.connection, prefix: this.prefix, concurrency: reg.concurrency, lockDuration: LOCK_MS, stalledInterval: STALLED_CHECK_MS },
    );
    worker.on('error', (e) => this.opts.log?.error({ err: e }, `BullMQ worker ${name}: ${e.message}`));
    // found here running in a process that stopped: back to waiting, to be taken up again
    worker.on('stalled', () => this.opts.onJobDone?.({ queue: name, status: 'stalled' }));
    worker.on('failed', (job, e) => {
      // failed by BullMQ without running the handler (counted above when it ran)
      if (STALLED_TOO_OFTEN.test(e.message)) this.opts.onJobDone?.({ queue: name, status: 'failed' });
      if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) {
        this.opts.log?.warn({ jobId: `${name}/${job.id}` }, `Job ${name}/${job.id} failed after ${job.attemptsMade} tries: ${e.message}`);
      }
    });
    this.workers.push(worker);
  }
}
