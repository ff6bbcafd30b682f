import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { TableChangeFeed } from '../db/change-feed';

/**
 * A map of loaded values that forgets everything when the tables it depends on change.
 * Loads of one key run once at a time (concurrent misses share one load), and a load that
 * started before an invalidation is not stored, so a value read before a write never
 * outlives it. Bounded: the oldest entries go first past `maxEntries`.
 */
export class InvalidatingCache<K, V> {
  private readonly values = new Map<K, V>();
  private readonly loading = new Map<K, Promise<V>>();
  private generation = 0;

  constructor(private readonly maxEntries = 10_000) {}

  /** The cached value of `key`, or the result of `load` (stored unless invalidated meanwhile). */
  get(key: K, load: () => Promise<V>): Promise<V> {
    if (this.values.has(key)) return Promise.resolve(this.values.get(key)!);
    const inFlight = this.loading.get(key);
    if (inFlight) return inFlight;
    const generation = this.generation;
    const p = load()
      .then((value) => {
        if (generation === this.generation) {
          if (this.values.size >= this.maxEntries) this.values.delete(this.values.keys().next().value as K);
          this.values.set(key, value);
        }
        return value;
      })
      .finally(() => {
        if (this.loading.get(key) === p) this.loading.delete(key);
      });
    this.loading.set(key, p);
    return p;
  }

  /** Forgets every value (and makes loads under way not store theirs). */
  clear(): void {
    this.generation += 1;
    this.values.clear();
    this.loading.clear();
  }

  get size(): number {
    return this.values.size;
  }

  /** Clears this cache whenever one of `tables` changes; returns an unsubscribe. */
  clearOn(feed: TableChangeFeed, tables: string[]): () => void {
    return feed.subscribeTo(tables, () => this.clear());
  }
}

/** The bridge's channel under a deployment's REDIS_PREFIX. */
export const cacheChannel = (prefix: string) => `${prefix}:table-changes`;
/** The channel of the default prefix. */
export const CACHE_CHANNEL = cacheChannel('flowmatic');

/**
 * Shares table changes between server processes through Redis pub/sub: what this process writes
 * to a table some cache watches is published, what others write clears the caches here. Needed whenever more than one process
 * serves one database (otherwise each process only sees its own writes).
 */
export class RedisChangeBridge {
  private readonly origin = randomUUID();
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly unsubscribe: () => void;
  private readonly channel: string;

  constructor(
    private readonly feed: TableChangeFeed,
    redisUrl: string,
    private readonly onError: (e: Error) => void = () => undefined,
    prefix = 'flowmatic',
  ) {
    this.channel = cacheChannel(prefix);
    const options = { connectTimeout: 2000, maxRetriesPerRequest: 1, lazyConnect: false };
    this.pub = new Redis(redisUrl, options);
    this.sub = new Redis(redisUrl, options);
    this.pub.on('error', onError);
    this.sub.on('error', onError);
    this.sub.on('message', (_channel, raw: string) => this.receive(raw));
    // only tables some cache watches: the engine's writes (jobs, steps) would cost a publish each
    this.unsubscribe = feed.subscribeLocal((written) => {
      const tables = feed.watchedOf(written);
      if (!tables.length) return;
      this.pub.publish(this.channel, JSON.stringify({ origin: this.origin, tables })).catch((e: Error) => this.onError(e));
    });
  }

  /** Subscribes to the channel; resolves once other processes' changes are being received. */
  async start(): Promise<void> {
    await this.sub.subscribe(this.channel);
  }

  private receive(raw: string): void {
    try {
      const msg = JSON.parse(raw) as { origin?: unknown; tables?: unknown };
      if (msg.origin === this.origin || !Array.isArray(msg.tables)) return;
      this.feed.announceRemote(msg.tables.filter((t): t is string => typeof t === 'string'));
    } catch (e) {
      this.onError(e as Error);
    }
  }

  async close(): Promise<void> {
    this.unsubscribe();
    await Promise.all([this.pub.quit().catch(() => undefined), this.sub.quit().catch(() => undefined)]);
  }
}

/** Tables whose change alters what a user's catalogue replies say (entries, votes, recipes). */
export const CATALOGUE_TABLES = ['solutions', 'workflows', 'combinations', 'votes', 'user_recipes', 'managed_users'];
/** Tables whose change alters who a token belongs to or whether it still counts. */
export const AUTH_TABLES = ['users', 'managed_users', 'revoked_sessions'];
