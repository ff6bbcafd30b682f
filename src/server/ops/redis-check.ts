import Redis from 'ioredis';

/** The URL without its password, for messages. */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured URL';
  }
}

/**
 * Connects once and pings, never retrying; throws an error naming REDIS_URL when Redis does not
 * answer within timeoutMs (ioredis's own clients retry for ever and only say "max retries").
 */
export async function pingRedis(url: string, timeoutMs: number): Promise<void> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  let lastError: Error | undefined;
  client.on('error', (e: Error) => (lastError = e));
  try {
    await client.connect();
    await client.ping();
  } catch (e) {
    throw new Error(`Redis at ${redactedUrl(url)} is unreachable (REDIS_URL): ${(lastError ?? (e as Error)).message}`);
  } finally {
    client.disconnect();
  }
}

/**
 * One Redis connection kept for readiness probes, opened at the first probe and reconnecting on
 * its own (with a growing pause) after Redis went away: a probe asks it, never opens a
 * connection of its own. A probe while it is not connected fails at once (after at most
 * timeoutMs when it is still connecting), naming REDIS_URL.
 */
export class RedisProbe {
  private client: Redis | undefined;
  private lastError: Error | undefined;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {}

  async ping(): Promise<void> {
    if (this.closed) throw new Error('The Redis readiness probe is closed');
    const client = (this.client ??= this.open());
    try {
      if (client.status !== 'ready') await this.ready(client);
      await client.ping();
    } catch (e) {
      throw new Error(`Redis at ${redactedUrl(this.url)} is unreachable (REDIS_URL): ${(this.lastError ?? (e as Error)).message}`);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.client?.disconnect();
    this.client = undefined;
  }

  private open(): Redis {
    const client = new Redis(this.url, {
      connectTimeout: this.timeoutMs,
      commandTimeout: this.timeoutMs,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: (times) => Math.min(200 * times, 2000),
    });
    client.on('error', (e: Error) => (this.lastError = e));
    client.on('ready', () => (this.lastError = undefined));
    return client;
  }

  private ready(client: Redis): Promise<void> {
    if (client.status !== 'connecting' && client.status !== 'connect' && client.status !== 'wait') {
      return Promise.reject(this.lastError ?? new Error(`the connection is ${client.status}`));
    }
    return new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => {
        clearTimeout(timer);
        client.off('ready', onReady);
        client.off('error', onError);
        if (err) reject(err);
        else resolve();
      };
      const onReady = () => done();
      const onError = (e: Error) => done(e);
      const timer = setTimeout(() => done(new Error(`no connection within ${this.timeoutMs} ms`)), this.timeoutMs);
      client.on('ready', onReady);
      client.on('error', onError);
    });
  }
}
