import { sql, type Kysely } from 'kysely';

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

interface JobFacts {
  user_id: number;
  workflow_id: number | null;
  status: string;
  day: string | null;
}

interface CountedRow {
  workflow_id: number;
  day: string;
  status: FinishedStatus;
  user_id: number;
}

const isFinished = (s: string): s is FinishedStatus => s === 'succeeded' || s === 'failed';

/** 'YYYY-MM-DD' of a date column (PGlite and pg give a Date at UTC midnight, or text). */
export function dayText(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value).slice(0, 10);
}

/**
 * The daily roll-up of automation runs. `count(jobId)` folds one finished job into its user's
 * and workflow's day, exactly once: the job is marked counted in the same transaction, and a
 * job that changes its final status (a failed run retried to success) is moved, not counted
 * twice. Reads never touch the job records, so history outlives the job purge.
 */
export class RunRollup {
  constructor(private readonly db: Kysely<any>) {}

  /** Counts a job that reached succeeded or failed; anything else is left alone. */
  async count(jobId: string): Promise<CountOutcome> {
    return this.db.transaction().execute(async (trx) => {
      const job = (
        await sql<JobFacts>`select j.user_id, c.workflow_id, j.status,
            to_char(coalesce(j.completed_at, j.created_at) at time zone 'UTC', 'YYYY-MM-DD') as day
          from automation_jobs j left join combinations c on c.id = j.combination_id
          where j.id = ${jobId}`.execute(trx)
      ).rows[0];
      if (!job || !isFinished(job.status)) return 'not-finished';
      if (job.workflow_id === null) return 'no-workflow';
      const day = job.day!;
      const inserted = await sql`insert into monitoring_counted_jobs (job_id, user_id, workflow_id, day, status)
          values (${jobId}, ${job.user_id}, ${job.workflow_id}, ${day}, ${job.status})
          on conflict (job_id) do nothing returning job_id`.execute(trx);
      if (inserted.rows.length === 1) {
        await this.add(trx, job.user_id, job.workflow_id, day, job.status, 1);
        return 'counted';
      }
      const previous = (
        await sql<CountedRow>`select user_id, workflow_id, day, status from monitoring_counted_jobs where job_id = ${jobId} for update`.execute(trx)
      ).rows[0];
      if (!previous || previous.status === job.status) return 'already-counted';
      await this.add(trx, previous.user_id, previous.workflow_id, dayText(previous.day), previous.status, -1);
      await this.add(trx, job.user_id, job.workflow_id, day, job.status, 1);
      await sql`update monitoring_counted_jobs set status = ${job.status}, day = ${day}, workflow_id = ${job.workflow_id}
          where job_id = ${jobId}`.execute(trx);
      return 'moved';
    });
  }

  /**
   * Counts every finished job not counted yet (runs that ended while this plugin was absent or
   * the server stopped between finishing a job and counting it), in batches. Returns how many.
   */
  async backfill(batchSize = 500): Promise<number> {
    let total = 0;
    for (;;) {
      const ids = (
        await sql<{ id: string }>`select j.id from automation_jobs j
            where j.status in ('succeeded', 'failed')
              and not exists (select 1 from monitoring_counted_jobs m where m.job_id = j.id and m.status = j.status)
              and exists (select 1 from combinations c where c.id = j.combination_id)
            limit ${batchSize}`.execute(this.db)
      ).rows.map((r) => r.id);
      let changed = 0;
      for (const id of ids) {
        const outcome = await this.count(id);
        if (outcome === 'counted' || outcome === 'moved') changed += 1;
      }
      total += changed;
      if (ids.length < batchSize || changed === 0) return total;
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
