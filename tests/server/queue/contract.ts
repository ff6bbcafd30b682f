import type { JobQueue } from '../../../src/server/queue/job-queue';
import { sleep, waitForJob, waitUntil } from './support';

/**
 * What every JobQueue adapter promises (the database queue and BullMQ run these same cases).
 * `newQueue` gives a fresh instance on the shared store; two instances stand for two processes.
 */
export function jobQueueContract(newQueue: () => JobQueue): void {
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
    expect(job.error).toBeUndefined();
    expect(await q.get('echo/no-such-job')).toBeUndefined();
    expect(await q.get('nope')).toBeUndefined();
  });

  it('retries after backoffMs * 2^(n-1), showing the job delayed meanwhile, then succeeds', async () => {
    const q = newQueue();
    const times: number[] = [];
    const attempts: number[] = [];
    q.process('flaky', async (_d, job) => {
      times.push(Date.now());
      attempts.push(job.attempt);
      if (job.attempt < 3) throw new Error(`fail ${job.attempt}`);
      return 'third time lucky';
    });
    await q.start();
    const id = await q.add('flaky', {}, { attempts: 3, backoffMs: 200 });
    await waitUntil(() => times.length === 1, 10_000, 'the first try');
    await waitUntil(async () => (await q.get(id))?.status === 'delayed', 5000, 'delayed after the first failure');
    const job = await waitForJob(q, id, ['completed', 'failed']);
    expect(job).toMatchObject({ status: 'completed', result: 'third time lucky', attemptsMade: 3 });
    expect(attempts).toEqual([1, 2, 3]);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(180);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(380);
    expect(times[2] - times[1]).toBeLessThan(3000);
  });

  it('fails a job after its attempts and stores the error', async () => {
    const q = newQueue();
    let calls = 0;
    q.process('doomed', async () => {
      calls += 1;
      throw new Error('SMTP said no');
    });
    await q.start();
    const id = await q.add('doomed', { x: 1 }, { attempts: 2, backoffMs: 20 });
    const job = await waitForJob(q, id);
    expect(job).toMatchObject({ status: 'failed', attemptsMade: 2, error: 'SMTP said no' });
    expect(job.result).toBeUndefined();
    await sleep(300);
    expect(calls).toBe(2);
  });

  it('keeps jobs waiting until a worker starts, and holds delayMs back until due', async () => {
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

  it('adds a job once per jobId and never runs a completed one again, in any process', async () => {
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
    const other = newQueue();
    other.process('once', async () => {
      calls += 1;
    });
    await other.start();
    await sleep(400);
    expect(calls).toBe(1);
    expect(await q.get(a)).toMatchObject({ status: 'completed', result: 1, data: { v: 1 }, attemptsMade: 1 });
    // the same key under another job name is another job
    expect(await q.add('other', {}, { jobId: 'welcome-42' })).not.toBe(a);
  });
}
