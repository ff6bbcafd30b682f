import { sql, type Kysely } from 'kysely';
import type { FinishedJobFact, FinishedJobService } from '../../src/server';

/** A finished status that the roll-up counts. */
export type FinishedStatus = 'succeeded' | 'failed';

/** One roll-up row of a user's workflow: the runs that finished on a day (UTC). */
export interface DailyRuns {
  day: string;
  succeeded: number;
  failed: number;
}

/** What counting a job did. */
export type CountOutcome = 'counted' | 'moved' | 'already-counted' | 'not-finished' | 'no-workflow';

interface CountedRow {
  workflow_id: number;
  day: string;
  status: FinishedStatus;
  user_id: number;
}

/** 'YYYY-MM-DD' of a date column (PGlite and pg give a Date at UTC midnight, or text). */
export function dayText(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value).slice(0, 10);
}

/**
 * The daily roll-up of automation runs. `count(jobId)` folds one finished job into its user's
 * and workflow's day, exactly once: the job is marked counted in the same transaction, and a
 * job that changes its final status (a failed run retried to success) is moved, not counted
 * twice. Reads never touch the job records, so history outlives the job purge. The jobs'
 * facts come from the automation module's FinishedJobs service.
 */
export class RunRollup {
  constructor(
    private readonly db: Kysely<any>,
    private readonly jobs: FinishedJobService,
  ) {}

  /** Counts a job that reached succeeded or failed; anything else is left alone. */
  async count(jobId: string): Promise<CountOutcome> {
    // read before the transaction: the service has a connection of its own
    const [fact] = await this.jobs.factsOf([jobId]);
    if (!fact) return 'not-finished';
    return this.countFact(fact);
  }

  /** Counts a finished job from its facts (see count). */
  private async countFact(job: FinishedJobFact): Promise<CountOutcome> {
    if (job.workflowId === null) return 'no-workflow';
    const jobId = job.id;
    const workflowId = job.workflowId;
    const day = job.day;
    return this.db.transaction().execute(async (trx) => {
      const inserted = await sql`insert into monitoring_counted_jobs (job_id, user_id, workflow_id, day, status)
          values (${jobId}, ${job.userId}, ${workflowId}, ${day}, ${job.status})
          on conflict (job_id) do nothing returning job_id`.execute(trx);
      if (inserted.rows.length === 1) {
        await this.add(trx, job.userId, workflowId, day, job.status, 1);
        return 'counted';
      }
      const previous = (
        await sql<CountedRow>`select user_id, workflow_id, day, status from monitoring_counted_jobs where job_id = ${jobId} for update`.execute(trx)
      ).rows[0];
      if (!previous || previous.status === job.status) return 'already-counted';
      await this.add(trx, previous.user_id, previous.workflow_id, dayText(previous.day), previous.status, -1);
      await this.add(trx, job.userId, workflowId, day, job.status, 1);
      await sql`update monitoring_counted_jobs set status = ${job.status}, day = ${day}, workflow_id = ${workflowId}
          where job_id = ${jobId}`.execute(trx);
      return 'moved';
    });
  }

  /**
   * Counts every finished job not counted yet, or counted with another status (runs that ended
   * while this plugin was absent, or the server stopped between finishing a job and counting
   * it). Pages through the finished jobs in id order; each page is checked against the counted
   * jobs in one query, and only the jobs found missing are counted. Returns how many changed.
   */
  async backfill(batchSize = 2000): Promise<number> {
    let total = 0;
    let after: string | null = null;
    for (;;) {
      const page: FinishedJobFact[] = await this.jobs.page(after, batchSize);
      if (page.length === 0) return total;
      after = page[page.length - 1].id;
      const missing = new Set(
        (
          await sql<{
            id: string;
          }>`select f.id from unnest(cast(${page.map((f) => f.id)} as text[]), cast(${page.map((f) => f.status)} as text[])) as f(id, status)
              where not exists (select 1 from monitoring_counted_jobs m where m.job_id = f.id::uuid and m.status = f.status)`.execute(this.db)
        ).rows.map((r) => r.id),
      );
      for (const fact of page) {
        if (!missing.has(fact.id)) continue;
        const outcome = await this.countFact(fact);
        if (outcome === 'counted' || outcome === 'moved') total += 1;
      }
      if (page.length < batchSize) return total;
    }
  }

  /** A user's daily runs of a workflow between two days (inclusive), days without runs absent. */
  async days(userId: number, workflowId: number, from: string, to: string): Promise<DailyRuns[]> {
    const rows = (
      await sql<{
        day: unknown;
        succeeded: number;
        failed: number;
      }>`select day, succeeded, failed from monitoring_daily_runs
          where user_id = ${userId} and workflow_id = ${workflowId} and day between ${from}::date and ${to}::date
          order by day`.execute(this.db)
    ).rows;
    return rows.map((r) => ({
      day: dayText(r.day),
      succeeded: Number(r.succeeded),
      failed: Number(r.failed),
    }));
  }

  private async add(db: Kysely<any>, userId: number, workflowId: number, day: string, status: FinishedStatus, delta: 1 | -1): Promise<void> {
    const succeeded = status === 'succeeded' ? delta : 0;
    const failed = status === 'failed' ? delta : 0;
    await sql`insert into monitoring_daily_runs (user_id, workflow_id, day, succeeded, failed)
        values (${userId}, ${workflowId}, ${day}::date, ${Math.max(succeeded, 0)}, ${Math.max(failed, 0)})
        on conflict (user_id, workflow_id, day) do update set
          succeeded = greatest(monitoring_daily_runs.succeeded + ${succeeded}, 0),
          failed = greatest(monitoring_daily_runs.failed + ${failed}, 0)`.execute(db);
  }
}
