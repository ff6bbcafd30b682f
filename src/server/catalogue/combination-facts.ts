import { sql, type Expression, type RawBuilder } from 'kysely';
import { token } from '../../core/di';
import type { RecipeTemplateSeed } from './types';
import { combinationWorkflows, type CombinationWorkflowsService } from './combination-workflows';

/**
 * A combination's facts for other modules' queries, spelled by the catalogue (which owns the
 * combinations table): scalar subqueries to place in one set-based query, so the modules that keep
 * combination ids (the automation module's recipes and jobs, the votes) never name the table.
 * Each is null when the combination is not in the catalogue (the starter recipe's 0 included).
 */
export interface CombinationFactsService extends CombinationWorkflowsService {
  /** The recipe template of the combination `combinationId` refers to (a column of the caller's query, `sql.ref('ur.combination_id')`), as stored (jsonb). */
  recipeOf(combinationId: Expression<number>): RawBuilder<RecipeTemplateSeed | string | null>;
  /** Its name. */
  nameOf(combinationId: Expression<number>): RawBuilder<string | null>;
  /** Whether it is the starter recipe's combination. */
  starterRecipeOf(combinationId: Expression<number>): RawBuilder<boolean | null>;
  /** Whether starting its recipe completes its setup. */
  completesOnStartOf(combinationId: Expression<number>): RawBuilder<boolean | null>;
  /** Its status, only while it is shown (not hidden); null otherwise. */
  shownStatusOf(combinationId: Expression<number>): RawBuilder<string | null>;
  /** Whether it is in the catalogue and shown (not hidden). */
  isShown(combinationId: Expression<number>): RawBuilder<boolean>;
  /**
   * The combinations every workspace has a recipe record of (enabled, shown, not coming soon), as a
   * table to select from: `combination_id`, and the record's `name` and `description` (the
   * combination's recipe's, its own name when the recipe has none).
   */
  recipeSeeds(): RawBuilder<{ combination_id: number; name: string; description: string | null }>;
}
export const CombinationFacts = token<CombinationFactsService>('CombinationFacts');

export function combinationFacts(): CombinationFactsService {
  const column =
    <T>(name: string) =>
    (combinationId: Expression<number>) =>
      sql<T>`(select ${sql.ref(`cf.${name}`)} from combinations cf where cf.id = ${combinationId})`;
  return {
    ...combinationWorkflows(),
    recipeOf: column('recipe'),
    nameOf: column('name'),
    starterRecipeOf: column('starter_recipe'),
    completesOnStartOf: column('completes_on_start'),
    shownStatusOf: (combinationId) => sql<string | null>`(select cf.status from combinations cf where cf.id = ${combinationId} and not cf.hidden)`,
    isShown: (combinationId) => sql<boolean>`exists (select 1 from combinations cf where cf.id = ${combinationId} and not cf.hidden)`,
    recipeSeeds: () =>
      sql`(select cf.id as combination_id, coalesce(cf.recipe->>'name', cf.name) as name, cf.recipe->>'description' as description
        from combinations cf
        where cf.enabled and not cf.hidden and cf.status <> 'coming_soon')`,
  };
}
