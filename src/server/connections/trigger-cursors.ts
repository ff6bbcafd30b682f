import { sql } from 'kysely';
import { token } from '../../core/di';
import type { Db } from '../db/database';
import type { Migration } from '../db/migrate';
import './schema';

/** Where a polled trigger stands for one recipe: its cursor ('' = not activated yet), its last look and why that failed. */
export interface TriggerCursorState {
  cursor: string;
  lastPolledAt: Date | null;
  lastError: string | null;
}

/**
 * The connections module's `connector_cursors` table, the only way in: where a polling trigger
 * stopped (the newest Drive file seen) per recipe and trigger, when it last looked and why its
 * last look failed. The trigger driver (src/server/automation/polling.ts) reads and writes it
 * through here; `db` may be a transaction, so a cursor moves together with the items it found.
 */
export class TriggerCursors {
  constructor(private readonly db: Db) {}

  /** The stored cursor, undefined when the trigger never looked ('' when it looked but was never activated). */
  async cursorOf(recipeId: number, trigger: string, db: Db = this.db): Promise<string | undefined> {
    const row = await db.selectFrom('connector_cursors').select('cursor').where('recipe_id', '=', recipeId).where('trigger', '=', trigger).executeTakeFirst();
    return row?.cursor;
  }

  /** The cursor with the last look's time and error, undefined when the trigger never looked. */
  async stateOf(recipeId: number, trigger: string): Promise<TriggerCursorState | undefined> {
    const row = await this.db
      .selectFrom('connector_cursors')
      .select(['cursor', 'last_polled_at', 'last_error'])
      .where('recipe_id', '=', recipeId)
      .where('trigger', '=', trigger)
      .executeTakeFirst();
    if (!row) return undefined;
    return { cursor: row.cursor, lastPolledAt: row.last_polled_at ? new Date(row.last_polled_at) : null, lastError: row.last_error ?? null };
  }

  /**
   * Records a look at `at`: with a cursor, moves it there; without one (a look that failed), keeps
   * the stored cursor ('' when there is none yet, which marks "not activated"). `error` is why the
   * look failed, null when it worked.
   */
  async record(recipeId: number, trigger: string, look: { at: Date; cursor?: string; error: string | null }, db: Db = this.db): Promise<void> {
    const { at, cursor, error } = look;
    if (cursor !== undefined) {
      await db
        .insertInto('connector_cursors')
        .values({ recipe_id: recipeId, trigger, cursor, updated_at: at, last_polled_at: at, last_error: error })
        .onConflict((oc) => oc.columns(['recipe_id', 'trigger']).doUpdateSet({ cursor, updated_at: at, last_polled_at: at, last_error: error }))
        .execute();
      return;
    }
    await db
      .insertInto('connector_cursors')
      .values({ recipe_id: recipeId, trigger, cursor: '', updated_at: at, last_polled_at: at, last_error: error })
      .onConflict((oc) => oc.columns(['recipe_id', 'trigger']).doUpdateSet({ last_polled_at: at, last_error: error }))
      .execute();
  }
}

/** The trigger cursors service (provided by the connections module). */
export const TriggerCursorStore = token<TriggerCursors>('TriggerCursors');

/**
 * The cursor's state columns, owned here. Databases made before this migration got them from
 * 'automation-polling/0001_trigger_events' (which no longer touches this table), hence `if not exists`.
 */
export const triggerCursorMigration: Migration = {
  id: 'connections/0003_trigger_cursor_state',
  async up(db) {
    await sql`alter table connector_cursors add column if not exists last_polled_at timestamptz`.execute(db);
    await sql`alter table connector_cursors add column if not exists last_error text`.execute(db);
  },
};
