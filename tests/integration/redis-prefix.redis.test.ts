import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import pg from 'pg';
import { openDatabase, type Db } from '../../src/server/db/database';
import { loadConfig } from '../../src/server/config';
import { createQueue, type JobQueue } from '../../src/server/queue';
import { startTestServer, type TestServer } from '../support/server';
import { sleep, waitForJob } from '../server/queue/support';

/**
 * Two deployments sharing one Redis database: every key and channel of each carries its own
 * REDIS_PREFIX, so neither takes the other's jobs, counts the other's rate limits, or hears the
 * other's cache invalidations. Fails, never skips, when Redis is unreachable.
 */
const url = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const pgUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const SECRET = 'test-secret-key-that-is-long-enough-0123456789';

jest.setTimeout(60_000);

describe('REDIS_PREFIX: deployments sharing one Redis stay apart', () => {
  const a = `d1a-${randomBytes(4).toString('hex')}`;
  const b = `d1b-${randomBytes(4).toString('hex')}`;
  let redis: Redis;
  const queues: JobQueue[] = [];
  const queueOf = (prefix: string) => {
    const q = createQueue(loadConfig({ SECRET_KEY: SECRET, REDIS_URL: url, REDIS_PREFIX: prefix }), undefined as never);
    queues.push(q);
    return q;
  };

  beforeAll(async () => {
    redis = new Redis(url, { connectTimeout: 3000, maxRetriesPerRequest: 1 });
    expect(await redis.ping()).toBe('PONG');
  });
  afterAll(async () => {
    await Promise.all(queues.map((q) => q.close()));
    for (const prefix of [a, b]) {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
    }
    await redis.quit();
  });

  it('defaults to "flowmatic" and refuses a prefix with ":" or spaces', () => {
    expect(loadConfig({ SECRET_KEY: SECRET }).redisPrefix).toBe('flowmatic');
    expect(() => loadConfig({ SECRET_KEY: SECRET, REDIS_PREFIX: 'a:b' })).toThrow(/REDIS_PREFIX/);
    expect(() => loadConfig({ SECRET_KEY: SECRET, REDIS_PREFIX: 'a b' })).toThrow(/REDIS_PREFIX/);
  });

  it('a job added by one deployment is run by its own workers only', async () => {
    const producerA = queueOf(a);
    const ranInB: unknown[] = [];
    const workerB = queueOf(b);
    workerB.process('d1.probe', async (data) => void ranInB.push(data));
    await workerB.start();
    await producerA.start();
    const id = await producerA.add('d1.probe', { n: 1 });
    await sleep(1500);
    expect(ranInB).toEqual([]);
    const ranInA: unknown[] = [];
    const workerA = queueOf(a);
    workerA.process('d1.probe', async (data) => void ranInA.push(data));
    await workerA.start();
    await waitForJob(producerA, id, ['completed'], 15_000);
    expect(ranInA).toEqual([{ n: 1 }]);
    expect(ranInB).toEqual([]);
    expect((await redis.keys(`${a}:*`)).length).toBeGreaterThan(0);
  });

  describe('two servers, one per prefix', () => {
    let sa: TestServer;
    let sb: TestServer;
    const schemas = [`t_${randomBytes(6).toString('hex')}`, `t_${randomBytes(6).toString('hex')}`];
    const dbs: Db[] = [];
    /** A server on a database of its own, opened from a URL as a deployment's is (with its change feed). */
    const deployment = async (schema: string, prefix: string) => {
      const admin = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 5000 });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.end();
      const db = await openDatabase({ databaseUrl: `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}` });
      dbs.push(db);
      return startTestServer({ db, env: { REDIS_URL: url, REDIS_PREFIX: prefix, AUTH_RATE_LIMIT: '2' } });
    };
    beforeAll(async () => {
      sa = await deployment(schemas[0], a);
      sb = await deployment(schemas[1], b);
    });
    afterAll(async () => {
      await sa?.close();
      await sb?.close();
      await Promise.all(dbs.map((d) => d.destroy()));
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      for (const schema of schemas) await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    });

    it('counts rate limits and hears cache changes under its own prefix only', async () => {
      const remoteAddress = `127.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}.9`;
      const attempt = (s: TestServer) =>
        s.app.inject({ method: 'POST', url: '/api/platform/api-jwt-token/', remoteAddress, payload: { username: 'nobody@example.com', password: 'wrong' } });
      expect((await attempt(sa)).statusCode).toBe(401);
      expect((await attempt(sa)).statusCode).toBe(401);
      expect((await attempt(sa)).statusCode).toBe(429);
      // the other deployment has its own counters
      expect((await attempt(sb)).statusCode).toBe(401);
      const rateKeys = await redis.keys(`*rate-limit*${remoteAddress}*`);
      expect(rateKeys.length).toBe(2);
      expect(rateKeys.every((k) => k.startsWith(`${a}:rate-limit:`) || k.startsWith(`${b}:rate-limit:`))).toBe(true);
      const channels = (await redis.pubsub('CHANNELS', 'd1*')) as string[];
      expect(channels).toEqual(expect.arrayContaining([`${a}:table-changes`, `${b}:table-changes`]));
      expect(channels.every((c) => c.startsWith(`${a}:`) || c.startsWith(`${b}:`))).toBe(true);
    });
  });
});
