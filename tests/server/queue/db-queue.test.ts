import { sql } from 'kysely';
import { DbQueue } from '../../../src/server/queue/db-queue';
import { queueDb, sleep, waitForJob, waitUntil, type QueueDb } from './support';
import { jobQueueContract } from './contract';

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

  describe('the JobQueue contract', () => jobQueueContract(() => newQueue({ pollMs: 20 })));

  it('records progress 100 on completion and the attempts a job was allowed', async () => {
    const q = newQueue();
    q.process('n', async (d: { fail: boolean }) => {
      if (d.fail) throw new Error('no');
      return 'ok';
    });
    await q.start();
    const ok = await q.add('n', { fail: false });
    const bad = await q.add('n', { fail: true }, { attempts: 2, backoffMs: 10 });
    expect(await waitForJob(q, ok)).toMatchObject({ status: 'completed', progress: 100 });
    expect(await waitForJob(q, bad)).toMatchObject({ status: 'failed', attempts: 2, attemptsMade: 2 });
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

  it('tells its observer of each job taken over from a stopped process, and of one failed for stopping too often', async () => {
    const q0 = newQueue();
    const again = await q0.add('orphan', { n: 1 });
    const poison = await q0.add('orphan', { n: 2 });
    await sql`update jobs set status = 'active', stalls = 0, locked_by = 'dead', locked_until = now() - interval '1 second' where id = ${again}`.execute(
      qdb.db,
    );
    await sql`update jobs set status = 'active', stalls = 2, locked_by = 'dead', locked_until = now() - interval '1 second' where id = ${poison}`.execute(
      qdb.db,
    );
    const outcomes: Array<{ queue: string; status: string; ran: boolean }> = [];
    const q = newQueue({ maxStalls: 2, onJobDone: (o) => outcomes.push({ queue: o.queue, status: o.status, ran: o.seconds !== undefined }) });
    q.process('orphan', async (d: { n: number }) => d.n);
    await q.start();
    expect(await waitForJob(q, again)).toMatchObject({ status: 'completed', result: 1 });
    expect(await waitForJob(q, poison)).toMatchObject({ status: 'failed' });
    await sleep(200);
    expect(outcomes.sort((a, b) => a.status.localeCompare(b.status))).toEqual([
      { queue: 'orphan', status: 'completed', ran: true },
      { queue: 'orphan', status: 'failed', ran: false },
      { queue: 'orphan', status: 'stalled', ran: false },
      { queue: 'orphan', status: 'stalled', ran: false },
    ]);
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
    const ranAfterClose = false;
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
