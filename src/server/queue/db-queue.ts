import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql, type ColumnType, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Migration } from '../db/migrate';
import type { JobHandler, JobObserver, JobOptions, JobQueue, JobRecord, JobStatus } from './job-queue';

/** The jobs table (created by the queue module's migration 'queue/0001_jobs'). */
export interface JobsTable {
  /** '<name>/<jobId>' when added with a jobId, otherwise '<name>/<uuid>' */
  id: string;
  name: string;
  data: unknown;
  /** waiting (run_at says when), active, completed, failed */
  status: 'waiting' | 'active' | 'completed' | 'failed';
  /** total tries allowed */
  attempts: number;
  backoff_ms: number;
  /** tries that ended (completed or failed) */
  attempts_made: number;
  /** times the job was taken up again after its process stopped without finishing it */
  stalls: ColumnType<number, number | undefined, number>;
  run_at: ColumnType<Date, Date | undefined, Date>;
  locked_by: string | null;
  locked_until: Date | null;
  progress: ColumnType<number, number | undefined, number>;
  result: unknown;
  error: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  finished_at: Date | null;
}

declare module '../db/schema' {
  interface Database {
    jobs: JobsTable;
  }
}

export const jobsMigration: Migration = {
  id: 'queue/0001_jobs',
  async up(db) {
    await sql`create table jobs (
      id text primary key,
      name text not null,
      data jsonb,
      status text not null default 'waiting'
        check (status in ('waiting', 'active', 'completed', 'failed')),
      attempts integer not null default 3 check (attempts >= 1),
      backoff_ms integer not null default 1000 check (backoff_ms >= 0),
      attempts_made integer not null default 0,
      stalls integer not null default 0,
      run_at timestamptz not null default now(),
      locked_by text,
      locked_until timestamptz,
      progress real not null default 0,
      result jsonb,
      error text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      finished_at timestamptz
    )`.execute(db);
    // what the poller looks for: due waiting jobs, and active jobs whose lock ran out
    await sql`create index jobs_waiting_idx on jobs (name, run_at) where status = 'waiting'`.execute(db);
    await sql`create index jobs_active_idx on jobs (locked_until) where status = 'active'`.execute(db);
  },
};

export interface DbQueueOptions {
  /** how often to look for due jobs, ms (jobs added in this process start at once); default 250 */
  pollMs?: number;
  /**
   * how long a claimed job stays locked to this process, ms; renewed every third of it while the
   * handler runs. A job whose lock ran out (its process died) is taken up again. Default 30 000.
   */
  lockMs?: number;
  /** how many times a job may be taken up again after a crash before it fails; default 2 */
  maxStalls?: number;
  /**
   * how long finished (completed or failed) jobs are kept, ms; default 30 days, as BullMQ keeps
   * them here. It is also how long a jobId stays taken. Purged at start and every hour.
   */
  keepFinishedMs?: number;
  log?: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  onJobDone?: JobObserver;
}

interface Registered {
  handler: JobHandler;
  concurrency: number;
  running: number;
  /** slots promised to claims under way (a poll, or an add that starts its job itself) */
  reserved: number;
}

/** A try that succeeded, waiting to be written with the next claim (see poll). */
interface Completion {
  job: ClaimedRow;
  result: string | null;
  /** true when written, false when the job's lock had been taken over meanwhile */
  settle(written: boolean): void;
  fail(e: unknown): void;
}

interface ClaimedRow {
  id: string;
  name: string;
  data: unknown;
  attempts: number;
  backoff_ms: number;
  attempts_made: number;
  stalls: number;
}

const DEFAULTS = { attempts: 3, backoffMs: 1000 };
const KEEP_FINISHED_MS = 30 * 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

function toJson(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

function errorText(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  return String(e);
}

function nonNegativeInt(name: string, value: number | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) throw new Error(`Job option ${name} must be a whole number >= ${min}, got ${value}`);
  return value;
}

/**
 * The embedded, durable job queue: jobs are rows of the `jobs` table, so they survive a
 * restart. Any number of processes may share one PostgreSQL database: a job is claimed with
 * `update ... where id = (select ... for update skip locked limit 1)`, so exactly one of them
 * gets it. Every statement stands alone (no transaction is held while a handler runs), which
 * also keeps the single-connection PGlite pool free for other work.
 *
 * A job that failed is tried again after backoffMs * 2^(tries so far - 1) until `attempts`
 * tries were made; a completed job is never run again. A job left active by a process that
 * stopped is taken up again once its lock runs out (up to maxStalls times).
 *
 * Few statements per job: a job added here while a handler slot is free and nothing else is
 * known to be due is inserted already claimed by this process and started at once (no poll);
 * a try that succeeded is written in the statement that claims the next jobs for the slots it
 * frees (and those of any other tries that ended meanwhile), so a busy queue costs one statement
 * to add a job and about one to complete it and take the next.
 */
export class DbQueue implements JobQueue {
  private readonly handlers = new Map<string, Registered>();
  private readonly running = new Set<Promise<void>>();
  /** adds that start their job here, still writing it (close() waits for them) */
  private readonly starting = new Set<Promise<unknown>>();
  /** tries that succeeded, written by the next poll */
  private completions: Completion[] = [];
  private readonly worker = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly pollMs: number;
  private readonly lockMs: number;
  private readonly maxStalls: number;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private purgeTimer: ReturnType<typeof setInterval> | undefined;
  private pollAgain = false;
  /** due jobs may be waiting unclaimed: set by add(), the timer and a claim that filled every free slot */
  private mayHaveWork = true;
  /** time to look for jobs whose process stopped (their lock ran out): at start, then every stalledCheckMs */
  private stalledDue = true;
  private lastStalledCheck = 0;
  private readonly stalledCheckMs: number;
  private readonly delayTimers = new Set<NodeJS.Timeout>();
  private started = false;
  private closing = false;

  constructor(
    private readonly db: Kysely<any>,
    private readonly opts: DbQueueOptions = {},
  ) {
    this.pollMs = opts.pollMs ?? 250;
    this.lockMs = opts.lockMs ?? 30_000;
    this.maxStalls = opts.maxStalls ?? 2;
    this.stalledCheckMs = Math.max(this.pollMs, Math.min(Math.floor(this.lockMs / 10), 2000));
  }

  async add<T>(name: string, data: T, opts: JobOptions = {}): Promise<string> {
    if (!name) throw new Error('A job needs a name');
    const attempts = nonNegativeInt('attempts', opts.attempts, DEFAULTS.attempts, 1);
    const backoffMs = nonNegativeInt('backoffMs', opts.backoffMs, DEFAULTS.backoffMs);
    const delayMs = nonNegativeInt('delayMs', opts.delayMs, 0);
    const id = `${name}/${opts.jobId ?? randomUUID()}`;
    const reg = this.handlers.get(name);
    if (reg && delayMs === 0 && this.started && !this.closing && !this.mayHaveWork && reg.running + reg.reserved < reg.concurrency) {
      return this.addAndStart(id, name, data, attempts, backoffMs, reg);
    }
    await sql`insert into jobs (id, name, data, attempts, backoff_ms, run_at)
      values (${id}, ${name}, cast(${toJson(data) ?? 'null'}::text as jsonb), ${attempts}, ${backoffMs},
              now() + ${delayMs}::double precision * interval '1 millisecond')
      on conflict (id) do nothing`.execute(this.db);
    if (this.handlers.has(name)) {
      if (delayMs === 0) this.nudge();
      else this.nudgeAfter(delayMs);
    }
    return id;
  }

  /**
   * Adds a job already claimed by this process and runs it at once: for a job due now, when a
   * handler slot is free and the last look found nothing else due (so it jumps no queue). The
   * row is written active under this process's lock, as a claim would leave it, so a crash
   * before it ends is recovered like any other. An existing jobId adds and starts nothing.
   */
  private async addAndStart(id: string, name: string, data: unknown, attempts: number, backoffMs: number, reg: Registered): Promise<string> {
    reg.reserved += 1;
    const insert = sql<ClaimedRow>`insert into jobs (id, name, data, attempts, backoff_ms, status, locked_by, locked_until, run_at)
      values (${id}, ${name}, cast(${toJson(data) ?? 'null'}::text as jsonb), ${attempts}, ${backoffMs}, 'active', ${this.worker},
              now() + ${this.lockMs}::double precision * interval '1 millisecond', now())
      on conflict (id) do nothing
      returning id, name, data, attempts, backoff_ms, attempts_made, stalls`.execute(this.db);
    const started = insert.then(
      async ({ rows }) => {
        reg.reserved -= 1;
        const job = rows[0];
        if (!job)
          this.nudge(); // the jobId was taken: that job is left to the poll, as add() always did
        else if (this.closing)
          await this.release(job); // asked to stop meanwhile: give it back
        else this.run(job);
      },
      (e) => {
        reg.reserved -= 1;
        throw e;
      },
    );
    this.starting.add(started);
    try {
      await started;
    } finally {
      this.starting.delete(started);
    }
    return id;
  }

  process(name: string, handler: JobHandler, opts: { concurrency?: number } = {}): void {
    const concurrency = opts.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`concurrency must be a whole number >= 1, got ${concurrency}`);
    if (this.handlers.has(name)) throw new Error(`A handler for job "${name}" is already registered`);
    this.handlers.set(name, { handler, concurrency, running: 0, reserved: 0 });
    if (this.started) this.nudge();
  }

  async get(id: string): Promise<JobRecord | undefined> {
    const { rows } = await sql<{
      id: string;
      name: string;
      data: unknown;
      status: JobStatus;
      attempts_made: number;
      attempts: number;
      progress: number;
      result: unknown;
      error: string | null;
    }>`select id, name, data, attempts_made, attempts, progress, result, error,
        case when status = 'waiting' and run_at > now() then 'delayed' else status end as status
      from jobs where id = ${id}`.execute(this.db);
    const r = rows[0];
    if (!r) return undefined;
    const rec: JobRecord = {
      id: r.id,
      name: r.name,
      data: r.data,
      status: r.status,
      attemptsMade: r.attempts_made,
      attempts: r.attempts,
      progress: Number(r.progress),
    };
    if (r.status === 'completed') rec.result = r.result ?? undefined;
    if (r.error !== null) rec.error = r.error;
    return rec;
  }

  async start(): Promise<void> {
    if (this.started || this.closing) return;
    this.started = true;
    this.lastStalledCheck = Date.now();
    this.timer = setInterval(() => {
      if (Date.now() - this.lastStalledCheck >= this.stalledCheckMs) {
        this.lastStalledCheck = Date.now();
        this.stalledDue = true;
      }
      this.nudge();
    }, this.pollMs);
    this.timer.unref();
    this.purgeTimer = setInterval(() => void this.purgeQuietly(), PURGE_EVERY_MS);
    this.purgeTimer.unref();
    void this.purgeQuietly();
    this.nudge();
  }

  async depths(): Promise<Record<string, number>> {
    const { rows } = await sql<{ name: string; n: number }>`select name, count(*)::int as n from jobs where status = 'waiting' group by name`.execute(this.db);
    const out: Record<string, number> = Object.fromEntries([...this.handlers.keys()].map((n) => [n, 0]));
    for (const r of rows) out[r.name] = Number(r.n);
    return out;
  }

  /** Deletes finished jobs older than keepFinishedMs; returns how many went. */
  async purge(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - (this.opts.keepFinishedMs ?? KEEP_FINISHED_MS));
    const result = await this.db.deleteFrom('jobs').where('status', 'in', ['completed', 'failed']).where('finished_at', '<', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private async purgeQuietly(): Promise<void> {
    if (this.closing) return;
    try {
      await this.purge();
    } catch (e) {
      this.opts.log?.warn({ err: e }, `Job queue purge failed: ${errorText(e)}`);
    }
  }

  /** Stops taking jobs and waits for the handlers that are running to finish. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.timer) clearInterval(this.timer);
    if (this.purgeTimer) clearInterval(this.purgeTimer);
    for (const t of this.delayTimers) clearTimeout(t);
    this.delayTimers.clear();
    this.timer = undefined;
    await Promise.allSettled([...this.starting]);
    await this.polling;
    // running handlers' successes are still written (poll runs for them while closing)
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  /** Due jobs may be waiting: look now. */
  private nudge(): void {
    this.mayHaveWork = true;
    this.wake();
  }

  /** A job added here with a delay: look when it falls due rather than at the next poll. */
  private nudgeAfter(delayMs: number): void {
    if (!this.started || this.closing || delayMs > this.pollMs * 40) return; // far off: the poll finds it
    const t = setTimeout(() => {
      this.delayTimers.delete(t);
      this.nudge();
    }, delayMs + 1);
    t.unref();
    this.delayTimers.add(t);
  }

  /** Looks for due jobs now, and writes the tries that succeeded (coalesces calls while a look is under way). */
  private wake(): void {
    if (!this.started) return;
    if (!this.completions.length && (this.closing || (!this.mayHaveWork && !this.stalledDue))) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = this.poll()
      .catch((e) => this.opts.log?.error({ err: e }, `Job queue poll failed: ${errorText(e)}`))
      .finally(() => {
        this.polling = undefined;
        if (this.pollAgain) {
          this.pollAgain = false;
          this.wake();
        }
      });
  }

  /**
   * Claims due jobs for every free handler slot in one statement, and again while a name's claim
   * fills every slot asked for it; a claim short for every name means nothing more is due now, so no
   * further look is made until a job is added, one falls due or the poll timer ticks. Jobs left
   * active by a stopped process are looked for apart (at start, then every stalledCheckMs), so
   * each look uses its own partial index rather than scanning the finished jobs. The same statement
   * writes the tries that succeeded since the last one, and claims for the slots they free: a
   * freed slot always looks again (on PostgreSQL a claim can come back short while other
   * processes' or not-yet-visible jobs wait; measured: waiting for the timer halves throughput).
   * While closing, only the successes are written.
   */
  private async poll(): Promise<void> {
    while (this.completions.length || (!this.closing && (this.mayHaveWork || this.stalledDue))) {
      const batch = this.completions;
      this.completions = [];
      // a success's slot was freed when its handler returned (see complete)
      const free = this.closing
        ? []
        : [...this.handlers].map(([name, h]) => ({ name, reg: h, slots: h.concurrency - h.running - h.reserved })).filter((f) => f.slots > 0);
      if (!free.length && !batch.length) return; // a handler that finishes looks again
      const stalled = free.length > 0 && this.stalledDue;
      if (free.length) {
        if (stalled) this.stalledDue = false;
        else this.mayHaveWork = false;
      }
      for (const f of free) f.reg.reserved += f.slots;
      let result: { claimed: ClaimedRow[]; written: Set<string> };
      try {
        result = await this.claim(free, stalled, batch);
      } catch (e) {
        for (const c of batch) c.fail(e); // their handlers' finally looks again
        throw e;
      } finally {
        for (const f of free) f.reg.reserved -= f.slots;
      }
      const jobs = result.claimed;
      // taken over from a process that stopped (their lock ran out)
      if (stalled) for (const job of jobs) this.opts.onJobDone?.({ queue: job.name, status: 'stalled' });
      for (const c of batch) c.settle(result.written.has(c.job.id));
      // a name that got every slot it asked for may have more due: look again
      if (free.some((f) => jobs.filter((j) => j.name === f.name).length >= f.slots)) {
        if (stalled) this.stalledDue = true;
        else this.mayHaveWork = true;
      }
      if (this.closing) {
        // claimed just as we were asked to stop: give them back untouched
        await Promise.all(jobs.map((job) => this.release(job)));
        continue; // successes that came in meanwhile are still written
      }
      for (const job of jobs) this.run(job);
    }
  }

  /**
   * Claims up to `slots` jobs of each name: due waiting ones, or (stalled) active ones whose lock
   * ran out; and writes the successes in `done` (those whose lock this process still holds).
   */
  private async claim(
    free: Array<{ name: string; slots: number }>,
    stalled: boolean,
    done: Completion[],
  ): Promise<{ claimed: ClaimedRow[]; written: Set<string> }> {
    const doneIds = done.map((c) => c.job.id);
    const complete = sql`update jobs set status = 'completed', attempts_made = attempts_made + 1,
        result = cast(d.result as jsonb), error = null, progress = 100,
        locked_by = null, locked_until = null, finished_at = now(), updated_at = now()
      from unnest(cast(${doneIds} as text[]), cast(${done.map((c) => c.result)} as text[])) as d(id, result)
      where jobs.id = d.id and jobs.locked_by = ${this.worker} and jobs.status = 'active'
      returning jobs.id`;
    if (!free.length) {
      const { rows } = await sql<{ id: string }>`${complete}`.execute(this.db);
      return { claimed: [], written: new Set(rows.map((r) => r.id)) };
    }
    const due = stalled ? sql`status = 'active' and locked_until < now()` : sql`status = 'waiting' and run_at <= now()`;
    const order = stalled ? sql`locked_until` : sql`run_at, created_at`;
    // the jobs being completed are not claimed again (a stalled look could see their lock run out)
    const notDone = doneIds.length ? sql`and not (id = any(cast(${doneIds} as text[])))` : sql``;
    const claim = sql`update jobs set
        status = 'active',
        stalls = stalls + case when status = 'active' then 1 else 0 end,
        locked_by = ${this.worker},
        locked_until = now() + ${this.lockMs}::double precision * interval '1 millisecond',
        updated_at = now()
      where id = any(array(
        select d.id
        from unnest(cast(${free.map((f) => f.name)} as text[]), cast(${free.map((f) => f.slots)} as integer[])) as n(name, slots)
        cross join lateral (
          select id from jobs
          where name = n.name and ${due} ${notDone}
          order by ${order}
          limit n.slots
          for update skip locked
        ) d
      ))
      and ${due}
      returning id, name, data, attempts, backoff_ms, attempts_made, stalls`;
    if (!done.length) {
      const { rows } = await sql<ClaimedRow>`${claim}`.execute(this.db);
      return { claimed: rows, written: new Set() };
    }
    const { rows } = await sql<ClaimedRow & { claimed: boolean }>`
      with c as (${claim}), w as (${complete})
      select true as claimed, id, name, data, attempts, backoff_ms, attempts_made, stalls from c
      union all
      select false, id, null, null, null, null, null, null from w`.execute(this.db);
    return { claimed: rows.filter((r) => r.claimed).map(({ claimed: _, ...job }) => job), written: new Set(rows.filter((r) => !r.claimed).map((r) => r.id)) };
  }

  /** Puts a job claimed during close() back as it was (its stall count included). */
  private async release(job: ClaimedRow): Promise<void> {
    await sql`update jobs set status = 'waiting', locked_by = null, locked_until = null, updated_at = now()
      where id = ${job.id} and locked_by = ${this.worker} and status = 'active'`.execute(this.db);
  }

  private run(job: ClaimedRow): void {
    const reg = this.handlers.get(job.name)!;
    reg.running += 1;
    let freed = false;
    const free = () => {
      if (freed) return;
      freed = true;
      reg.running -= 1;
    };
    let looked = false;
    const task = this.execute(job, reg.handler, free)
      .then((l) => {
        looked = l;
      })
      .catch((e) => this.opts.log?.error({ err: e, jobId: job.id }, `Job ${job.id} could not be recorded: ${errorText(e)}`))
      .finally(() => {
        free();
        this.running.delete(task);
        // a freed slot always looks again (see poll): a success was written with that look already
        if (!looked) this.nudge();
      });
    this.running.add(task);
  }

  /**
   * Frees the handler slot of a try that succeeded and has the next poll write it (claiming for
   * the slot in the same statement); resolves when written (true) or found taken over (false).
   */
  private complete(job: ClaimedRow, result: string | null, freeSlot: () => void): Promise<boolean> {
    return new Promise<boolean>((settle, fail) => {
      freeSlot();
      this.completions.push({ job, result, settle, fail });
      this.wake();
    });
  }

  /** Runs one try and records it; true when its end was written along with a look for more jobs. */
  private async execute(job: ClaimedRow, handler: JobHandler, freeSlot: () => void): Promise<boolean> {
    if (job.stalls > this.maxStalls) {
      await this.finishFailed(job, `The job was taken up again after its process stopped more than ${this.maxStalls} times`, true);
      this.opts.onJobDone?.({ queue: job.name, status: 'failed' });
      return false;
    }
    const heartbeat = setInterval(
      () => {
        sql`update jobs set locked_until = now() + ${this.lockMs}::double precision * interval '1 millisecond'
          where id = ${job.id} and locked_by = ${this.worker} and status = 'active'`
          .execute(this.db)
          .catch((e) => this.opts.log?.warn({ err: e, jobId: job.id }, `Could not renew the lock of job ${job.id}`));
      },
      Math.max(50, Math.floor(this.lockMs / 3)),
    );
    heartbeat.unref();
    let result: string | null = null;
    let failure: unknown;
    let failed = false;
    const began = performance.now();
    try {
      const value = await handler(job.data, {
        id: job.id,
        attempt: job.attempts_made + 1,
        progress: async (value: number) => {
          const v = Math.max(0, Math.min(100, Number(value) || 0));
          await sql`update jobs set progress = ${v}, updated_at = now()
            where id = ${job.id} and locked_by = ${this.worker} and status = 'active'`.execute(this.db);
        },
      });
      result = toJson(value); // a result that cannot be stored fails the try
    } catch (e) {
      failed = true;
      failure = e;
    } finally {
      clearInterval(heartbeat);
    }
    const seconds = (performance.now() - began) / 1000;
    if (failed) {
      await this.finishFailed(job, errorText(failure), false);
      this.opts.onJobDone?.({ queue: job.name, status: job.attempts_made + 1 >= job.attempts ? 'failed' : 'retry', seconds });
      return false;
    }
    this.opts.onJobDone?.({ queue: job.name, status: 'completed', seconds });
    if (!(await this.complete(job, result, freeSlot))) {
      this.opts.log?.warn({ jobId: job.id }, `Job ${job.id} finished after its lock was taken over; its result was not recorded`);
    }
    return true;
  }

  private async finishFailed(job: ClaimedRow, message: string, final: boolean): Promise<void> {
    const tries = job.attempts_made + 1;
    if (final || tries >= job.attempts) {
      await sql`update jobs set status = 'failed', attempts_made = ${tries}, error = ${message},
          locked_by = null, locked_until = null, finished_at = now(), updated_at = now()
        where id = ${job.id} and locked_by = ${this.worker} and status = 'active'`.execute(this.db);
      this.opts.log?.warn({ jobId: job.id, attempts: tries }, `Job ${job.id} failed after ${tries} ${tries === 1 ? 'try' : 'tries'}: ${message}`);
      return;
    }
    const delay = job.backoff_ms * 2 ** (tries - 1);
    await sql`update jobs set status = 'waiting', attempts_made = ${tries}, error = ${message},
        run_at = now() + ${delay}::double precision * interval '1 millisecond',
        locked_by = null, locked_until = null, updated_at = now()
      where id = ${job.id} and locked_by = ${this.worker} and status = 'active'`.execute(this.db);
  }
}
