/**
 * Isolated places on the shared PostgreSQL and Redis for one server process: a fresh schema, an
 * unused Redis database. Unreachable services throw (integration tests fail, never skip).
 */
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import pg from 'pg';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** A service the test needs is not there. */
export class ServiceUnavailableError extends Error {
  constructor(what: string, url: string, variable: string, cause: Error) {
    super(`${what} at ${url} is unreachable (${variable}): ${cause.message}`);
    this.name = 'ServiceUnavailableError';
  }
}

export interface PgSchema {
  /** DATABASE_URL whose connections use the fresh schema */
  url: string;
  schema: string;
  query<R extends object = Record<string, unknown>>(text: string, values?: unknown[]): Promise<R[]>;
  drop(): Promise<void>;
}

/** Creates a schema of its own in TEST_DATABASE_URL; the URL it returns points the server at it. */
export async function freshPgSchema(base = TEST_DATABASE_URL): Promise<PgSchema> {
  const schema = `crash_${randomBytes(5).toString('hex')}`;
  const client = new pg.Client({ connectionString: base, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (e) {
    throw new ServiceUnavailableError('PostgreSQL', base, 'TEST_DATABASE_URL', e as Error);
  }
  await client.query(`create schema ${schema}`);
  await client.query(`set search_path = ${schema}`);
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    schema,
    async query(text, values) {
      return (await client.query(text, values as unknown[])).rows;
    },
    async drop() {
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}

export interface RedisDb {
  /** REDIS_URL naming the database */
  url: string;
  /** deletes the keys the server left there */
  clear(): Promise<void>;
}

/**
 * An empty Redis logical database (1..15), so the server's queue ('flowmatic' prefix) shares no
 * keys with other servers on the same Redis.
 */
export async function emptyRedisDb(base = TEST_REDIS_URL): Promise<RedisDb> {
  const redis = new Redis(base, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  let lastError: Error | undefined;
  redis.on('error', (e: Error) => (lastError = e));
  try {
    await redis.connect();
  } catch (e) {
    redis.disconnect();
    throw new ServiceUnavailableError('Redis', base, 'TEST_REDIS_URL', lastError ?? (e as Error));
  }
  try {
    const start = 1 + Math.floor(Math.random() * 15);
    for (let i = 0; i < 15; i++) {
      const n = ((start + i - 1) % 15) + 1;
      await redis.select(n);
      if ((await redis.dbsize()) === 0) {
        const url = new URL(base);
        url.pathname = `/${n}`;
        return {
          url: url.toString(),
          async clear() {
            const r = new Redis(url.toString(), { maxRetriesPerRequest: 1 });
            try {
              let cursor = '0';
              do {
                const [next, keys] = await r.scan(cursor, 'MATCH', 'flowmatic*', 'COUNT', 1000);
                if (keys.length) await r.del(...keys);
                cursor = next;
              } while (cursor !== '0');
            } finally {
              r.disconnect();
            }
          },
        };
      }
    }
    throw new Error(`Redis at ${base} has no empty database among 1..15 for an isolated test queue.`);
  } finally {
    redis.disconnect();
  }
}
