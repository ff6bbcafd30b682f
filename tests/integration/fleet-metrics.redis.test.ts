import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { BullMqQueue } from '../../src/server/queue/bullmq-queue';
import type { JobOutcome } from '../../src/server/queue/job-queue';
import { ServerMetrics } from '../../src/server/ops/metrics';
import { sleep, waitForJob } from '../server/queue/support';
import { parsePrometheus, promValue } from './fleet-support';

/**
 * A BullMQ job failed because its processes kept stopping (BullMQ fails it, with no handler run,
 * when the next worker takes it up) is counted in flowmatic_jobs_total as failed, with no
 * duration. Against a real Redis (TEST_REDIS_URL), under a key prefix of its own; fails, never
 * skips, when Redis is unreachable.
 */
const url = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const prefix = `flowmatic-test-${randomBytes(5).toString('hex')}`;

describe('BullMQ jobs failed for stalling, in the metrics', () => {
  let redis: Redis;
  let queue: BullMqQueue | undefined;

  beforeAll(async () => {
    redis = new Redis(url, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
    let lastError: Error | undefined;
    redis.on('error', (e: Error) => (lastError = e));
    try {
      await redis.connect();
    } catch (e) {
      redis.disconnect();
      throw new Error(`Redis at ${url} is unreachable (TEST_REDIS_URL): ${(lastError ?? (e as Error)).message}`);
    }
  });
  afterAll(async () => {
    await queue?.close();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('counts the failure once, without running the handler', async () => {
    const metrics = new ServerMetrics();
    const outcomes: JobOutcome[] = [];
    queue = new BullMqQueue({
      url,
      prefix,
      onJobDone: (o) => {
        outcomes.push(o);
        metrics.observeJob(o);
      },
    });
    const id = await queue.add('fleet.stall', { n: 1 });
    const ok = await queue.add('fleet.stall', { n: 2 });
    // what BullMQ's stalled check writes on a job that stalled more often than maxStalledCount
    await redis.hset(`${prefix}:fleet.stall:${id.slice(id.indexOf('/') + 1)}`, 'defa', 'job stalled more than allowable limit');
    const ran: number[] = [];
    queue.process('fleet.stall', async (d: { n: number }) => {
      ran.push(d.n);
      return d.n;
    });
    await queue.start();
    expect(await waitForJob(queue, id, ['failed'])).toMatchObject({ status: 'failed', error: 'job stalled more than allowable limit' });
    expect(await waitForJob(queue, ok, ['completed'])).toMatchObject({ status: 'completed', result: 2 });
    await sleep(200);
    expect(ran).toEqual([2]);
    expect(outcomes.map((o) => [o.status, o.seconds === undefined]).sort()).toEqual([
      ['completed', false],
      ['failed', true],
    ]);
    const text = parsePrometheus((await metrics.text()).body);
    expect(promValue(text, 'flowmatic_jobs_total', 'flowmatic_jobs_total', { queue: 'fleet.stall', status: 'failed' })).toBe(1);
    expect(promValue(text, 'flowmatic_jobs_total', 'flowmatic_jobs_total', { queue: 'fleet.stall', status: 'completed' })).toBe(1);
    expect(
      promValue(text, 'flowmatic_job_duration_seconds', 'flowmatic_job_duration_seconds_count', { queue: 'fleet.stall', status: 'failed' }),
    ).toBeUndefined();
    expect(promValue(text, 'flowmatic_job_duration_seconds', 'flowmatic_job_duration_seconds_count', { queue: 'fleet.stall', status: 'completed' })).toBe(1);
  });
});
