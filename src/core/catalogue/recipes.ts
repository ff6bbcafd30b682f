import type { Combination, UserRecipeRecord } from '../domain';
import { isBasicName } from './names';

/**
 * The user's recipe record for a combination. The record whose recipe_id equals the
 * combination's recipe_id wins; otherwise the record for the same combination id, preferring
 * the one whose basic-ness matches the combination (a basic record's name contains ' Basic').
 * Records for combination 0 are the starter recipe and never match a card.
 */
export function recipeFor(combination: Pick<Combination, 'id' | 'name' | 'recipe_id'>, records: readonly UserRecipeRecord[]): UserRecipeRecord | undefined {
  if (combination.recipe_id !== null && combination.recipe_id !== undefined) {
    const byRecipe = records.find((r) => r.recipe_id === combination.recipe_id && r.combination !== 0);
    if (byRecipe) return byRecipe;
  }
  const same = records.filter((r) => r.combination === combination.id && r.combination !== 0);
  const basic = isBasicName(combination.name);
  return same.find((r) => isBasicName(r.name) === basic) ?? same[0];
}

/** Whether a recipe has run at least once (one or more succeeded or failed jobs). */
export function hasJobHistory(record: Pick<UserRecipeRecord, 'job_succeeded_count' | 'job_failed_count'> | undefined): boolean {
  if (!record) return false;
  return (record.job_succeeded_count ?? 0) > 0 || (record.job_failed_count ?? 0) > 0;
}
