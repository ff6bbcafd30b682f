import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { BullMqQueue } from '../../src/server/queue/bullmq-queue';
import { sleep, waitForJob, waitUntil } from '../server/queue/support';
import { jobQueueContract } from '../server/queue/contract';

/**
 * The BullMQ adapter against a real Redis (TEST_REDIS_URL). Every run uses its own key prefix
 * and deletes its keys afterwards. Fails, never skips, when Redis is unreachable.
 */
const url = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const prefix = `flowmatic-test-${randomBytes(5).toString('hex')}`;

describe('BullMqQueue on Redis', () => {
  let redis: Redis;
  const queues: BullMqQueue[] = [];
  const newQueue = () => {
    const q = new BullMqQueue({ url, prefix });
    queues.push(q);
    return q;
  };

  beforeAll(async () => {
    redis = new Redis(url, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
    let lastError: Error | undefined;
    redis.on('error', (e: Error) => (lastError = e));
    try {
      await redis.connect();
      expect(await redis.ping()).toBe('PONG');
    } catch (e) {
      redis.disconnect();
      throw new Error(`Redis at ${url} is unreachable (TEST_REDIS_URL): ${(lastError ?? (e as Error)).message}`);
    }
  });
  afterEach(async () => {
    await Promise.all(queues.splice(0).map((q) => q.close()));
  });
  afterAll(async () => {
    if (redis?.status !== 'ready') return;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    await redis.quit();
  });

  describe('the JobQueue contract', () => jobQueueContract(newQueue));

  it('shares jobs between two worker processes, running each once', async () => {
    const runs = new Map<string, string[]>();
    const producer = newQueue();
    const ids = await Promise.all(Array.from({ length: 40 }, (_, n) => producer.add('share', { n })));
    for (const who of ['a', 'b']) {
      const w = newQueue();
      w.process(
        'share',
        async (_d, job) => {
          runs.set(job.id, [...(runs.get(job.id) ?? []), who]);
          await sleep(20);
          return who;
        },
        { concurrency: 2 },
      );
      await w.start();
    }
    for (const id of ids) await waitForJob(producer, id, ['completed'], 20_000);
    expect(runs.size).toBe(40);
    expect([...runs.values()].every((w) => w.length === 1)).toBe(true);
    const byA = [...runs.values()].filter((w) => w[0] === 'a').length;
    expect(byA).toBeGreaterThan(0);
    expect(byA).toBeLessThan(40);
  });

  it('fails start() with a clear error when Redis does not answer, leaving nothing open', async () => {
    const q = new BullMqQueue({ url: 'redis://:secret@127.0.0.1:1', prefix, startTimeoutMs: 500 });
    q.process('nowhere', async () => {});
    await expect(q.start()).rejects.toThrow('Redis at redis://:***@127.0.0.1:1 is unreachable (REDIS_URL): connect ECONNREFUSED');
    await q.close();
  });

  it('closes cleanly, waiting for a running handler', async () => {
    const q = newQueue();
    let finished = false;
    let started = false;
    q.process('slow', async () => {
      started = true;
      await sleep(300);
      finished = true;
    });
    await q.start();
    const id = await q.add('slow', {});
    await waitUntil(() => started, 10_000, 'the job to start');
    await q.close();
    expect(finished).toBe(true);
    const reader = newQueue();
    expect((await reader.get(id))?.status).toBe('completed');
  });
});
