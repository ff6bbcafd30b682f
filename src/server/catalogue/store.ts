import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { changeFeedOf } from '../db/change-feed';
import { CATALOGUE_TABLES, InvalidatingCache } from './cache';
import type { CatalogueStatus, Combination, Connector, Solution, Trigger, Workflow } from '../../core/domain';
import type { VoteTallies } from '../votes/store';
import type { CombinationRecipesService } from '../automation/combination-recipes';

/** A combination as the API sends it (schemas/catalogue/combination.schema.json). */
export type CombinationReply = Combination;

/** A workflow as the API sends it, with the solution it belongs to. */
export type WorkflowReply = Workflow & { solution_id: number };

/** Who is asking: catalogue replies carry the caller's own votes and recipes. */
export interface Caller {
  userId: number;
  workatoId: number | null;
}

export function iso(value: Date | string): string {
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
  /** Each caller's combination list, while no catalogue, vote or recipe row changes. */
  private readonly combinationCache?: InvalidatingCache<string, CombinationReply[]>;
  /** The visible solutions (static between starts unless a catalogue table changes). */
  private readonly solutionCache?: InvalidatingCache<'all', Solution[]>;

  /**
   * Caches in memory when the database handle reports its writes (openDatabase's do); a handle
   * built elsewhere is read on every call. The votes module spells the vote figures (`votes`), the
   * automation module the caller's recipe of each combination (`recipes`).
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly votes: VoteTallies,
    private readonly recipes: CombinationRecipesService,
  ) {
    const feed = changeFeedOf(db);
    if (feed) {
      this.combinationCache = new InvalidatingCache();
      this.combinationCache.clearOn(feed, CATALOGUE_TABLES);
      this.solutionCache = new InvalidatingCache();
      this.solutionCache.clearOn(feed, CATALOGUE_TABLES);
    }
  }

  private combinationsQuery(caller: Caller) {
    return this.db
      .selectFrom('combinations as c')
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
        this.votes.countOf(sql.ref('c.id')).as('votes'),
        this.votes.castBy(sql.ref('c.id'), caller.userId).as('my_vote'),
        'c.starter_recipe',
        'c.completes_on_start',
        'c.new_combination_target',
        this.recipes.recipeIdOf(sql.ref('c.id'), caller.workatoId ?? -1).as('recipe_id'),
        this.recipes.runningOf(sql.ref('c.id'), caller.workatoId ?? -1).as('running'),
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
    starter_recipe: boolean;
    completes_on_start: boolean;
    new_combination_target: boolean;
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
      status: r.status as CatalogueStatus,
      enabled: r.enabled,
      recommended: r.recommended,
      my_vote: Boolean(r.my_vote),
      votes: Number(r.votes),
      recipe_id: r.recipe_id ?? null,
      running: r.running ?? false,
      starter_recipe: r.starter_recipe,
      completes_on_start: r.completes_on_start,
      new_combination_target: r.new_combination_target,
    };
  }

  private async loadCombinations(caller: Caller): Promise<CombinationReply[]> {
    const rows = await this.combinationsQuery(caller).orderBy('c.id').execute();
    return rows.map((r) => Object.freeze(this.toCombination(r)) as CombinationReply);
  }

  /** The JSON text of each cached combination list, made once per list (a new list after a change). */
  private readonly combinationJson = new WeakMap<CombinationReply[], string>();

  /**
   * The caller's combination list as the JSON the endpoint sends: serialized once per cached list,
   * so a repeated GET costs a map lookup instead of a 10 KB JSON.stringify.
   */
  async combinationsJson(caller: Caller): Promise<string> {
    if (!this.combinationCache) return JSON.stringify(await this.loadCombinations(caller));
    const list = await this.combinationCache.get(`${caller.userId}:${caller.workatoId ?? ''}`, () => this.loadCombinations(caller));
    let json = this.combinationJson.get(list);
    if (json === undefined) {
      json = JSON.stringify(list);
      this.combinationJson.set(list, json);
    }
    return json;
  }

  /** Every visible combination with the caller's vote and recipe (from memory when cached). */
  async listCombinations(caller: Caller): Promise<CombinationReply[]> {
    if (!this.combinationCache) return this.loadCombinations(caller);
    const list = await this.combinationCache.get(`${caller.userId}:${caller.workatoId ?? ''}`, () => this.loadCombinations(caller));
    return [...list];
  }

  async getCombination(caller: Caller, id: number): Promise<CombinationReply | undefined> {
    if (this.combinationCache) return (await this.listCombinations(caller)).find((c) => c.id === id);
    const r = await this.combinationsQuery(caller).where('c.id', '=', id).executeTakeFirst();
    return r && this.toCombination(r);
  }

  private toSolution(r: {
    id: number;
    name: string;
    descrption: string;
    icon: string;
    status: string;
    author_first_name: string;
    created_time: Date;
  }): Solution {
    return {
      id: r.id,
      name: r.name,
      descrption: r.descrption,
      icon: r.icon,
      status: r.status as CatalogueStatus,
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

  private async loadSolutions(): Promise<Solution[]> {
    const rows = await this.solutionsQuery().orderBy('id').execute();
    return rows.map((r) => Object.freeze(this.toSolution(r)) as Solution);
  }

  /** The visible solutions (from memory when cached). */
  async listSolutions(): Promise<Solution[]> {
    return this.solutionCache ? [...(await this.solutionCache.get('all', () => this.loadSolutions()))] : this.loadSolutions();
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
}
