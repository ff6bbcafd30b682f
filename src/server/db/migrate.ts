import { sql, type Kysely } from 'kysely';

export interface Migration {
  /** Unique, ordered id: the auth module's first ones '0001_users' (older than prefixes); others '<module-or-plugin-id>/0001_name'. */
  id: string;
  up(db: Kysely<any>): Promise<void>;
}

/**
 * Applies migrations not yet recorded in schema_migrations, each in its own transaction, in
 * the order given. An advisory lock, held from the first statement to the last, keeps processes
 * that start together from migrating at once: one applies them, the others wait and find them done
 * (PGlite takes the same lock, alone).
 */
export async function migrate(db: Kysely<any>, migrations: Migration[]): Promise<string[]> {
  const seen = new Set<string>();
  for (const m of migrations) {
    if (seen.has(m.id)) throw new Error(`Migration "${m.id}" is defined twice`);
    seen.add(m.id);
  }
  const applied: string[] = [];
  await db.connection().execute(async (conn) => {
    // the lock comes first: even "create table if not exists" fails in one of two processes
    // that run it at the same moment on an empty schema (a duplicate pg_type row)
    await sql`select pg_advisory_lock(727001)`.execute(conn);
    try {
      await sql`create table if not exists schema_migrations (
        id text primary key,
        applied_at timestamptz not null default now()
      )`.execute(conn);
      const done = new Set((await conn.selectFrom('schema_migrations').select('id').execute()).map((r: { id: string }) => r.id));
      for (const m of migrations) {
        if (done.has(m.id)) continue;
        await conn.transaction().execute(async (trx) => {
          await m.up(trx);
          await trx.insertInto('schema_migrations').values({ id: m.id }).execute();
        });
        applied.push(m.id);
      }
    } finally {
      await sql`select pg_advisory_unlock(727001)`.execute(conn);
    }
  });
  return applied;
}

/** Which of the given migration ids are recorded as applied (the ready check asks this). */
export async function appliedMigrations(db: Kysely<any>, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  return (await db.selectFrom('schema_migrations').select('id').where('id', 'in', ids).execute()).map((r: { id: string }) => r.id);
}
