import type { TriggerDefinition } from './kinds';
import type { RecipeRow } from './user-recipes';

/** One new item a polled trigger found (a file in a folder, a row, a bill): it starts one job. */
export interface PolledEvent {
  /** unique among this trigger's items for one recipe (e.g. the Drive file id): a key runs once, ever */
  key: string;
  /** the run's trigger data (the payload's `data`) */
  data: Record<string, unknown>;
  /** a short line for the job list ('New file "invoice.pdf" in Google Drive') */
  summary: string;
}

/** What a poll is given: the recipe (its owner, its settings) and where the last poll stopped. */
export interface PollContext {
  recipe: RecipeRow;
  /** the stored cursor, as the trigger last returned it */
  cursor: string;
  signal: AbortSignal;
  log: { info(msg: string): void; warn(msg: string): void };
}

/**
 * A trigger the engine polls for the recipes that use it while they run: a contribution to
 * `AutomationTriggers` with `poll` (and `intervalMs`). The engine keeps the cursor per recipe,
 * stores each new item's key in the same transaction as the cursor, and starts one job per item
 * exactly once (a restart, a retried poll or two servers never run an item twice).
 *
 * `activate` runs when the recipe starts without a cursor (its first start): it prepares what the
 * trigger watches (e.g. creates the recipe's Drive folder) and returns the first cursor, so only
 * items that arrive after the start run by themselves, and the items already there (`present`:
 * the files already in the folder). The engine never runs those unasked: it holds them as waiting
 * ('already there') and the user processes or skips them, as it does with items that arrive while
 * the recipe is stopped. A poll that starts watching something else (another folder chosen)
 * returns what is already there the same way. A thrown error is shown as the trigger's state and
 * the poll is tried again at the next interval; nothing crashes.
 */
export interface PolledTriggerDefinition extends TriggerDefinition {
  /** how often to poll, ms (read at every tick, so it may come from configuration known at start) */
  intervalMs(): number;
  activate(recipe: RecipeRow, ctx: { signal: AbortSignal }): Promise<{ cursor: string; present?: PolledEvent[] }>;
  poll(ctx: PollContext): Promise<{ events: PolledEvent[]; cursor: string; present?: PolledEvent[] }>;
}

/** True for a contributed trigger the engine polls. */
export function isPolledTrigger(t: TriggerDefinition | undefined): t is PolledTriggerDefinition {
  const p = t as Partial<PolledTriggerDefinition> | undefined;
  return !!p && typeof p.poll === 'function' && typeof p.activate === 'function' && typeof p.intervalMs === 'function';
}
