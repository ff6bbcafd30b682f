import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { CollectedCatalogue, CollectedCombination } from './collect';
import type { CombinationSeed } from './types';

export interface SeedLog {
  warn(obj: object, msg: string): void;
}

export interface SeedResult {
  solutions: number;
  workflows: number;
  combinations: number;
  /** entries contributed but hidden because their solution or workflow is missing */
  orphans: string[];
}

/**
 * Upserts the collected catalogue in one transaction. Every contributed row is written (and
 * shown); every other row is hidden, never deleted, so votes survive a plugin's removal and
 * come back with it. A workflow whose solution no plugin contributes, or a combination whose
 * workflow is not shown, is written but hidden, with a warning. On PostgreSQL a transaction
 * advisory lock keeps two servers starting at once from interleaving.
 */
export async function upsertCatalogue(db: Kysely<Database>, catalogue: CollectedCatalogue, log?: SeedLog): Promise<SeedResult> {
  const orphans: string[] = [];
  const solutionIds = new Set(catalogue.solutions.map((s) => s.entry.id));
  const shownWorkflows = new Set<number>();
  for (const { entry, pluginId } of catalogue.workflows) {
    if (solutionIds.has(entry.solution_id)) shownWorkflows.add(entry.id);
    else orphans.push(`workflow ${entry.id} of plugin "${pluginId}" (no solution ${entry.solution_id})`);
  }
  const shownCombinations = new Set<number>();
  for (const { entry, pluginId } of catalogue.combinations) {
    if (shownWorkflows.has(entry.workflow_id)) shownCombinations.add(entry.id);
    else orphans.push(`combination ${entry.id} of plugin "${pluginId}" (no shown workflow ${entry.workflow_id})`);
  }
  if (orphans.length) log?.warn({ orphans }, 'catalogue entries hidden: what they belong to is not contributed');

  const now = new Date();
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(727002)`.execute(trx);

    for (const { entry: s, pluginId } of catalogue.solutions) {
      const row = {
        name: s.name,
        descrption: s.descrption,
        icon: s.icon,
        status: s.status,
        author_first_name: s.author_first_name,
        created_time: s.created_time,
        plugin_id: pluginId,
        hidden: false,
        seeded_at: now,
      };
      await trx
        .insertInto('solutions')
        .values({ id: s.id, ...row })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .execute();
    }
    for (const { entry: w, pluginId } of catalogue.workflows) {
      const row = {
        solution_id: w.solution_id,
        name: w.name,
        descrption: w.descrption,
        icon: w.icon,
        minutes_per_run: w.minutes_per_run ?? null,
        plugin_id: pluginId,
        hidden: !shownWorkflows.has(w.id),
        seeded_at: now,
      };
      await trx
        .insertInto('workflows')
        .values({ id: w.id, ...row })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .execute();
    }
    for (const { entry: c, pluginId } of catalogue.combinations) {
      const row = combinationRow(c, pluginId, !shownCombinations.has(c.id), now);
      await trx
        .insertInto('combinations')
        .values({ id: c.id, ...row })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .execute();
    }

    // whatever was not contributed this time is hidden (kept for its votes)
    await hideOthers(trx, 'solutions', [...solutionIds]);
    await hideOthers(
      trx,
      'workflows',
      catalogue.workflows.map((w) => w.entry.id),
    );
    await hideOthers(
      trx,
      'combinations',
      catalogue.combinations.map((c) => c.entry.id),
    );
  });
  return { solutions: solutionIds.size, workflows: shownWorkflows.size, combinations: shownCombinations.size, orphans };
}

/**
 * A combination as a `combinations` row, all but its id; its connectors and triggers are written
 * as given (a collected combination's carry their declared ids and names).
 */
export function combinationRow(c: CombinationSeed | CollectedCombination, pluginId: string, hidden: boolean, seededAt: Date) {
  return {
    workflow_id: c.workflow_id,
    order: c.order,
    name: c.name,
    sub_title: c.sub_title,
    icon: c.icon,
    created_time: c.created_time,
    status: c.status,
    enabled: c.enabled,
    recommended: c.recommended,
    // jsonb: pass JSON text, or the pg driver would send a JavaScript array as a SQL array
    connectors: JSON.stringify(c.connectors),
    triggers: JSON.stringify(c.triggers),
    recipe: JSON.stringify(c.recipe),
    starter_recipe: c.starter_recipe ?? false,
    completes_on_start: c.completes_on_start ?? false,
    new_combination_target: c.new_combination_target ?? false,
    plugin_id: pluginId,
    hidden,
    seeded_at: seededAt,
  };
}

async function hideOthers(trx: Kysely<Database>, table: 'solutions' | 'workflows' | 'combinations', keep: number[]): Promise<void> {
  let q = trx.updateTable(table).set({ hidden: true }).where('hidden', '=', false);
  if (keep.length) q = q.where('id', 'not in', keep);
  await q.execute();
}
