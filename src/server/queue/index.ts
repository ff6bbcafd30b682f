import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../config';
import type { Db } from '../db/database';
import type { JobHandler, JobOptions, JobQueue, JobRecord } from './job-queue';

export type { JobQueue } from './job-queue';

/**
 * PLACEHOLDER in-memory queue (replaced by the durable database queue and BullMQ).
 */
class MemoryQueue implements JobQueue {
  private handlers = new Map<string, JobHandler>();
  private jobs = new Map<string, JobRecord>();
  private n = 0;
  async add<T>(name: string, data: T, _opts?: JobOptions): Promise<string> {
    const id = String(++this.n);
    const rec: JobRecord = { id, name, data, status: 'waiting', attemptsMade: 0 };
    this.jobs.set(id, rec);
    const h = this.handlers.get(name);
    if (h) {
      rec.status = 'active';
      h(data, { id, attempt: 1, progress: async () => {} }).then(
        (r) => Object.assign(rec, { status: 'completed', result: r, attemptsMade: 1 }),
        (e) => Object.assign(rec, { status: 'failed', error: String(e), attemptsMade: 1 }),
      );
    }
    return id;
  }
  process(name: string, handler: JobHandler): void {
    this.handlers.set(name, handler);
  }
  async get(id: string) {
    return this.jobs.get(id);
  }
  async start() {}
  async close() {}
}

export function createQueue(_config: ServerConfig, _db: Db, _log?: FastifyBaseLogger): JobQueue {
  return new MemoryQueue();
}
