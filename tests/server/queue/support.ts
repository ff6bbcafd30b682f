import { openTestDatabase, type TestDatabase } from '../../support/server';
import { migrate } from '../../../src/server/db/migrate';
import { queueModule } from '../../../src/server/queue';
import type { JobQueue, JobRecord } from '../../../src/server/queue/job-queue';

export type QueueDb = TestDatabase;

/** A database with the queue's table: see openTestDatabase (PGlite, or a PostgreSQL schema). */
export async function queueDb(url = process.env.TEST_DATABASE_URL): Promise<QueueDb> {
  const t = await openTestDatabase(url);
  await migrate(t.db, queueModule.migrations!);
  return t;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Waits until the job reaches one of the statuses (default: completed or failed). */
export async function waitForJob(
  queue: JobQueue,
  id: string,
  statuses: JobRecord['status'][] = ['completed', 'failed'],
  timeoutMs = 10_000,
): Promise<JobRecord> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await queue.get(id);
    if (job && statuses.includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`Job ${id} is ${job?.status ?? 'missing'}, not ${statuses.join('/')}, after ${timeoutMs} ms`);
    await sleep(25);
  }
}

/** Waits until check() is true. */
export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(25);
  }
}
