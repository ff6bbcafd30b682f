import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { PGlitePool } from './pglite-pool';
import type { Database } from './schema';

export type Db = Kysely<Database>;

export interface DatabaseOptions {
  /** postgres:// URL; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** Folder for the embedded database; 'memory://' for an in-memory one (tests). */
  dataDir?: string;
}

/** Opens Kysely over PostgreSQL (DATABASE_URL) or the embedded PGlite database. */
export async function openDatabase(opts: DatabaseOptions): Promise<Db> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    await sql`select 1`.execute(db);
    return db;
  }
  let location = 'memory://';
  if (opts.dataDir && opts.dataDir !== 'memory://') {
    location = path.join(opts.dataDir, 'pgdata');
    mkdirSync(location, { recursive: true });
  }
  const pglite = await PGlite.create(location);
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: new PGlitePool(pglite) }) });
}
