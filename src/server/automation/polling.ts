import { sql } from 'kysely';
import type { Subscription } from 'rxjs';
import { token } from '../../core/di';
import type { ContributionRegistry } from '../../core/contributions';
import type { Db } from '../db/database';
import type { Migration } from '../db/migrate';
import type { JobQueue } from '../queue/job-queue';
import { HttpError } from '../http/errors';
import { defineServerPlugin } from '../plugin';
import { provide } from '../../core/plugin';
import * as T from '../tokens';
import { Automation, InboundMail } from './index';
import type { InboundMailState } from './inbound-mail';
import { userOf } from '../auth/guard';
import { forbidden } from '../http/errors';
import { parseId } from '../http/ids';
import type { AutomationEngine } from './engine';
import { RunRefusedError } from './engine';
import { AutomationTriggers, stepKey, type TriggerPayload } from './kinds';
import { isPolledTrigger, type PolledEvent, type PolledTriggerDefinition } from './polled-triggers';
import { WEBHOOK_TRIGGER_STEP } from './plan';
import type { RecipeRow } from './user-recipes';
import { SetupPreparations } from './setup-preparations';
import { Connections } from '../connections';
import { TriggerCursors, TriggerCursorStore } from '../connections/trigger-cursors';
import type { ConnectionService } from '../connections/connection-service';
import type { ConnectionCheck } from './engine';

/** The queue job that finds the running recipes of one polled trigger, once per interval. */
export const POLL_TICK_JOB = 'automation.poll-tick';
/** The queue job that polls one recipe's trigger. */
export const POLL_RECIPE_JOB = 'automation.poll';

/** How long a claimed item may take to become a job before another poll may take it. */
const CLAIM_MS = 5 * 60_000;
/** Time limit of one poll or activation (its provider calls have their own, shorter ones). */
const POLL_TIMEOUT_MS = 2 * 60_000;

declare module '../db/schema' {
  interface Database {
    automation_trigger_events: TriggerEventsTable;
    automation_trigger_pauses: TriggerPausesTable;
  }
}

/** An item's hold: null runs it; 'waiting' waits for the user to process or skip it; 'skipped' never runs. */
export type TriggerEventHold = 'waiting' | 'skipped' | null;

/**
 * Why an item waits for the user: it arrived while the recipe was stopped, or it was already
 * there when the trigger started watching (the files in the folder at the first Start, or in a
 * folder chosen later). Neither kind runs before the user presses Start and chooses Process.
 */
export type WaitReason = 'arrived_while_stopped' | 'already_there';

/** A polled trigger of a recipe stopped after it watched: the first look after the next start holds what it finds. */
export interface TriggerPausesTable {
  recipe_id: number;
  trigger: string;
  stopped_at: Date | undefined;
}

/** An item a polled trigger found for a recipe; `job_id` once its job exists. */
export interface TriggerEventsTable {
  recipe_id: number;
  trigger: string;
  event_key: string;
  data: unknown;
  summary: string;
  job_id: string | null;
  claimed_until: Date | null;
  created_at: Date | undefined;
  hold: TriggerEventHold | undefined;
  /** why a waiting item waits (null on rows held before this was kept: they arrived while stopped) */
  held_because: WaitReason | null | undefined;
}

export const pollingMigrations: Migration[] = [
  {
    id: 'automation-polling/0001_trigger_events',
    async up(db) {
      await sql`create table automation_trigger_events (
        recipe_id integer not null references user_recipes(id) on delete cascade,
        trigger text not null,
        event_key text not null,
        data jsonb not null,
        summary text not null,
        job_id uuid,
        claimed_until timestamptz,
        created_at timestamptz not null default now(),
        primary key (recipe_id, trigger, event_key)
      )`.execute(db);
      await sql`create index automation_trigger_events_pending_idx on automation_trigger_events (recipe_id, trigger) where job_id is null`.execute(db);
      // the trigger's state beside its cursor (when it last looked, why it could not) is the connections
      // module's: connections/0003_trigger_cursor_state
    },
  },
  {
    // items that arrive while a recipe is stopped wait for the user's choice (process or skip) instead of being lost
    id: 'automation-polling/0002_waiting_items',
    async up(db) {
      await sql`alter table automation_trigger_events add column hold text check (hold in ('waiting', 'skipped'))`.execute(db);
      await sql`create table automation_trigger_pauses (
        recipe_id integer not null references user_recipes(id) on delete cascade,
        trigger text not null,
        stopped_at timestamptz not null default now(),
        primary key (recipe_id, trigger)
      )`.execute(db);
    },
  },
  {
    // the items already there when the trigger starts watching wait too, and the screen says which is which
    id: 'automation-polling/0003_already_there',
    async up(db) {
      await sql`alter table automation_trigger_events add column held_because text check (held_because in ('arrived_while_stopped', 'already_there'))`.execute(
        db,
      );
    },
  },
];

/** A polled trigger's state for one recipe, as the setup screen shows it. */
export interface TriggerState {
  trigger: string;
  name: string;
  /** the recipe runs and its trigger has been activated */
  watching: boolean;
  last_polled_at: string | null;
  /** why the last poll failed (e.g. 'Google Drive is not connected…'), null when it worked */
  last_error: string | null;
  /** items seen so far / items whose job exists */
  items: number;
  /** items waiting for the user to process or skip them (arrived while stopped, or already there at the first Start) */
  waiting: number;
  interval_ms: number;
}

/** An item waiting for the user's choice (GET /api/automation/recipes/:id/waiting). */
export interface WaitingItem {
  key: string;
  /** the item's name when it has one (a Drive file's name) */
  name: string | null;
  summary: string;
  seen_at: string;
  /** it arrived while the recipe was stopped, or it was already there when the trigger started watching */
  why: WaitReason;
}

export interface PollerDeps {
  db: Db;
  /** the connections module's trigger cursors (default: over `db`) */
  cursors?: TriggerCursors;
  registry: ContributionRegistry;
  queue: JobQueue;
  engine: Pick<AutomationEngine, 'run' | 'recipes'>;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  now?: () => number;
}

/** Queue job ids may not contain ':' (BullMQ): 'google_drive:new_file_in_folder' → 'google_drive.new_file_in_folder'. */
const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '.');

function message(e: unknown): string {
  return e instanceof Error ? e.message || e.name : String(e);
}

/**
 * Drives the polled triggers (see PolledTriggerDefinition) for running recipes, on the job queue
 * so it works the same on the database queue and on BullMQ and survives restarts:
 *  - one tick chain per polled trigger: 'automation.poll-tick' jobs keyed by the interval slot
 *    (tick N queues tick N+1 delayed to the next slot boundary, then one poll per running recipe
 *    keyed by recipe and slot). Keys make every schedule idempotent: a restart, a second server or
 *    a late tick never doubles a chain or a poll;
 *  - a recipe's start queues an immediate poll, which activates the trigger (no cursor yet);
 *  - a poll stores the new cursor and the new items in one transaction; each stored item is then
 *    claimed (a lease) and becomes one job, its key kept in the job's trigger data, so an item
 *    whose job was created just before a crash is recognised and never run twice.
 */
export class TriggerPoller {
  private readonly now: () => number;
  private readonly cursors: TriggerCursors;
  private subscriptions: Subscription[] = [];

  constructor(private readonly deps: PollerDeps) {
    this.now = deps.now ?? Date.now;
    this.cursors = deps.cursors ?? new TriggerCursors(deps.db);
  }

  /** The database the poller keeps its items in. */
  get db(): Db {
    return this.deps.db;
  }

  /** The contributed polled triggers, by key ('google_drive:new_file_in_folder'). */
  triggers(): Map<string, PolledTriggerDefinition> {
    const out = new Map<string, PolledTriggerDefinition>();
    const registry = this.deps.registry.of(AutomationTriggers);
    for (const key of registry.keys()) {
      const t = registry.get(key);
      if (isPolledTrigger(t)) out.set(key, t);
    }
    return out;
  }

  /** The polled trigger of a recipe, if its trigger is one. */
  triggerOf(recipe: RecipeRow): { key: string; definition: PolledTriggerDefinition } | undefined {
    const step = recipe.template.steps.find((s) => s.kind === 'trigger') ?? WEBHOOK_TRIGGER_STEP;
    const key = stepKey(step);
    const definition = this.triggers().get(key);
    return definition ? { key, definition } : undefined;
  }

  private interval(definition: PolledTriggerDefinition): number {
    return Math.max(1000, Math.floor(definition.intervalMs()));
  }

  /** Starts every tick chain (idempotent) and follows recipe starts and stops. */
  async start(events: { on(type: 'recipe/started' | 'recipe/stopped'): { subscribe(fn: (e: { recipeId: number }) => void): Subscription } }): Promise<void> {
    for (const [key, definition] of this.triggers()) {
      const interval = this.interval(definition);
      await this.scheduleTick(key, Math.floor(this.now() / interval), 0);
    }
    this.subscriptions.push(
      events.on('recipe/started').subscribe(({ recipeId }) => {
        this.recipeStarted(recipeId).catch((e) => this.deps.log.error({ err: e, recipeId }, 'Could not schedule the trigger of a started recipe'));
      }),
      events.on('recipe/stopped').subscribe(({ recipeId }) => {
        this.recipeStopped(recipeId).catch((e) => this.deps.log.error({ err: e, recipeId }, 'Could not reset the trigger of a stopped recipe'));
      }),
    );
  }

  stop(): void {
    for (const s of this.subscriptions.splice(0)) s.unsubscribe();
  }

  private async scheduleTick(trigger: string, slot: number, delayMs: number): Promise<void> {
    await this.deps.queue.add(POLL_TICK_JOB, { trigger }, { jobId: `tick.${safe(trigger)}.${slot}`, delayMs, attempts: 3, backoffMs: 1000 });
  }

  /** A recipe started: poll it now (which activates its trigger) and make sure its chain runs. */
  async recipeStarted(recipeId: number): Promise<void> {
    const recipe = await this.deps.engine.recipes.byId(recipeId);
    const trigger = recipe && this.triggerOf(recipe);
    if (!trigger) return;
    await this.deps.queue.add(
      POLL_RECIPE_JOB,
      { recipeId, trigger: trigger.key },
      { jobId: `poll.${recipeId}.${safe(trigger.key)}.start${this.now()}`, attempts: 1 },
    );
    await this.scheduleTick(trigger.key, Math.floor(this.now() / this.interval(trigger.definition)), 0);
  }

  /**
   * A recipe stopped: its cursor stays and the stop is noted, so the first look after the next
   * start finds what arrived meanwhile and holds it as waiting (the user processes or skips it)
   * instead of running it unasked or losing it. A trigger never activated has nothing to keep.
   */
  async recipeStopped(recipeId: number): Promise<void> {
    const recipe = await this.deps.engine.recipes.byId(recipeId);
    const trigger = recipe && this.triggerOf(recipe);
    if (!trigger) return;
    if (!(await this.cursors.cursorOf(recipeId, trigger.key))) return;
    await this.deps.db
      .insertInto('automation_trigger_pauses')
      .values({ recipe_id: recipeId, trigger: trigger.key, stopped_at: new Date(this.now()) })
      .onConflict((oc) => oc.columns(['recipe_id', 'trigger']).doNothing())
      .execute();
  }

  /** One tick of a trigger's chain: queue the next tick, then one poll per running recipe. */
  async tick(data: { trigger: string }): Promise<{ recipes: number }> {
    const definition = this.triggers().get(data.trigger);
    if (!definition) return { recipes: 0 };
    const interval = this.interval(definition);
    const now = this.now();
    const slot = Math.floor(now / interval);
    await this.scheduleTick(data.trigger, slot + 1, (slot + 1) * interval - now);
    const [provider, action] = [data.trigger.slice(0, data.trigger.indexOf(':')), data.trigger.slice(data.trigger.indexOf(':') + 1)];
    const ids = await this.deps.engine.recipes.runningWithTrigger(provider, action);
    for (const id of ids) {
      await this.deps.queue.add(POLL_RECIPE_JOB, { recipeId: id, trigger: data.trigger }, { jobId: `poll.${id}.${safe(data.trigger)}.${slot}`, attempts: 1 });
    }
    return { recipes: ids.length };
  }

  private async recordState(recipeId: number, trigger: string, values: { cursor?: string; error: string | null }): Promise<void> {
    // an error before any cursor keeps the row's cursor (none: '' marks "not activated yet")
    await this.cursors.record(recipeId, trigger, { at: new Date(this.now()), ...values });
  }

  /**
   * Polls one recipe's trigger: activates it when it has no cursor yet, else asks for the items
   * after the cursor and stores them with the new cursor in one transaction; then turns every
   * stored item without a job into one. A failure (a lost connection, a provider error) is kept
   * as the trigger's state and logged; the next tick tries again.
   */
  async pollRecipe(data: {
    recipeId: number;
    trigger: string;
  }): Promise<{ outcome: 'stopped' | 'activated' | 'polled' | 'failed'; found: number; started: number; error?: string }> {
    const recipe = await this.deps.engine.recipes.byId(data.recipeId);
    const trigger = recipe && this.triggerOf(recipe);
    if (!recipe || !recipe.running || !trigger || trigger.key !== data.trigger) return { outcome: 'stopped', found: 0, started: 0 };
    const cursor = await this.cursors.cursorOf(recipe.id, trigger.key);
    const signal = AbortSignal.timeout(POLL_TIMEOUT_MS);
    const log = {
      info: (msg: string) => this.deps.log.info({ recipeId: recipe.id, trigger: trigger.key }, msg),
      warn: (msg: string) => this.deps.log.warn({ recipeId: recipe.id, trigger: trigger.key }, msg),
    };
    let found = 0;
    try {
      if (!cursor) {
        // the first cursor, and what is already there: held for the user, never run unasked
        const lookedAt = new Date(this.now());
        const { cursor, present = [] } = await trigger.definition.activate(recipe, { signal });
        found = await this.store(recipe.id, trigger.key, [], cursor, lookedAt, present);
        await this.deps.db.deleteFrom('automation_trigger_pauses').where('recipe_id', '=', recipe.id).where('trigger', '=', trigger.key).execute();
        log.info(`${trigger.definition.name}: watching from now on${found ? `; ${found} items already there wait for the user's choice` : ''}`);
        return { outcome: 'activated', found, started: 0 };
      }
      const lookedAt = new Date(this.now());
      const result = await trigger.definition.poll({ recipe, cursor, signal, log });
      found = await this.store(recipe.id, trigger.key, result.events, result.cursor, lookedAt, result.present ?? []);
    } catch (e) {
      const error = message(e).slice(0, 500);
      await this.recordState(recipe.id, trigger.key, { error });
      log.warn(`${trigger.definition.name} could not look for new items: ${error}`);
      return { outcome: 'failed', found: 0, started: 0, error };
    }
    const started = await this.dispatch(recipe, trigger.key);
    return { outcome: 'polled', found, started };
  }

  /**
   * The new cursor and the new items, in one transaction; an item seen before is not stored again.
   * The first look begun after a stop (its pause row, taken first, so concurrent looks agree; a
   * look begun before the stop leaves it) holds what it finds as waiting. The items already there
   * when the trigger starts watching (`present`) always wait, before the new ones. Items keep the
   * order the trigger gave them.
   */
  private async store(recipeId: number, trigger: string, events: PolledEvent[], cursor: string, lookedAt: Date, present: PolledEvent[] = []): Promise<number> {
    const at = new Date(this.now());
    return this.deps.db.transaction().execute(async (trx) => {
      const paused = await trx
        .deleteFrom('automation_trigger_pauses')
        .where('recipe_id', '=', recipeId)
        .where('trigger', '=', trigger)
        .where('stopped_at', '<=', lookedAt)
        .returning('recipe_id')
        .executeTakeFirst();
      const items = [
        ...present.map((e) => ({ e, hold: 'waiting' as const, why: 'already_there' as const })),
        ...events.map((e) => ({ e, hold: paused ? ('waiting' as const) : null, why: paused ? ('arrived_while_stopped' as const) : null })),
      ];
      let inserted = 0;
      for (const [i, { e, hold, why }] of items.entries()) {
        const res = await trx
          .insertInto('automation_trigger_events')
          .values({
            recipe_id: recipeId,
            trigger,
            event_key: e.key.slice(0, 500),
            data: JSON.stringify(e.data),
            summary: e.summary.slice(0, 200),
            job_id: null,
            claimed_until: null,
            hold,
            held_because: why,
            created_at: new Date(at.getTime() + i),
          })
          .onConflict((oc) => oc.columns(['recipe_id', 'trigger', 'event_key']).doNothing())
          .returning('event_key')
          .executeTakeFirst();
        if (res) inserted += 1;
      }
      await this.cursors.record(recipeId, trigger, { at, cursor, error: null }, trx);
      return inserted;
    });
  }

  /** Turns the recipe's stored items without a job into jobs, oldest first, each once. */
  private async dispatch(recipe: RecipeRow, trigger: string): Promise<number> {
    const until = new Date(this.now() + CLAIM_MS);
    const claimed = await this.deps.db
      .updateTable('automation_trigger_events')
      .set({ claimed_until: until })
      .where('recipe_id', '=', recipe.id)
      .where('trigger', '=', trigger)
      .where('job_id', 'is', null)
      .where('hold', 'is', null)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', new Date(this.now()))]))
      .returning(['event_key', 'data', 'summary', 'created_at'])
      .execute();
    claimed.sort((a, b) => new Date(a.created_at!).getTime() - new Date(b.created_at!).getTime() || a.event_key.localeCompare(b.event_key));
    let started = 0;
    for (const item of claimed) {
      const done = (jobId: string) =>
        this.deps.db
          .updateTable('automation_trigger_events')
          .set({ job_id: jobId, claimed_until: null })
          .where('recipe_id', '=', recipe.id)
          .where('trigger', '=', trigger)
          .where('event_key', '=', item.event_key)
          .execute();
      // a job made for this item before a crash (its key is in the trigger data) is the item's job
      const { rows } = await sql<{ id: string }>`select id from automation_jobs
        where recipe_id = ${recipe.id} and trigger_payload->'data'->>'trigger_event' = ${item.event_key} limit 1`.execute(this.deps.db);
      if (rows[0]) {
        await done(rows[0].id);
        continue;
      }
      const data = (typeof item.data === 'string' ? JSON.parse(item.data) : item.data) as Record<string, unknown>;
      const payload: TriggerPayload = { source: 'poll', data: { ...data, trigger_event: item.event_key }, files: [] };
      try {
        const { jobId } = await this.deps.engine.run(recipe, payload, { summaryPrefix: `${item.summary} · ` });
        await done(jobId);
        started += 1;
      } catch (e) {
        if (e instanceof RunRefusedError) {
          // the job exists (failed, naming the missing step): that is this item's job
          await done(e.jobId);
          continue;
        }
        await this.deps.db
          .updateTable('automation_trigger_events')
          .set({ claimed_until: null })
          .where('recipe_id', '=', recipe.id)
          .where('trigger', '=', trigger)
          .where('event_key', '=', item.event_key)
          .execute();
        const error = message(e);
        await this.recordState(recipe.id, trigger, { error: `A new item could not start its job: ${error}` });
        this.deps.log.error({ err: e, recipeId: recipe.id, trigger }, 'A polled item could not start its job; the next poll tries again');
        if (!(e instanceof HttpError)) break;
      }
    }
    return started;
  }

  /** The trigger's state for a recipe by id (undefined when there is none or its trigger is not polled). */
  async stateById(recipeId: number): Promise<TriggerState | undefined> {
    const recipe = await this.deps.engine.recipes.byId(recipeId);
    return recipe && this.state(recipe);
  }

  /** What a running recipe's trigger watches changed (another folder): poll it now. */
  async pollSoon(recipeId: number): Promise<void> {
    const recipe = await this.deps.engine.recipes.byId(recipeId);
    const trigger = recipe?.running ? this.triggerOf(recipe) : undefined;
    if (!trigger) return;
    await this.deps.queue.add(
      POLL_RECIPE_JOB,
      { recipeId, trigger: trigger.key },
      { jobId: `poll.${recipeId}.${safe(trigger.key)}.soon${this.now()}`, attempts: 1 },
    );
  }

  /** The trigger's state for a recipe (undefined when its trigger is not polled). */
  async state(recipe: RecipeRow): Promise<TriggerState | undefined> {
    const trigger = this.triggerOf(recipe);
    if (!trigger) return undefined;
    const row = await this.cursors.stateOf(recipe.id, trigger.key);
    const count = await this.deps.db
      .selectFrom('automation_trigger_events')
      .select((eb) => [eb.fn.countAll<string>().as('n'), sql<string>`count(*) filter (where hold = 'waiting')`.as('waiting')])
      .where('recipe_id', '=', recipe.id)
      .where('trigger', '=', trigger.key)
      .executeTakeFirstOrThrow();
    return {
      trigger: trigger.key,
      name: trigger.definition.name,
      watching: recipe.running && !!row?.cursor,
      last_polled_at: row?.lastPolledAt ? row.lastPolledAt.toISOString() : null,
      last_error: row?.lastError ?? null,
      items: Number(count.n),
      waiting: Number(count.waiting),
      interval_ms: this.interval(trigger.definition),
    };
  }

  /** The items that wait for the user's choice (arrived while stopped, or already there), oldest first. */
  async waiting(recipe: RecipeRow): Promise<{ trigger: string | null; items: WaitingItem[] }> {
    const trigger = this.triggerOf(recipe);
    if (!trigger) return { trigger: null, items: [] };
    const rows = await this.deps.db
      .selectFrom('automation_trigger_events')
      .select(['event_key', 'data', 'summary', 'created_at', 'held_because'])
      .where('recipe_id', '=', recipe.id)
      .where('trigger', '=', trigger.key)
      .where('hold', '=', 'waiting')
      .orderBy('created_at')
      .orderBy('event_key')
      .execute();
    return {
      trigger: trigger.key,
      items: rows.map((r) => {
        const data = (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown> | null;
        return {
          key: r.event_key,
          name: typeof data?.name === 'string' ? data.name : null,
          summary: r.summary,
          seen_at: new Date(r.created_at!).toISOString(),
          why: r.held_because ?? 'arrived_while_stopped',
        };
      }),
    };
  }

  /**
   * The user's choice for the waiting items: 'process' turns them into jobs now, oldest first
   * (the recipe must run: 409 otherwise); 'skip' marks them never to run. Returns how many.
   */
  async release(recipe: RecipeRow, choice: 'process' | 'skip'): Promise<{ count: number; started: number }> {
    const trigger = this.triggerOf(recipe);
    if (!trigger) return { count: 0, started: 0 };
    if (choice === 'process' && !recipe.running) throw new HttpError(409, 'This workflow is stopped: start it, then process the waiting files.');
    const released = await this.deps.db
      .updateTable('automation_trigger_events')
      .set({ hold: choice === 'process' ? null : 'skipped' })
      .where('recipe_id', '=', recipe.id)
      .where('trigger', '=', trigger.key)
      .where('hold', '=', 'waiting')
      .executeTakeFirst();
    const count = Number(released.numUpdatedRows);
    const started = choice === 'process' && count ? await this.dispatch(recipe, trigger.key) : 0;
    this.deps.log.info(
      { recipeId: recipe.id, trigger: trigger.key, count, started },
      choice === 'process' ? 'Waiting items processed' : 'Waiting items skipped',
    );
    return { count, started };
  }
}

/**
 * The engine's start check over the Connections service: a step provider needs an account when
 * it is a connectable provider on this server or its declared connector says it needs one (a
 * provider not configured here can never be connected, so it is always missing).
 */
export function connectionCheckOf(
  connections: Pick<ConnectionService, 'providers' | 'list'> & Partial<Pick<ConnectionService, 'declarations'>>,
): ConnectionCheck {
  return async (managedUserId, providers) => {
    const connectable = new Map(connections.providers().map((p) => [p.provider, p.name]));
    // a connector a plugin declares says itself whether it needs an account, offered here or not
    const declared = new Map((connections.declarations?.() ?? []).map((d) => [d.id, { name: d.name, needsAuthorisation: d.auth.kind !== 'none' }]));
    const needed = providers.filter((p) => connectable.has(p) || declared.get(p)?.needsAuthorisation);
    if (!needed.length) return [];
    const list = await connections.list(managedUserId);
    return needed
      .filter((p) => !list.some((c) => c.provider === p && c.authorization_status === 'success'))
      .map((p) => ({ provider: p, name: connectable.get(p) ?? declared.get(p)?.name ?? p }));
  };
}

/** Whether a recipe's trigger can hear what it waits for, and why not (spec: shown on the setup screen). */
export interface TriggerHealth {
  trigger: string;
  working: boolean;
  /** why it is not working ('The server cannot receive e-mail: port 2525 is in use.'), null when it works */
  reason: string | null;
}

/**
 * A recipe's trigger health: the e-mail trigger works only while the inbound mail listener
 * listens; a polled trigger of a running recipe is not working while its last look failed (a lost
 * Drive connection); a webhook or upload trigger always listens.
 */
export async function triggerHealth(recipe: RecipeRow, deps: { poller: Pick<TriggerPoller, 'state'>; mail: () => InboundMailState }): Promise<TriggerHealth> {
  const step = recipe.template.steps.find((s) => s.kind === 'trigger') ?? WEBHOOK_TRIGGER_STEP;
  const trigger = stepKey(step);
  if (step.provider === 'manual_email') {
    const mail = deps.mail();
    return mail.listening ? { trigger, working: true, reason: null } : { trigger, working: false, reason: mail.reason };
  }
  const polled = await deps.poller.state(recipe);
  if (polled && recipe.running && polled.last_error) return { trigger, working: false, reason: polled.last_error };
  return { trigger, working: true, reason: null };
}

/** The polled triggers' driver (see TriggerPoller). */
export const TriggerPolling = token<TriggerPoller>('TriggerPoller');

/**
 * The engine's polled triggers as a core module: the items table, the driver service, its two
 * queue jobs, and the tick chains started with the server. It also declares SetupPreparations
 * (what the starter recipe's 'prepare_setup' step runs), and gives the engine its start check
 * (a recipe starts only with every account its steps need connected). Triggers are contributed by plugins
 * (the connectors plugin's Google Drive 'new file in folder'); the engine names none of them.
 */
export const pollingModule = defineServerPlugin({
  id: 'automation-polling',
  migrations: pollingMigrations,
  declares: [SetupPreparations],
  provides: [
    provide(
      TriggerPolling,
      (get) =>
        new TriggerPoller({
          db: get(T.Db),
          cursors: get(TriggerCursorStore),
          registry: get(T.Contributions),
          queue: get(T.JobQueue),
          engine: get(Automation),
          log: get(T.Logger),
        }),
    ),
  ],
  needs: { poller: TriggerPolling, events: T.EventBus, engine: Automation, connections: Connections, inbound: InboundMail },
  routes(app, { poller, engine, inbound }) {
    // GET /api/automation/recipes/:recipeId/trigger-health → { health: TriggerHealth } (the caller's own recipe; 404 otherwise)
    app.get('/api/automation/recipes/:recipeId/trigger-health', { auth: 'user' }, async (request) => {
      const managedUserId = userOf(request).workatoId;
      if (managedUserId === null) throw forbidden('You have no automation workspace yet.');
      const recipe = await engine.ownRecipe(managedUserId, parseId((request.params as { recipeId: string }).recipeId, 'The recipe id'));
      return { health: await triggerHealth(recipe, { poller, mail: () => inbound.state() }) };
    });
    // GET /api/automation/trigger-health → { recipes: [...] }: the trigger health of each of the caller's running
    // recipes, with its combination and workflow (the monitoring dashboard shows the ones that do not work)
    app.get('/api/automation/trigger-health', { auth: 'user' }, async (request) => {
      const managedUserId = userOf(request).workatoId;
      if (managedUserId === null) throw forbidden('You have no automation workspace yet.');
      const rows = await engine.recipes.runningOf(managedUserId);
      const recipes = [];
      for (const r of rows) {
        const recipe = await engine.recipes.byId(r.id);
        if (!recipe) continue;
        const health = await triggerHealth(recipe, { poller, mail: () => inbound.state() });
        recipes.push({ recipe_id: r.id, combination_id: recipe.combinationId, workflow_id: r.workflow_id, combination_name: r.combination_name, ...health });
      }
      return { recipes };
    });
    const ownRecipe = async (request: Parameters<typeof userOf>[0]) => {
      const managedUserId = userOf(request).workatoId;
      if (managedUserId === null) throw forbidden('You have no automation workspace yet.');
      return engine.ownRecipe(managedUserId, parseId((request.params as { recipeId: string }).recipeId, 'The recipe id'));
    };
    // GET /api/automation/recipes/:recipeId/waiting → { trigger, count, items: WaitingItem[] }: what arrived while the recipe
    // was stopped, and what was already there when its trigger started watching (each item says which)
    app.get('/api/automation/recipes/:recipeId/waiting', { auth: 'user' }, async (request) => {
      const { trigger, items } = await poller.waiting(await ownRecipe(request));
      return { trigger, count: items.length, items };
    });
    // POST …/waiting/process → { status, processed, started } (409 while stopped); POST …/waiting/skip → { status, skipped }
    app.post('/api/automation/recipes/:recipeId/waiting/process', { auth: 'user' }, async (request) => {
      const { count, started } = await poller.release(await ownRecipe(request), 'process');
      return { status: 'ok', processed: count, started };
    });
    app.post('/api/automation/recipes/:recipeId/waiting/skip', { auth: 'user' }, async (request) => {
      const { count } = await poller.release(await ownRecipe(request), 'skip');
      return { status: 'ok', skipped: count };
    });
  },
  jobs: {
    [POLL_TICK_JOB]: { concurrency: 1, handler: (data: { trigger: string }, { poller }) => poller.tick(data) },
    [POLL_RECIPE_JOB]: { concurrency: 4, handler: (data: { recipeId: number; trigger: string }, { poller }) => poller.pollRecipe(data) },
  },
  async onStart({ poller, events, engine, connections }) {
    engine.useConnectionCheck(connectionCheckOf(connections));
    await poller.start(events);
  },
  async onStop({ poller }) {
    poller.stop();
  },
});
