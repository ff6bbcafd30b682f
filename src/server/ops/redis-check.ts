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
