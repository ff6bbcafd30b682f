import { sql, type Expression, type RawBuilder } from 'kysely';
import { token } from '../../core/di';

/**
 * A workspace's recipe record of a combination for other modules' queries, spelled by the
 * automation module (which owns user_recipes): scalar subqueries to place in one set-based query
 * (the catalogue's combination lists), so no other module names the table.
 */
export interface CombinationRecipesService {
  /** The id of the workspace's record of the combination `combinationId` refers to (a column of the caller's query, `sql.ref('c.id')`); null when it has none. */
  recipeIdOf(combinationId: Expression<number>, managedUserId: number): RawBuilder<number | null>;
  /** Whether that recipe runs; null when it has none. */
  runningOf(combinationId: Expression<number>, managedUserId: number): RawBuilder<boolean | null>;
}
export const CombinationRecipes = token<CombinationRecipesService>('CombinationRecipes');

export function combinationRecipes(): CombinationRecipesService {
  const column =
    <T>(name: string) =>
    (combinationId: Expression<number>, managedUserId: number) =>
      sql<T>`(select ${sql.ref(`cr.${name}`)} from user_recipes cr where cr.combination_id = ${combinationId} and cr.managed_user_id = ${managedUserId})`;
  return { recipeIdOf: column('id'), runningOf: column('running') };
}
