import { existsSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, sql, type PostgresPool } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { PGlitePool } from './pglite-pool';
import { secureDirectory, usePrivateUmask } from './file-modes';
import { TableChangeFeed, attachChangeFeed } from './change-feed';
import type { Database } from './schema';

export type Db = Kysely<Database>;

export interface DatabaseOptions {
  /** postgres:// URL; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** Folder for the embedded database; 'memory://' for an in-memory one (tests). */
  dataDir?: string;
  /**
   * For a new embedded database only (in memory, or a folder that holds none yet): a dump of an
   * initialised, empty cluster (PGlite's dumpDataDir) to start from instead of running initdb,
   * 1 to 2 s instead of 3 to 5 (the tests); an existing database ignores it.
   */
  template?: Blob;
  /** Told of a connection the server lost (PostgreSQL restarted, a backend terminated); default: one line on stderr. */
  onConnectionError?: (e: Error) => void;
}

function logConnectionError(e: Error): void {
  process.stderr.write(`${JSON.stringify({ level: 50, time: Date.now(), msg: `Database connection lost (${e.message}); the next query opens a new one` })}\n`);
}

/** Opens Kysely over PostgreSQL (DATABASE_URL) or the embedded PGlite database. */
export async function openDatabase(opts: DatabaseOptions): Promise<Db> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10, connectionTimeoutMillis: 10_000 });
    // A terminated connection (database restart, pg_terminate_backend, a network cut) emits
    // 'error' on its client, and on the pool when it was idle: unheard, either ends the process.
    // The pool drops such a client, so the next query simply connects again.
    const onError = opts.onConnectionError ?? logConnectionError;
    pool.on('connect', (client) => client.on('error', onError));
    pool.on('error', () => undefined); // an idle client's error, already told by its own listener
    const feed = new TableChangeFeed();
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: feed.watch(pool as unknown as PostgresPool) }) });
    attachChangeFeed(db, feed);
    await sql`select 1`.execute(db);
    return db;
  }
  let location = 'memory://';
  if (opts.dataDir && opts.dataDir !== 'memory://') {
    location = path.join(opts.dataDir, 'pgdata');
    // the data files and WAL hold password hashes: owner only, whatever an older version left
    usePrivateUmask();
    secureDirectory(opts.dataDir);
  }
  const fresh = location === 'memory://' || !existsSync(location);
  const pglite = await PGlite.create(location, fresh && opts.template ? { loadDataDir: opts.template } : {});
  const pool = new PGlitePool(pglite);
  if (location !== 'memory://') {
    // PGlite's file system sets 0666 on its files whatever the umask: take group and world
    // access away after start and at close (the 0700 folders already keep others out meanwhile)
    secureDirectory(location);
    const end = pool.end.bind(pool);
    pool.end = async () => {
      await end();
      secureDirectory(location);
    };
  }
  const feed = new TableChangeFeed();
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: feed.watch(pool) }) });
  attachChangeFeed(db, feed);
  return db;
}
