import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type {
  Combination,
  Connector,
  ProviderConnection,
  ProviderRecipe,
  Solution,
  Trigger,
  UserRecipeRecord,
  Vote,
  Workflow,
} from '../../core/domain';

/** A combination as the API sends it: the domain shape plus the workflow it belongs to. */
export interface CombinationReply extends Combination {
  workflow_id: number;
}

export interface WorkflowReply extends Workflow {
  solution_id: number;
}

/** Who is asking: catalogue replies carry the caller's own votes and recipes. */
export interface Caller {
  userId: number;
  workatoId: number | null;
}

export type VoteOutcome =
  | { kind: 'voted'; votes: number }
  | { kind: 'already-voted'; votes: number }
  | { kind: 'not-found' }
  | { kind: 'not-coming-soon' };

function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

function byOrder(a: Connector, b: Connector): number {
  return a.order - b.order || a.id - b.id;
}

/**
 * Reads and writes of the catalogue tables. Hidden rows (their plugin is gone) are invisible
 * to every method, as are hidden parents' children.
 */
export class SqlCatalogueStore {
  constructor(private readonly db: Kysely<Database>) {}

  private combinationsQuery(caller: Caller) {
    return this.db
      .selectFrom('combinations as c')
      .leftJoin('user_recipes as ur', (j) =>
        j.onRef('ur.combination_id', '=', 'c.id').on('ur.managed_user_id', '=', caller.workatoId ?? -1),
      )
      .select([
        'c.id',
        'c.workflow_id',
        'c.order',
        'c.name',
        'c.sub_title',
        'c.icon',
        'c.created_time',
        'c.connectors',
        'c.triggers',
        'c.status',
        'c.enabled',
        'c.recommended',
        sql<number>`(select count(*)::int from votes v where v.combination_id = c.id)`.as('votes'),
        sql<boolean>`exists (select 1 from votes v where v.combination_id = c.id and v.user_id = ${caller.userId})`.as('my_vote'),
        'ur.id as recipe_id',
        'ur.running as running',
      ])
      .where('c.hidden', '=', false);
  }

  private toCombination(r: {
    id: number;
    workflow_id: number;
    order: number;
    name: string;
    sub_title: string;
    icon: string;
    created_time: Date;
    connectors: Connector[];
    triggers: Trigger[];
    status: string;
    enabled: boolean;
    recommended: boolean;
    votes: number;
    my_vote: boolean;
    recipe_id: number | null;
    running: boolean | null;
  }): CombinationReply {
    return {
      id: r.id,
      workflow_id: r.workflow_id,
      order: r.order,
      name: r.name,
      sub_title: r.sub_title,
      icon: r.icon,
      created_time: iso(r.created_time),
      connectors: [...r.connectors].sort(byOrder),
      triggers: r.triggers,
      status: r.status,
      enabled: r.enabled,
      recommended: r.recommended,
      my_vote: Boolean(r.my_vote),
      votes: Number(r.votes),
      recipe_id: r.recipe_id ?? null,
      running: r.running ?? false,
    };
  }

  async listCombinations(caller: Caller): Promise<CombinationReply[]> {
    const rows = await this.combinationsQuery(caller).orderBy('c.id').execute();
    return rows.map((r) => this.toCombination(r));
  }

  async getCombination(caller: Caller, id: number): Promise<CombinationReply | undefined> {
    const r = await this.combinationsQuery(caller).where('c.id', '=', id).executeTakeFirst();
    return r && this.toCombination(r);
  }

  private toSolution(r: { id: number; name: string; descrption: string; icon: string; status: string; author_first_name: string; created_time: Date }): Solution {
    return {
      id: r.id,
      name: r.name,
      descrption: r.descrption,
      icon: r.icon,
      status: r.status,
      created_by: { user: { first_name: r.author_first_name } },
      created_time: iso(r.created_time),
    };
  }

  private solutionsQuery() {
    return this.db
      .selectFrom('solutions')
      .select(['id', 'name', 'descrption', 'icon', 'status', 'author_first_name', 'created_time'])
      .where('hidden', '=', false);
  }

  async listSolutions(): Promise<Solution[]> {
    const rows = await this.solutionsQuery().orderBy('id').execute();
    return rows.map((r) => this.toSolution(r));
  }

  async solutionExists(id: number): Promise<boolean> {
    return (await this.solutionsQuery().where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  async getSolution(id: number): Promise<Solution | undefined> {
    const r = await this.solutionsQuery().where('id', '=', id).executeTakeFirst();
    if (!r) return undefined;
    return { ...this.toSolution(r), workflows: await this.searchWorkflows(id, '') };
  }

  /**
   * The solution's workflows whose name or description contains every word of the query
   * (case-insensitive; LIKE wildcards in the query are matched literally). An empty query
   * lists them all.
   */
  async searchWorkflows(solutionId: number, query: string): Promise<Workflow[]> {
    const words = query.trim().split(/\s+/).filter(Boolean).slice(0, 10);
    let q = this.db
      .selectFrom('workflows as w')
      .select(['w.id', 'w.name', 'w.descrption', 'w.icon'])
      .where('w.hidden', '=', false)
      .where('w.solution_id', '=', solutionId);
    for (const word of words) {
      const pattern = `%${word.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
      q = q.where(sql<boolean>`(w.name ilike ${pattern} escape '\\' or w.descrption ilike ${pattern} escape '\\')`);
    }
    const rows = await q.orderBy('w.id').execute();
    return rows.map((r) => ({ id: r.id, name: r.name, descrption: r.descrption, icon: r.icon }));
  }

  async getWorkflow(caller: Caller, id: number): Promise<WorkflowReply | undefined> {
    const w = await this.db
      .selectFrom('workflows')
      .select(['id', 'solution_id', 'name', 'descrption', 'icon'])
      .where('hidden', '=', false)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!w) return undefined;
    const rows = await this.combinationsQuery(caller).where('c.workflow_id', '=', id).orderBy('c.id').execute();
    const combinations = rows.map((r) => this.toCombination(r));
    const triggers = new Map<number, Trigger>();
    const connectors = new Map<number, Connector>();
    for (const c of combinations) {
      for (const t of c.triggers) if (!triggers.has(t.id)) triggers.set(t.id, t);
      for (const k of c.connectors) if (!connectors.has(k.id)) connectors.set(k.id, k);
    }
    return {
      ...w,
      combinations,
      triggers: [...triggers.values()].sort((a, b) => a.id - b.id),
      connectors: [...connectors.values()].sort(byOrder),
    };
  }

  /** The caller's own votes for combinations that are shown. */
  async listVotes(userId: number): Promise<Vote[]> {
    return this.db
      .selectFrom('votes as v')
      .innerJoin('combinations as c', 'c.id', 'v.combination_id')
      .select(['v.combination_id', 'v.user_id'])
      .where('v.user_id', '=', userId)
      .where('c.hidden', '=', false)
      .orderBy('v.combination_id')
      .execute();
  }

  private async countVotes(combinationId: number): Promise<number> {
    const r = await this.db
      .selectFrom('votes')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('combination_id', '=', combinationId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /**
   * Records one vote per user and coming-soon combination. The primary key with
   * `on conflict do nothing` makes a repeated or simultaneous second vote count once.
   */
  async vote(userId: number, combinationId: number): Promise<VoteOutcome> {
    const c = await this.db
      .selectFrom('combinations')
      .select(['status'])
      .where('id', '=', combinationId)
      .where('hidden', '=', false)
      .executeTakeFirst();
    if (!c) return { kind: 'not-found' };
    if (c.status !== 'coming_soon') return { kind: 'not-coming-soon' };
    const inserted = await this.db
      .insertInto('votes')
      .values({ user_id: userId, combination_id: combinationId })
      .onConflict((oc) => oc.columns(['user_id', 'combination_id']).doNothing())
      .returning('combination_id')
      .executeTakeFirst();
    const votes = await this.countVotes(combinationId);
    return inserted ? { kind: 'voted', votes } : { kind: 'already-voted', votes };
  }

  async recordMarketingEvent(userId: number, topic: string): Promise<void> {
    await this.db.insertInto('marketing_events').values({ user_id: userId, topic }).execute();
  }

  async listConnections(workatoId: number): Promise<ProviderConnection[]> {
    return this.db
      .selectFrom('connections')
      .select(['id', 'name', 'provider', 'authorization_status'])
      .where('managed_user_id', '=', workatoId)
      .orderBy('id')
      .execute();
  }

  async getRecipe(workatoId: number, recipeId: number): Promise<ProviderRecipe | undefined> {
    return this.db
      .selectFrom('user_recipes')
      .select(['id', 'running', 'job_failed_count', 'job_succeeded_count'])
      .where('managed_user_id', '=', workatoId)
      .where('id', '=', recipeId)
      .executeTakeFirst();
  }

  /** The managed user's recipe records: the starter (combination 0) and those of shown combinations. */
  async listUserRecipes(workatoId: number): Promise<UserRecipeRecord[]> {
    const rows = await this.db
      .selectFrom('user_recipes as ur')
      .leftJoin('combinations as c', 'c.id', 'ur.combination_id')
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
      .where('ur.managed_user_id', '=', workatoId)
      .where((eb) => eb.or([eb('ur.combination_id', '=', 0), eb('c.hidden', '=', false)]))
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
}
