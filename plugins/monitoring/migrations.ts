import { sql } from 'kysely';
import type { Migration } from '../../src/server';

/**
 * The daily roll-up of finished automation runs, per user and workflow, and the jobs already
 * counted in it (so a job is counted once, and moved when a failed job is retried and succeeds).
 * A counted-job row goes with its job (on delete cascade); the roll-up outlives both.
 * (This migration also added workflows.minutes_per_run once; the catalogue owns that column now,
 * catalogue/0003_minutes_per_run, which runs first on a new database and finds it on an older one.)
 */
export const monitoringMigrations: Migration[] = [
  {
    id: 'monitoring/0001_daily_runs',
    async up(db) {
      await sql`create table monitoring_daily_runs (
        user_id integer not null references users(id) on delete cascade,
        workflow_id integer not null,
        day date not null,
        succeeded integer not null default 0 check (succeeded >= 0),
        failed integer not null default 0 check (failed >= 0),
        primary key (user_id, workflow_id, day)
      )`.execute(db);
      await sql`create table monitoring_counted_jobs (
        job_id uuid primary key references automation_jobs(id) on delete cascade,
        user_id integer not null,
        workflow_id integer not null,
        day date not null,
        status text not null check (status in ('succeeded', 'failed'))
      )`.execute(db);
    },
  },
];
