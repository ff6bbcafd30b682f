import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../../src/server/db/database';
import { CACHE_CHANNEL } from '../../src/server/catalogue/cache';
import { discoverServerPlugins } from '../../src/server/plugin-loader';
import { createUser, login, startTestServer, type TestServer, type TestUser } from '../support/server';
import { PLUGINS_DIR } from '../server/catalogue/support';

/**
 * Two server processes on one PostgreSQL database: with REDIS_URL, what one writes clears the
 * other's catalogue caches through Redis pub/sub (issue 7, Speed), and only tables some cache
 * watches are published. Fails, never skips, when PostgreSQL or Redis is unreachable.
 */
const pgUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

jest.setTimeout(60_000);

describe('cache invalidation across server processes through Redis', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let dbA: Db, dbB: Db;
  let a: TestServer, b: TestServer;
  let alice: TestUser;
  let listener: Redis;
  const heard: string[][] = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 5000 });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    // each "process" has its own pool and its own table-change feed, as two servers would
    const url = `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    dbA = await openDatabase({ databaseUrl: url });
    dbB = await openDatabase({ databaseUrl: url });
    const env = { REDIS_URL: redisUrl };
    const plugins = await discoverServerPlugins(PLUGINS_DIR); // the real catalogue
    a = await startTestServer({ db: dbA, env, plugins });
    b = await startTestServer({ db: dbB, env, plugins });
    alice = await createUser(a);
    listener = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    listener.on('message', (_channel, raw: string) => heard.push((JSON.parse(raw) as { tables: string[] }).tables));
    await listener.subscribe(CACHE_CHANNEL);
  });
  afterAll(async () => {
    await listener?.quit();
    await a?.close();
    await b?.close();
    await sql.raw(`drop schema if exists ${schema} cascade`).execute(dbA);
    await dbA?.destroy();
    await dbB?.destroy();
  });

  const card = async (server: TestServer, id: number) =>
    (await server.call('GET', '/api/platform/combinations', { token: alice.access })).body.find((c: { id: number }) => c.id === id);

  async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const v = await read();
      if (ok(v) || Date.now() > deadline) return v;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it("a vote through one server shows in the other's cached combination list", async () => {
    expect(await card(b, 12)).toMatchObject({ votes: 0, my_vote: false }); // b caches alice's list
    expect((await a.call('POST', '/api/platform/votes', { token: alice.access, body: { combination_id: 12 } })).status).toBe(201);
    const after = await eventually(
      () => card(b, 12),
      (c) => c.votes === 1,
    );
    expect(after).toMatchObject({ votes: 1, my_vote: true });
  });

  it('a log out through one server ends the session on the other, whose token cache held it', async () => {
    const session = await login(a, alice.email, alice.password);
    const me = () => b.call('GET', '/api/platform/userId', { token: session.access });
    expect((await me()).status).toBe(200); // b now holds the session as valid
    expect((await a.call('POST', '/api/platform/logout', { token: session.access, body: { refresh: session.refresh } })).status).toBe(200);
    expect((await eventually(me, (r) => r.status === 401)).status).toBe(401);
  });

  it('publishes only tables some cache watches', async () => {
    heard.length = 0;
    await sql`delete from jobs where false`.execute(dbA); // the queue's table: no cache reads it
    await sql`delete from votes where false`.execute(dbA);
    await eventually(
      async () => heard,
      (h) => h.some((t) => t.includes('votes')),
    );
    expect(heard.some((t) => t.includes('votes'))).toBe(true);
    expect(heard.some((t) => t.includes('jobs'))).toBe(false);
  });
});
