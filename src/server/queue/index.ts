import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../config';
import type { Db } from '../db/database';
import { defineServerPlugin } from '../plugin';
import { BullMqQueue } from './bullmq-queue';
import { DbQueue, jobsMigration } from './db-queue';
import type { JobObserver, JobQueue } from './job-queue';

export type { JobQueue, JobObserver, JobOutcome, JobHandler, JobOptions, JobRecord, JobStatus, JobContext } from './job-queue';
export { DbQueue } from './db-queue';
export { BullMqQueue } from './bullmq-queue';

/** The queue's own table: the durable database queue keeps its jobs there. */
export const queueModule = defineServerPlugin({
  id: 'queue',
  migrations: [jobsMigration],
});

/** BullMQ on Redis when REDIS_URL is set, otherwise the durable queue in the database. */
export function createQueue(config: ServerConfig, db: Db, log?: FastifyBaseLogger, onJobDone?: JobObserver): JobQueue {
  return config.redisUrl ? new BullMqQueue({ url: config.redisUrl, prefix: config.redisPrefix, log, onJobDone }) : new DbQueue(db, { log, onJobDone });
}
