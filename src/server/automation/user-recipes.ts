import { sql } from 'kysely';
import { token } from '../../core/di';
import type { Db } from '../db/database';
import type { WorkspaceOwners } from '../auth/users';
import type { ProviderRecipe, RecipeSetupStatus, UserRecipeRecord } from '../../core/domain';
import { iso } from '../catalogue/store';
import type { RecipeTemplateSeed } from '../catalogue/types';
import type { CombinationFactsService } from '../catalogue/combination-facts';
import { STARTER_TEMPLATE } from './plan';
import type { SetupFacts } from './setup-status';
import './schema';

/** The path of every recipe's webhook; the token after it is the secret. */
export const WEBHOOK_PATH = '/api/automation/webhooks/';

/** A user recipe with what the engine needs to run it. */
export interface RecipeRow {
  id: number;
  managedUserId: number;
  userId: number;
  email: string;
  combinationId: number;
  name: string;
  status: RecipeSetupStatus;
  running: boolean;
  template: RecipeTemplateSeed;
  facts: SetupFacts;
}

/**
 * What a connector stores on a recipe (user_recipes.folder_id / sheet_id: the Drive folder the
 * recipe watches and the Sheet it writes to), with the combination's name (new folders and
 * spreadsheets are named after it) and its recipe template.
 */
export interface RecipeTargets {
  id: number;
  managedUserId: number;
  combinationId: number;
  folderId: string | null;
  sheetId: string | null;
  /** the combination's name (the recipe's own when the combination is gone) */
  combinationName: string;
  /** the combination's recipe template as stored (null when it has none) */
  template: RecipeTemplateSeed | null;
}

/** Which target column: the watched folder or the Sheet. */
export type RecipeTarget = 'folder' | 'sheet';
const TARGET_COLUMN = { folder: 'folder_id', sheet: 'sheet_id' } as const;

/**
 * The part of UserRecipes a plugin may use: a recipe's stored targets, read and written only
 * through here (the user_recipes table has one owner).
 */
export type RecipeTargetService = Pick<UserRecipes, 'targets' | 'targetsOf' | 'storeTargetIfEmpty' | 'setTargets'>;
export const RecipeTargetStore = token<RecipeTargetService>('RecipeTargets');

/** An unguessable token: two random UUIDs' hex digits (244 random bits), made by the database. */
const NEW_TOKEN = sql<string>`replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')`;

/** The columns baseQuery selects (and the engine's claim statement reads alongside a job). */
export interface RecipeColumns {
  id: number;
  managed_user_id: number;
  user_id: number;
  email: string;
  combination_id: number;
  name: string;
  status: RecipeSetupStatus;
  running: boolean;
  recipe: RecipeTemplateSeed | string | null;
  starter_recipe: boolean | null;
  completes_on_start: boolean | null;
  /** the owner's settings of typed steps by step index (JSON; null: none) */
  step_params?: Record<string, Record<string, unknown>> | string | null;
}

/** A recipe's own step settings, by step index as the plan counts them (0 the trigger, then the actions in order). */
export type StepParams = Record<string, Record<string, unknown>>;

/**
 * The template with the owner's own step settings in place of the template's params: the
 * trigger is step 0 and the actions follow in their order, as planRecipe counts them.
 */
export function withStepParams(template: RecipeTemplateSeed, own: StepParams | null | undefined): RecipeTemplateSeed {
  if (!own || !Object.keys(own).length) return template;
  const trigger = template.steps.find((s) => s.kind === 'trigger');
  let action = 0;
  const steps = template.steps.map((s) => {
    const index = s.kind === 'trigger' ? (s === trigger ? 0 : -1) : ++action;
    const params = own[String(index)];
    return params ? { ...s, params } : s;
  });
  return { ...template, steps };
}

/** A recipe row from its columns; the template is the combination's recipe (the starter's own for 0) with the owner's step settings. */
export function recipeRowOf(r: RecipeColumns): RecipeRow {
  const stored = r.combination_id === 0 ? STARTER_TEMPLATE : (r.recipe ?? { name: r.name, description: '', steps: [] });
  const own = typeof r.step_params === 'string' ? (JSON.parse(r.step_params) as StepParams) : r.step_params;
  const template = withStepParams(typeof stored === 'string' ? (JSON.parse(stored) as RecipeTemplateSeed) : stored, own);
  return {
    id: r.id,
    managedUserId: r.managed_user_id,
    userId: r.user_id,
    email: r.email,
    combinationId: r.combination_id,
    name: r.name,
    status: r.status,
    running: r.running,
    template,
    facts: { starterRecipe: Boolean(r.starter_recipe), completesOnStart: Boolean(r.completes_on_start) },
  };
}

/**
 * The user recipe records of spec section 3, as the engine keeps them: one per managed user and
 * enabled combination plus the starter (combination 0), each with its webhook address.
 */
export class UserRecipes {
  private readonly ensured = new Set<number>();

  /**
   * `owners`: the auth module's fragments for a workspace's account (users and managed_users are
   * its tables); `catalogue`: the catalogue's for a combination's facts (combinations is its table).
   */
  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
    private readonly owners: WorkspaceOwners,
    private readonly catalogue: CombinationFactsService,
  ) {}

  /** The webhook address of a token. */
  webhookUrl(token: string): string {
    return `${this.publicUrl}${WEBHOOK_PATH}${token}`;
  }

  /**
   * Creates the records of every managed user (or of one) that lacks some, in one batch insert;
   * existing records are left alone. At start-up this backfills users and combinations a
   * plugin added since; it also gives a webhook to any record without one and rewrites the
   * addresses when PUBLIC_URL changed.
   */
  async backfill(managedUserId?: number): Promise<number> {
    const prefix = `${this.publicUrl}${WEBHOOK_PATH}`;
    const inserted = await sql`
      insert into user_recipes (managed_user_id, combination_id, name, description, status, webhook_token, workato_webhook)
      select x.managed_user_id, x.combination_id, x.name, x.description, 'no started', x.tok, ${prefix} || x.tok
      from (
        select m.id as managed_user_id, t.combination_id, t.name, t.description, ${NEW_TOKEN} as tok
        from ${this.owners.workspaces()} m
        cross join (
          select c.combination_id, c.name, c.description from ${this.catalogue.recipeSeeds()} c
          union all
          select 0, ${STARTER_TEMPLATE.name}, ${STARTER_TEMPLATE.description}
        ) t
        where ${managedUserId === undefined ? sql`true` : sql`m.id = ${managedUserId}`}
      ) x
      on conflict (managed_user_id, combination_id) do nothing`.execute(this.db);
    if (managedUserId === undefined) {
      await sql`update user_recipes set webhook_token = ${NEW_TOKEN} where webhook_token is null`.execute(this.db);
      await sql`update user_recipes set workato_webhook = ${prefix} || webhook_token
        where workato_webhook is distinct from ${prefix} || webhook_token`.execute(this.db);
    }
    return Number(inserted.numAffectedRows ?? 0);
  }

  /**
   * Creates a managed user's records the first time they are read (a user who signed up since
   * the server started); a user who has records already is left as is. Remembered per process.
   */
  async ensureFor(managedUserId: number): Promise<void> {
    if (this.ensured.has(managedUserId)) return;
    const has = await this.db.selectFrom('user_recipes').select('id').where('managed_user_id', '=', managedUserId).limit(1).executeTakeFirst();
    if (!has) await this.backfill(managedUserId);
    this.ensured.add(managedUserId);
  }

  private baseQuery() {
    return this.db.selectFrom('user_recipes as ur').select([
      'ur.id',
      'ur.managed_user_id',
      // every workspace has its account (foreign keys), so these are never null
      this.owners.userIdOf(sql.ref('ur.managed_user_id')).as('user_id'),
      this.owners.emailOf(sql.ref('ur.managed_user_id')).as('email'),
      'ur.combination_id',
      'ur.name',
      'ur.status',
      'ur.running',
      'ur.step_params',
      ...this.combinationColumns(),
    ]);
  }

  /** The combination's recipe and setup facts beside a recipe row (null when it is not in the catalogue). */
  private combinationColumns() {
    const combination = sql.ref<number>('ur.combination_id');
    return [
      this.catalogue.recipeOf(combination).as('recipe'),
      this.catalogue.starterRecipeOf(combination).as('starter_recipe'),
      this.catalogue.completesOnStartOf(combination).as('completes_on_start'),
    ] as const;
  }

  /** One of the managed user's recipes; undefined if it is not theirs. */
  async owned(managedUserId: number, recipeId: number): Promise<RecipeRow | undefined> {
    const r = await this.baseQuery().where('ur.managed_user_id', '=', managedUserId).where('ur.id', '=', recipeId).executeTakeFirst();
    return r && recipeRowOf(r);
  }

  async byId(recipeId: number): Promise<RecipeRow | undefined> {
    const r = await this.baseQuery().where('ur.id', '=', recipeId).executeTakeFirst();
    return r && recipeRowOf(r);
  }

  /** The recipe a webhook token belongs to. */
  async byToken(token: string): Promise<RecipeRow | undefined> {
    return (await this.webhookRecipe(token))?.recipe;
  }

  /**
   * The recipe a webhook token belongs to, with its combination's recipe as stored (JSON text,
   * null when it has none): what the engine checks a later call against (JobStore.createForWebhook).
   */
  async webhookRecipe(token: string): Promise<{ recipe: RecipeRow; catalogueRecipe: string | null } | undefined> {
    if (!/^[0-9a-f]{64}$/.test(token)) return undefined;
    const r = await this.baseQuery().where('ur.webhook_token', '=', token).executeTakeFirst();
    if (!r) return undefined;
    const catalogueRecipe = r.recipe === null || r.recipe === undefined ? null : typeof r.recipe === 'string' ? r.recipe : JSON.stringify(r.recipe);
    return { recipe: recipeRowOf(r), catalogueRecipe };
  }

  /** The managed user's record of a combination (0: the starter recipe). */
  async forCombination(managedUserId: number, combinationId: number): Promise<RecipeRow | undefined> {
    await this.ensureFor(managedUserId);
    const r = await this.baseQuery().where('ur.managed_user_id', '=', managedUserId).where('ur.combination_id', '=', combinationId).executeTakeFirst();
    return r && recipeRowOf(r);
  }

  async setRunning(recipeId: number, running: boolean): Promise<void> {
    await this.db.updateTable('user_recipes').set({ running, updated_at: new Date() }).where('id', '=', recipeId).execute();
  }

  /** Moves the setup status; only from `from` (a concurrent move wins once). */
  async setStatus(recipeId: number, from: RecipeSetupStatus, to: RecipeSetupStatus): Promise<boolean> {
    if (from === to) return false;
    const res = await this.db
      .updateTable('user_recipes')
      .set({ status: to, updated_at: new Date() })
      .where('id', '=', recipeId)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  private targetsQuery() {
    return this.db
      .selectFrom('user_recipes as ur')
      .select([
        'ur.id',
        'ur.managed_user_id',
        'ur.combination_id',
        'ur.folder_id',
        'ur.sheet_id',
        'ur.name',
        this.catalogue.nameOf(sql.ref('ur.combination_id')).as('combination_name'),
        this.catalogue.recipeOf(sql.ref('ur.combination_id')).as('recipe'),
      ]);
  }

  private static targetsOfRow(r: {
    id: number;
    managed_user_id: number;
    combination_id: number;
    folder_id: string | null;
    sheet_id: string | null;
    name: string;
    combination_name: string | null;
    recipe: RecipeTemplateSeed | string | null;
  }): RecipeTargets {
    return {
      id: r.id,
      managedUserId: r.managed_user_id,
      combinationId: r.combination_id,
      folderId: r.folder_id,
      sheetId: r.sheet_id,
      combinationName: r.combination_name ?? r.name,
      template: typeof r.recipe === 'string' ? (JSON.parse(r.recipe) as RecipeTemplateSeed) : (r.recipe ?? null),
    };
  }

  /** A recipe's stored targets; undefined when there is no such recipe. */
  async targets(recipeId: number): Promise<RecipeTargets | undefined> {
    const r = await this.targetsQuery().where('ur.id', '=', recipeId).executeTakeFirst();
    return r && UserRecipes.targetsOfRow(r);
  }

  /** The stored targets of a managed user's record of a combination; undefined when it has none. */
  async targetsOf(managedUserId: number, combinationId: number): Promise<RecipeTargets | undefined> {
    const r = await this.targetsQuery().where('ur.managed_user_id', '=', managedUserId).where('ur.combination_id', '=', combinationId).executeTakeFirst();
    return r && UserRecipes.targetsOfRow(r);
  }

  /** Stores a target unless one was stored meanwhile; answers the one that is stored. */
  async storeTargetIfEmpty(recipeId: number, target: RecipeTarget, id: string): Promise<string> {
    const column = TARGET_COLUMN[target];
    const res = await this.db
      .updateTable('user_recipes')
      .set({ [column]: id, updated_at: new Date() })
      .where('id', '=', recipeId)
      .where(column, 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1) return id;
    const row = await this.db.selectFrom('user_recipes').select([column]).where('id', '=', recipeId).executeTakeFirst();
    return (row?.[column] as string | null | undefined) ?? id;
  }

  /** Stores the targets the owner chose (only on their own recipe; a missing one is left as it is). */
  async setTargets(recipeId: number, managedUserId: number, set: { folderId?: string; sheetId?: string }): Promise<void> {
    await this.db
      .updateTable('user_recipes')
      .set({
        ...(set.folderId !== undefined ? { folder_id: set.folderId } : {}),
        ...(set.sheetId !== undefined ? { sheet_id: set.sheetId } : {}),
        updated_at: new Date(),
      })
      .where('id', '=', recipeId)
      .where('managed_user_id', '=', managedUserId)
      .execute();
  }

  /**
   * Stores the owner's settings of one step (replacing the step's earlier ones), only on their own
   * recipe and only while it is stopped; false when the recipe is not theirs or runs (nothing written).
   */
  async setStepParams(recipeId: number, managedUserId: number, stepIndex: number, params: Record<string, unknown>): Promise<boolean> {
    const res = await this.db
      .updateTable('user_recipes')
      .set({
        step_params: sql`coalesce(step_params, '{}'::jsonb) || jsonb_build_object(${String(stepIndex)}::text, ${JSON.stringify(params)}::jsonb)`,
        updated_at: new Date(),
      })
      .where('id', '=', recipeId)
      .where('managed_user_id', '=', managedUserId)
      .where('running', '=', false)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /**
   * The running recipes whose combination's recipe has this trigger (a polled trigger's tick polls
   * each), by id; a recipe whose combination is not in the catalogue has none.
   */
  async runningWithTrigger(provider: string, action: string): Promise<number[]> {
    const { rows } = await sql<{ id: number }>`
      select ur.id from user_recipes ur
      where ur.running and ${this.catalogue.recipeOf(sql.ref('ur.combination_id'))}->'steps' @> ${JSON.stringify([{ kind: 'trigger', provider, action }])}::jsonb
      order by ur.id`.execute(this.db);
    return rows.map((r) => r.id);
  }

  /** The managed user's running recipes of combinations in the catalogue, with their workflow and combination name. */
  async runningOf(managedUserId: number): Promise<{ id: number; workflow_id: number; combination_name: string }[]> {
    const combination = sql.ref<number>('ur.combination_id');
    const { rows } = await sql<{ id: number; workflow_id: number; combination_name: string }>`
      select ur.id, ${this.catalogue.workflowOf(combination)} as workflow_id, ${this.catalogue.nameOf(combination)} as combination_name
      from user_recipes ur
      where ur.managed_user_id = ${managedUserId} and ur.running and ${this.catalogue.workflowOf(combination)} is not null
      order by ur.id`.execute(this.db);
    return rows;
  }

  /** One of the managed user's recipes as the provider's recipe call answers it; undefined if it is not theirs. */
  async providerRecipe(managedUserId: number, recipeId: number): Promise<ProviderRecipe | undefined> {
    return this.db
      .selectFrom('user_recipes')
      .select(['id', 'running', 'job_failed_count', 'job_succeeded_count'])
      .where('managed_user_id', '=', managedUserId)
      .where('id', '=', recipeId)
      .executeTakeFirst();
  }

  /** The managed user's recipe records (spec section 3): the starter (combination 0) and those of shown combinations. */
  async records(managedUserId: number): Promise<UserRecipeRecord[]> {
    const rows = await this.db
      .selectFrom('user_recipes as ur')
      .select([
        'ur.id',
        'ur.combination_id',
        'ur.name',
        'ur.status',
        'ur.workato_webhook',
        'ur.folder_id',
        'ur.sheet_id',
        'ur.updated_at',
        'ur.job_succeeded_count',
        'ur.job_failed_count',
        'ur.location',
        'ur.description',
      ])
      .where('ur.managed_user_id', '=', managedUserId)
      .where((eb) => eb.or([eb('ur.combination_id', '=', 0), this.catalogue.isShown(sql.ref('ur.combination_id'))]))
      .orderBy('ur.id')
      .execute();
    return rows.map((r) => ({
      recipe_id: r.id,
      combination: r.combination_id,
      name: r.name,
      status: r.status,
      workato_webhook: r.workato_webhook,
      folder_id: r.folder_id,
      sheet_id: r.sheet_id,
      updated_at: iso(r.updated_at),
      job_succeeded_count: r.job_succeeded_count,
      job_failed_count: r.job_failed_count,
      location: r.location,
      description: r.description,
    }));
  }

  /** A recipe's job counts and webhook address. */
  async counts(recipeId: number): Promise<{ job_succeeded_count: number; job_failed_count: number; workato_webhook: string | null }> {
    return this.db
      .selectFrom('user_recipes')
      .select(['job_succeeded_count', 'job_failed_count', 'workato_webhook'])
      .where('id', '=', recipeId)
      .executeTakeFirstOrThrow();
  }
}
