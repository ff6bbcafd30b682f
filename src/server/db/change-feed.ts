import { EventEmitter } from 'node:events';
import type { PostgresPool, PostgresPoolClient } from 'kysely';

/** Table names a statement writes to (INSERT INTO / UPDATE / DELETE FROM / MERGE INTO / TRUNCATE). */
export function writtenTables(sqlText: string): string[] {
  const tables = new Set<string>();
  const re = /\b(?:insert\s+into|update|delete\s+from|merge\s+into|truncate(?:\s+table)?)\s+(?:only\s+)?(?:"?\w+"?\.)?"?(\w+)"?/gi;
  for (let m = re.exec(sqlText); m; m = re.exec(sqlText)) tables.add(m[1].toLowerCase());
  return [...tables];
}

/**
 * Tells listeners which tables this process changed, once the change is visible to other
 * connections: right after a statement outside a transaction, or at COMMIT inside one (a
 * ROLLBACK forgets the transaction's writes). Caches subscribe to drop what they hold.
 */
export class TableChangeFeed {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(100);
  }

  /** Tables some listener here watches by name (subscribeTo): the ones worth telling other processes about. */
  private readonly watched = new Set<string>();

  /** Calls `listener` with the changed table names after every committed write; returns an unsubscribe. */
  subscribe(listener: (tables: string[]) => void): () => void {
    this.emitter.on('change', listener);
    return () => this.emitter.off('change', listener);
  }

  /**
   * Calls `listener` after a committed write to one of `tables` (here or, through a bridge, in
   * another process); returns an unsubscribe. The tables count as watched from then on.
   */
  subscribeTo(tables: string[], listener: () => void): () => void {
    const mine = new Set(tables);
    for (const t of mine) this.watched.add(t);
    return this.subscribe((changed) => {
      if (changed.some((t) => mine.has(t))) listener();
    });
  }

  /** The tables of `tables` that some listener watches by name (every server process runs the same code, so the same ones). */
  watchedOf(tables: string[]): string[] {
    return tables.filter((t) => this.watched.has(t));
  }

  /** Announces tables this process changed: to the caches here and to the bridges (Redis). */
  announce(tables: string[]): void {
    if (tables.length === 0) return;
    this.emitter.emit('change', tables);
    this.emitter.emit('local', tables);
  }

  /** Announces tables another process changed (from a bridge): to the caches here only. */
  announceRemote(tables: string[]): void {
    if (tables.length > 0) this.emitter.emit('change', tables);
  }

  /** Calls `listener` with the tables this process changed (to forward them); returns an unsubscribe. */
  subscribeLocal(listener: (tables: string[]) => void): () => void {
    this.emitter.on('local', listener);
    return () => this.emitter.off('local', listener);
  }

  /** Wraps a pool so that every client's statements are watched. */
  watch(pool: PostgresPool): PostgresPool {
    return {
      connect: async () => this.watchClient(await pool.connect()),
      end: () => pool.end(),
    };
  }

  private watchClient(client: PostgresPoolClient): PostgresPoolClient {
    let inTransaction = false;
    let pending = new Set<string>();
    const query = client.query.bind(client) as (sql: string, params: ReadonlyArray<unknown>) => Promise<unknown>;
    const watched = async (sqlText: string, parameters: ReadonlyArray<unknown>) => {
      if (typeof sqlText !== 'string') return query(sqlText, parameters); // a cursor object: reads only
      const head = sqlText.trimStart().slice(0, 20).toLowerCase();
      const result = await query(sqlText, parameters);
      if (head.startsWith('begin') || head.startsWith('start transaction')) {
        inTransaction = true;
        pending = new Set();
      } else if (head.startsWith('commit') || head.startsWith('end')) {
        inTransaction = false;
        this.announce([...pending]);
        pending = new Set();
      } else if (head.startsWith('rollback') && !head.startsWith('rollback to')) {
        inTransaction = false;
        pending = new Set();
      } else if (!head.startsWith('select')) {
        const tables = writtenTables(sqlText);
        if (inTransaction) tables.forEach((t) => pending.add(t));
        else this.announce(tables);
      }
      return result;
    };
    return new Proxy(client, {
      get(target, prop, receiver) {
        if (prop === 'query') return watched;
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }
}

const feeds = new WeakMap<object, TableChangeFeed>();

/** Records the change feed of a database handle (see changeFeedOf). */
export function attachChangeFeed(db: object, feed: TableChangeFeed): void {
  feeds.set(db, feed);
}

/**
 * The change feed of a database opened by openDatabase; undefined for a handle built elsewhere,
 * whose writes cannot be seen (callers must not cache then).
 */
export function changeFeedOf(db: object): TableChangeFeed | undefined {
  return feeds.get(db);
}
