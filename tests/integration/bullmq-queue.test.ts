import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { BullMqQueue } from '../../src/server/queue/bullmq-queue';
import { sleep, waitForJob, waitUntil } from '../server/queue/support';

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

  it('runs a job and reports its result, progress and status', async () => {
    const q = newQueue();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    q.process('echo', async (d: { n: number }, job) => {
      await job.progress(30);
      await gate;
      return { doubled: d.n * 2, attempt: job.attempt, id: job.id };
    });
    await q.start();
    const id = await q.add('echo', { n: 21 });
    expect(id).toMatch(/^echo\//);
    await waitUntil(async () => (await q.get(id))?.progress === 30, 10_000, 'progress 30');
    expect((await q.get(id))?.status).toBe('active');
    release();
    const job = await waitForJob(q, id, ['completed']);
    expect(job).toMatchObject({ id, name: 'echo', data: { n: 21 }, status: 'completed', attemptsMade: 1 });
    expect(job.result).toEqual({ doubled: 42, attempt: 1, id });
    expect(await q.get('echo/nope')).toBeUndefined();
    expect(await q.get('nope')).toBeUndefined();
  });

  it('maps waiting and delayed jobs, and holds delayMs back', async () => {
    const producer = newQueue();
    const waiting = await producer.add('later', { a: 1 });
    const delayed = await producer.add('later', { a: 2 }, { delayMs: 600 });
    expect((await producer.get(waiting))?.status).toBe('waiting');
    expect((await producer.get(delayed))?.status).toBe('delayed');
    const worker = newQueue();
    const ranAt = new Map<number, number>();
    worker.process('later', async (d: { a: number }) => {
      ranAt.set(d.a, Date.now());
    });
    const t0 = Date.now();
    await worker.start();
    await waitForJob(producer, waiting, ['completed']);
    await waitForJob(producer, delayed, ['completed']);
    expect(ranAt.get(2)! - t0).toBeGreaterThanOrEqual(400);
  });

  it('retries with exponential backoff, then succeeds', async () => {
    const q = newQueue();
    const times: number[] = [];
    q.process('flaky', async (_d, job) => {
      times.push(Date.now());
      if (job.attempt < 3) throw new Error(`fail ${job.attempt}`);
      return 'ok';
    });
    await q.start();
    const id = await q.add('flaky', {}, { attempts: 3, backoffMs: 200 });
    await waitUntil(() => times.length === 1, 10_000, 'the first try');
    await waitUntil(async () => (await q.get(id))?.status === 'delayed', 5000, 'delayed after the first failure');
    const job = await waitForJob(q, id, ['completed', 'failed']);
    expect(job).toMatchObject({ status: 'completed', result: 'ok', attemptsMade: 3 });
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(180);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(380);
  });

  it('fails a job after its attempts and stores the error', async () => {
    const q = newQueue();
    let calls = 0;
    q.process('doomed', async () => {
      calls += 1;
      throw new Error('SMTP said no');
    });
    await q.start();
    const id = await q.add('doomed', {}, { attempts: 2, backoffMs: 20 });
    const job = await waitForJob(q, id);
    expect(job).toMatchObject({ status: 'failed', attemptsMade: 2, error: 'SMTP said no' });
    await sleep(200);
    expect(calls).toBe(2);
  });

  it('adds a job once per jobId and does not run a completed one again', async () => {
    const q = newQueue();
    let calls = 0;
    q.process('once', async (d: { v: number }) => {
      calls += 1;
      return d.v;
    });
    await q.start();
    const a = await q.add('once', { v: 1 }, { jobId: 'welcome-42' });
    expect(await q.add('once', { v: 2 }, { jobId: 'welcome-42' })).toBe(a);
    await waitForJob(q, a, ['completed']);
    expect(await q.add('once', { v: 3 }, { jobId: 'welcome-42' })).toBe(a);
    await sleep(300);
    expect(calls).toBe(1);
    expect(await q.get(a)).toMatchObject({ status: 'completed', result: 1 });
  });

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
