/**
 * A financial-analysis test run: the two jobs (default and custom) started together under one
 * wf_id, stored per user so only the caller can read its status. The status of a run is derived
 * from its jobs on the JobQueue: FAILED as soon as one failed, COMPLETE when all completed.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db, JobQueue, JobRecord, Migration } from '../../src/server';
import type { AnalysisReport } from './engine/analysis';

export const RUNS_TABLE = 'financial_analysis_runs';

export const runsMigration: Migration = {
  id: 'financial-analysis/0002_runs',
  async up(db) {
    await sql`create table financial_analysis_runs (
      wf_id text primary key,
      user_id integer not null references users(id) on delete cascade,
      combination_id integer not null,
      file_name text not null,
      default_job_id text,
      custom_job_id text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
    await sql`create index financial_analysis_runs_user_idx on financial_analysis_runs (user_id, created_at)`.execute(db);
  },
};

export interface RunRow {
  wf_id: string;
  user_id: number;
  combination_id: number;
  file_name: string;
  default_job_id: string | null;
  custom_job_id: string;
}

export type RunStatus = 'RUNNING' | 'COMPLETE' | 'FAILED';

export interface RunState {
  status: RunStatus;
  report?: { default: AnalysisReport | null; custom_config: AnalysisReport };
  message?: string;
}

/** Records and reads runs; every read is scoped to the owner. */
export class AnalysisRuns {
  constructor(
    private readonly db: Db,
    private readonly queue: JobQueue,
  ) {}

  /** A new run id. */
  newId(): string {
    return randomUUID();
  }

  async save(row: RunRow): Promise<void> {
    await sql`insert into financial_analysis_runs (wf_id, user_id, combination_id, file_name, default_job_id, custom_job_id)
      values (${row.wf_id}, ${row.user_id}, ${row.combination_id}, ${row.file_name}, ${row.default_job_id}, ${row.custom_job_id})`.execute(this.db);
  }

  /** The owner's run, or undefined (another user's run is not found). */
  async find(userId: number, wfId: string): Promise<RunRow | undefined> {
    const { rows } =
      await sql<RunRow>`select wf_id, user_id, combination_id, file_name, default_job_id, custom_job_id from financial_analysis_runs where wf_id = ${wfId} and user_id = ${userId}`.execute(
        this.db,
      );
    return rows[0];
  }

  /** The run's status from its jobs, with the reports once both completed or the first failure's message. */
  async state(run: RunRow): Promise<RunState> {
    const [custom, byDefault] = await Promise.all([
      this.queue.get(run.custom_job_id),
      run.default_job_id ? this.queue.get(run.default_job_id) : Promise.resolve(undefined),
    ]);
    const jobs = [custom, ...(run.default_job_id ? [byDefault] : [])];
    if (jobs.some((j) => !j)) return { status: 'FAILED', message: 'The analysis jobs of this test are no longer available; please run the test again.' };
    const failed = (jobs as JobRecord[]).find((j) => j.status === 'failed');
    if (failed) return { status: 'FAILED', message: failed.error || `"${run.file_name}" could not be analysed.` };
    if ((jobs as JobRecord[]).every((j) => j.status === 'completed')) {
      return {
        status: 'COMPLETE',
        report: { default: (byDefault?.result as AnalysisReport | undefined) ?? null, custom_config: custom!.result as AnalysisReport },
      };
    }
    return { status: 'RUNNING' };
  }
}
