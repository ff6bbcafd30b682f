import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type Db } from '../../../src/server/db/database';
import { migrate } from '../../../src/server/db/migrate';
import { queueModule } from '../../../src/server/queue';
import type { JobQueue, JobRecord } from '../../../src/server/queue/job-queue';
import type { Database } from '../../../src/server/db/schema';

export interface QueueDb {
  db: Db;
  /** another connection pool on the same database (a second "process"; PostgreSQL only) */
  connect(): Db;
  drop(): Promise<void>;
}

/**
 * A migrated database for queue tests: a fresh schema in TEST_DATABASE_URL when it is set (the
 * integration run), otherwise an in-memory PGlite. An unreachable PostgreSQL fails the test.
 */
export async function queueDb(url = process.env.TEST_DATABASE_URL): Promise<QueueDb> {
  if (!url) {
    const db = await openDatabase({ dataDir: 'memory://' });
    await migrate(db, queueModule.migrations!);
    return {
      db,
      connect: () => {
        throw new Error('PGlite is a single in-process connection: use the same db');
      },
      drop: () => db.destroy(),
    };
  }
  const schema = `q_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
  } catch (e) {
    throw new Error(`PostgreSQL at ${url} is unreachable (TEST_DATABASE_URL): ${(e as Error).message}`);
  }
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const pools: Db[] = [];
  const connect = () => {
    const pool = new pg.Pool({ connectionString: url, max: 4, options: `-c search_path=${schema}` });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    pools.push(db);
    return db;
  };
  const db = connect();
  await migrate(db, queueModule.migrations!);
  return {
    db,
    connect,
    drop: async () => {
      await sql.raw(`drop schema ${schema} cascade`).execute(db);
      await Promise.all(pools.map((p) => p.destroy()));
    },
  };
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
