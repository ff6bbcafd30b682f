import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * Presents an embedded PGlite database as the pool Kysely's PostgresDialect expects.
 * PGlite is a single connection, so connections are handed out one at a time: a transaction
 * holds the connection until it releases it, and other queries wait their turn.
 */
export class PGlitePool implements PostgresPool {
  private tail: Promise<void> = Promise.resolve();
  private ended = false;

  constructor(private readonly db: PGlite) {}

  async connect(): Promise<PostgresPoolClient> {
    if (this.ended) throw new Error('The embedded database is closed');
    let release!: () => void;
    const previous = this.tail;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    const db = this.db;
    let released = false;
    return {
      async query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
        const result = await db.query<R>(sql, parameters as unknown[]);
        const command = (sql.trimStart().split(/\s+/, 1)[0] ?? '').toUpperCase() as PostgresQueryResult<R>['command'];
        const affected = (result as { affectedRows?: number }).affectedRows;
        return {
          command,
          rowCount: command === 'SELECT' || affected === undefined ? result.rows.length : affected,
          rows: result.rows,
        };
      },
      release() {
        if (!released) {
          released = true;
          release();
        }
      },
    } as PostgresPoolClient;
  }

  async end(): Promise<void> {
    this.ended = true;
    await this.tail;
    await this.db.close();
  }
}
