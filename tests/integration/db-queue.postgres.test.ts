import { sql } from 'kysely';
import { DbQueue } from '../../src/server/queue/db-queue';
import { queueDb, sleep, waitForJob, waitUntil, type QueueDb } from '../server/queue/support';

/**
 * The durable database queue on a real PostgreSQL (TEST_DATABASE_URL, a fresh schema), shared
 * by two queue instances with their own connection pools, as two server processes would.
 * Fails, never skips, when PostgreSQL is unreachable.
 */
const url = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

describe('DbQueue on PostgreSQL, shared by two processes', () => {
  let qdb: QueueDb;
  const queues: DbQueue[] = [];
  const process2 = (opts: ConstructorParameters<typeof DbQueue>[1] = {}) => {
    const q = new DbQueue(qdb.connect(), { pollMs: 50, ...opts });
    queues.push(q);
    return q;
  };

  beforeAll(async () => {
    qdb = await queueDb(url);
  });
  afterAll(() => qdb?.drop());
  afterEach(async () => {
    await Promise.all(queues.splice(0).map((q) => q.close()));
    await sql`delete from jobs`.execute(qdb.db);
  });

  it('shares the jobs between two processes and runs none of them twice', async () => {
    const runs = new Map<string, string[]>();
    const make = (who: string) => {
      const q = process2();
      q.process(
        'share',
        async (_d, job) => {
          runs.set(job.id, [...(runs.get(job.id) ?? []), who]);
          await sleep(5 + Math.floor(Math.random() * 20));
          return who;
        },
        { concurrency: 3 },
      );
      return q;
    };
    const a = make('a');
    const b = make('b');
    // add before starting, so that both processes race for the same backlog
    const ids = await Promise.all(Array.from({ length: 60 }, (_, n) => a.add('share', { n })));
    await Promise.all([a.start(), b.start()]);
    for (const id of ids) await waitForJob(a, id, ['completed'], 20_000);
    await sleep(300);
    expect(runs.size).toBe(60);
    for (const [id, who] of runs) expect({ id, who: who.length }).toEqual({ id, who: 1 });
    const byA = [...runs.values()].filter((w) => w[0] === 'a').length;
    expect(byA).toBeGreaterThan(0);
    expect(byA).toBeLessThan(60);
    const { rows } = await sql<{ status: string; n: string }>`select status, count(*) as n from jobs group by status`.execute(qdb.db);
    expect(rows.map((r) => [r.status, Number(r.n)])).toEqual([['completed', 60]]);
  });

  it('retries a job on whichever process is free, counting the tries once', async () => {
    const seen: Array<[string, number]> = [];
    for (const who of ['a', 'b']) {
      const q = process2({ pollMs: 20 });
      q.process('retry', async (_d, job) => {
        seen.push([who, job.attempt]);
        if (job.attempt < 3) throw new Error(`try ${job.attempt} failed`);
        return 'ok';
      });
      await q.start();
    }
    const id = await queues[0].add('retry', {}, { attempts: 4, backoffMs: 100 });
    expect(await waitForJob(queues[1], id, ['completed', 'failed'])).toMatchObject({ status: 'completed', attemptsMade: 3, result: 'ok' });
    expect(seen.map(([, n]) => n)).toEqual([1, 2, 3]);
  });

  it('fails a job after its attempts, with the error, on both processes', async () => {
    let calls = 0;
    for (let i = 0; i < 2; i++) {
      const q = process2({ pollMs: 20 });
      q.process('bad', async () => {
        calls += 1;
        throw new Error('no such invoice');
      });
      await q.start();
    }
    const id = await queues[0].add('bad', {}, { attempts: 3, backoffMs: 20 });
    expect(await waitForJob(queues[1], id)).toMatchObject({ status: 'failed', attemptsMade: 3, error: 'no such invoice' });
    await sleep(300);
    expect(calls).toBe(3);
  });

  it('lets a live process take up the job of a process that died, once its lock ran out', async () => {
    // process A claims the job with a short lock, then "dies": its connections are gone, so it
    // can no longer renew the lock
    const deadDb = qdb.connect();
    const a = new DbQueue(deadDb, { pollMs: 50, lockMs: 600 });
    let aStarted = false;
    let unblock!: () => void;
    const blocked = new Promise<void>((r) => (unblock = r));
    a.process('crash', async () => {
      aStarted = true;
      await blocked;
    });
    await a.start();
    const id = await a.add('crash', { doc: 7 });
    await waitUntil(() => aStarted, 5000, 'process A to start the job');
    await deadDb.destroy();
    const crashedAt = Date.now();

    const b = process2({ lockMs: 5000 });
    let bRan = 0;
    b.process('crash', async (d: { doc: number }, job) => {
      bRan = Date.now();
      return { doc: d.doc, attempt: job.attempt };
    });
    await b.start();
    expect((await b.get(id))?.status).toBe('active');
    expect(await waitForJob(b, id, ['completed'], 10_000)).toMatchObject({ status: 'completed', result: { doc: 7, attempt: 1 } });
    // not before A's lock ran out
    expect(bRan - crashedAt).toBeGreaterThan(100);
    unblock();
    await a.close();
  });
});
