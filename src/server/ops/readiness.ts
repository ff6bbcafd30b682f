import { sql, type Kysely } from 'kysely';
import { appliedMigrations, type Migration } from '../db/migrate';
import type { ReadinessCheck } from './routes';
import { RedisProbe } from './redis-check';

/**
 * What /readyz asks: the database answers, every known migration is recorded, Redis (if
 * configured) answers, over one connection kept for the probes (closed with the app).
 */
export function readinessChecks(opts: { db: Kysely<any>; migrations: Migration[]; redisUrl?: string; timeoutMs?: number }): ReadinessCheck[] {
  const ids = opts.migrations.map((m) => m.id);
  const checks: ReadinessCheck[] = [
    { name: 'database', check: async () => void (await sql`select 1`.execute(opts.db)) },
    {
      name: 'migrations',
      check: async () => {
        const applied = await appliedMigrations(opts.db, ids);
        if (applied.length !== ids.length) throw new Error(`${ids.length - applied.length} migrations not applied`);
      },
    },
  ];
  const redisUrl = opts.redisUrl;
  if (redisUrl) {
    const probe = new RedisProbe(redisUrl, opts.timeoutMs ?? 1500);
    checks.push({ name: 'redis', check: () => probe.ping(), close: () => probe.close() });
  }
  return checks;
}
