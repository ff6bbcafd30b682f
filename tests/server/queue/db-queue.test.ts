import { sql } from 'kysely';
import { DbQueue } from '../../../src/server/queue/db-queue';
import { queueDb, sleep, waitForJob, waitUntil, type QueueDb } from './support';

/**
 * The durable database queue: PGlite in the server project, a fresh PostgreSQL schema when
 * TEST_DATABASE_URL is set (npm run test:integration).
 */
describe('DbQueue', () => {
  let qdb: QueueDb;
  const queues: DbQueue[] = [];
  const newQueue = (opts: ConstructorParameters<typeof DbQueue>[1] = {}) => {
    const q = new DbQueue(qdb.db, { pollMs: 50, ...opts });
    queues.push(q);
    return q;
  };

  // one database per file (PGlite takes seconds to start); each test starts with no jobs
  beforeAll(async () => {
    qdb = await queueDb();
  });
  afterAll(() => qdb?.drop());
  afterEach(async () => {
    await Promise.all(queues.splice(0).map((q) => q.close()));
    await sql`delete from jobs`.execute(qdb.db);
  });

  it('runs a job and stores its result and progress', async () => {
    const q = newQueue();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    q.process('echo', async (data: { n: number }, job) => {
      await job.progress(40);
      await gate;
      return { doubled: data.n * 2, attempt: job.attempt, id: job.id };
    });
    await q.start();
    const id = await q.add('echo', { n: 21 });
    await waitUntil(async () => (await q.get(id))?.progress === 40, 5000, 'progress 40');
    expect((await q.get(id))?.status).toBe('active');
    release();
    const job = await waitForJob(q, id);
    expect(job).toMatchObject({ id, name: 'echo', data: { n: 21 }, status: 'completed', attemptsMade: 1, progress: 100 });
    expect(job.result).toEqual({ doubled: 42, attempt: 1, id });
    expect(job.error).toBeUndefined();
    expect(await q.get('echo/no-such-job')).toBeUndefined();
  });

  it('starts a job added in-process at once, without waiting for the poll', async () => {
    const q = newQueue({ pollMs: 60_000 });
    q.process('fast', async () => 'ok');
    await q.start();
    const t0 = Date.now();
    const id = await q.add('fast', {});
    await waitForJob(q, id, ['completed'], 2000);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('retries a failing job and then succeeds', async () => {
    const q = newQueue();
    const seen: number[] = [];
    q.process('flaky', async (_d, job) => {
      seen.push(job.attempt);
      if (job.attempt < 3) throw new Error(`fail ${job.attempt}`);
      return 'third time lucky';
    });
    await q.start();
    const id = await q.add('flaky', {}, { attempts: 3, backoffMs: 20 });
    const job = await waitForJob(q, id);
    expect(job).toMatchObject({ status: 'completed', attemptsMade: 3, result: 'third time lucky' });
    expect(job.error).toBeUndefined();
    expect(seen).toEqual([1, 2, 3]);
  });

  it('fails a job after its attempts and stores the error', async () => {
    const q = newQueue();
    let calls = 0;
    q.process('doomed', async () => {
      calls += 1;
      throw new Error('SMTP said no');
    });
    await q.start();
    const id = await q.add('doomed', { x: 1 }, { attempts: 2, backoffMs: 10 });
    const job = await waitForJob(q, id);
    expect(job).toMatchObject({ status: 'failed', attemptsMade: 2, attempts: 2, error: 'SMTP said no' });
    expect(job.result).toBeUndefined();
    await sleep(300);
    expect(calls).toBe(2);
  });

  it('waits backoffMs * 2^(n-1) between tries and shows the job delayed meanwhile', async () => {
    const q = newQueue({ pollMs: 20 });
    const times: number[] = [];
    q.process('backoff', async () => {
      times.push(Date.now());
      if (times.length < 3) throw new Error('not yet');
      return 'done';
    });
    await q.start();
    const id = await q.add('backoff', {}, { attempts: 3, backoffMs: 200 });
    await waitUntil(() => times.length === 1, 5000, 'first try');
    await waitUntil(async () => (await q.get(id))?.status === 'delayed', 5000, 'delayed after the first failure');
    expect((await q.get(id))?.error).toBe('not yet');
    await waitForJob(q, id, ['completed']);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(190);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(390);
    expect(times[2] - times[1]).toBeLessThan(2000);
  });

  it('holds a job with delayMs back until it is due', async () => {
    const q = newQueue({ pollMs: 20 });
    let ranAt = 0;
    q.process('later', async () => {
      ranAt = Date.now();
    });
    await q.start();
    const t0 = Date.now();
    const id = await q.add('later', {}, { delayMs: 500 });
    expect((await q.get(id))?.status).toBe('delayed');
    await waitForJob(q, id, ['completed']);
    expect(ranAt - t0).toBeGreaterThanOrEqual(490);
  });

  it('adds a job once per jobId and never runs a completed job again', async () => {
    const q = newQueue();
    let calls = 0;
    q.process('once', async (d: { v: number }) => {
      calls += 1;
      return d.v;
    });
    await q.start();
    const a = await q.add('once', { v: 1 }, { jobId: 'welcome-42' });
    const b = await q.add('once', { v: 2 }, { jobId: 'welcome-42' });
    expect(b).toBe(a);
    await waitForJob(q, a, ['completed']);
    const c = await q.add('once', { v: 3 }, { jobId: 'welcome-42' });
    expect(c).toBe(a);
    // another "process" on the same database does not take it up either
    const q2 = newQueue();
    q2.process('once', async () => {
      calls += 1;
    });
    await q2.start();
    await sleep(400);
    expect(calls).toBe(1);
    expect(await q.get(a)).toMatchObject({ status: 'completed', result: 1, data: { v: 1 }, attemptsMade: 1 });
    // the same key under another job name is another job
    expect(await q.add('other', {}, { jobId: 'welcome-42' })).not.toBe(a);
  });

  it('keeps jobs across a restart and takes up a job left active with an expired lock', async () => {
    // "process" 1 queues jobs and stops before running them
    const first = newQueue();
    await first.start();
    const waiting = await first.add('survive', { n: 1 });
    const crashed = await first.add('survive', { n: 2 }, { attempts: 3 });
    const stillLocked = await first.add('survive', { n: 3 });
    await first.close();
    // one job was running in a process that died: its lock has run out
    await sql`update jobs set status = 'active', locked_by = 'dead-host:1:x', locked_until = now() - interval '1 second'
      where id = ${crashed}`.execute(qdb.db);
    // another is locked by a live process: not to be touched
    await sql`update jobs set status = 'active', locked_by = 'live-host:2:y', locked_until = now() + interval '1 hour'
      where id = ${stillLocked}`.execute(qdb.db);

    const second = newQueue();
    const ran: number[] = [];
    second.process('survive', async (d: { n: number }, job) => {
      ran.push(d.n);
      return job.attempt;
    });
    await second.start();
    expect(await waitForJob(second, waiting)).toMatchObject({ status: 'completed' });
    expect(await waitForJob(second, crashed)).toMatchObject({ status: 'completed', result: 1 });
    await sleep(300);
    expect(ran.sort()).toEqual([1, 2]);
    expect((await second.get(stillLocked))?.status).toBe('active');
  });

  it('fails a job that keeps taking its process down instead of looping for ever', async () => {
    const q0 = newQueue();
    const id = await q0.add('poison', {});
    await sql`update jobs set status = 'active', stalls = 2, locked_by = 'dead', locked_until = now() - interval '1 second'
      where id = ${id}`.execute(qdb.db);
    const q = newQueue({ maxStalls: 2 });
    let calls = 0;
    q.process('poison', async () => {
      calls += 1;
    });
    await q.start();
    const job = await waitForJob(q, id);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/process stopped/);
    expect(calls).toBe(0);
  });

  it('renews the lock of a long job so that no other process takes it', async () => {
    const a = newQueue({ lockMs: 300 });
    const b = newQueue({ lockMs: 300 });
    let calls = 0;
    const handler = async () => {
      calls += 1;
      await sleep(900);
      return 'long';
    };
    a.process('long', handler);
    await a.start();
    const id = await a.add('long', {});
    await waitUntil(() => calls === 1, 5000, 'the job to start');
    b.process('long', handler);
    await b.start();
    expect(await waitForJob(a, id, ['completed', 'failed'], 5000)).toMatchObject({ status: 'completed', result: 'long' });
    expect(calls).toBe(1);
  });

  it('runs at most `concurrency` jobs of a name at once', async () => {
    const q = newQueue();
    let now = 0;
    let max = 0;
    q.process(
      'parallel',
      async () => {
        now += 1;
        max = Math.max(max, now);
        await sleep(150);
        now -= 1;
      },
      { concurrency: 2 },
    );
    await q.start();
    const ids = await Promise.all([1, 2, 3, 4, 5].map((n) => q.add('parallel', { n })));
    for (const id of ids) await waitForJob(q, id, ['completed']);
    expect(max).toBe(2);
  });

  it('close() stops polling and waits for running handlers', async () => {
    const q = newQueue();
    let finished = false;
    let started = false;
    q.process('slow', async () => {
      started = true;
      await sleep(300);
      finished = true;
      return 'finished';
    });
    await q.start();
    const id = await q.add('slow', {});
    await waitUntil(() => started, 5000, 'the job to start');
    await q.close();
    expect(finished).toBe(true);
    const reader = newQueue();
    expect(await reader.get(id)).toMatchObject({ status: 'completed', result: 'finished' });
    // a closed queue takes nothing more
    let ranAfterClose = false;
    const other = await reader.add('slow', {});
    await sleep(200);
    expect(ranAfterClose).toBe(false);
    expect((await reader.get(other))?.status).toBe('waiting');
  });

  it('fails a try whose result cannot be stored as JSON', async () => {
    const q = newQueue();
    q.process('bigint', async () => 10n);
    await q.start();
    const id = await q.add('bigint', {}, { attempts: 1 });
    expect(await waitForJob(q, id)).toMatchObject({ status: 'failed', error: expect.stringMatching(/BigInt/) });
  });

  it('purges finished jobs after keepFinishedMs and keeps the rest', async () => {
    const q = newQueue({ keepFinishedMs: 60_000 });
    q.process('tidy', async (d: { fail?: boolean }) => {
      if (d.fail) throw new Error('no');
      return 'ok';
    });
    await q.start();
    const done = await q.add('tidy', {});
    const failed = await q.add('tidy', { fail: true }, { attempts: 1 });
    await waitForJob(q, done, ['completed']);
    await waitForJob(q, failed, ['failed']);
    const later = await q.add('tidy', {}, { delayMs: 3_600_000 });
    expect(await q.purge(new Date(Date.now() + 30_000))).toBe(0);
    expect(await q.purge(new Date(Date.now() + 120_000))).toBe(2);
    expect(await q.get(done)).toBeUndefined();
    expect(await q.get(failed)).toBeUndefined();
    expect((await q.get(later))?.status).toBe('delayed');
  });

  it('rejects bad options', async () => {
    const q = newQueue();
    await expect(q.add('x', {}, { attempts: 0 })).rejects.toThrow(/attempts/);
    await expect(q.add('x', {}, { backoffMs: -1 })).rejects.toThrow(/backoffMs/);
    expect(() => q.process('x', async () => {}, { concurrency: 0 })).toThrow(/concurrency/);
  });
});
