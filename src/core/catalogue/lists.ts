import type { Combination, ProviderConnection, UserRecipeRecord } from '../domain';
import { isAuthorised, type AuthorisationSource } from './authorisation';
import { isComingSoon } from './ordering';
import { hasJobHistory, recipeFor } from './recipes';

export interface ListContext {
  connections: readonly ProviderConnection[];
  records: readonly UserRecipeRecord[];
  source: AuthorisationSource;
}

/** Active list (spec section 4, Lists): enabled, not coming soon, authorised, with job history. */
export function activeCombinations<C extends Combination>(combinations: readonly C[], ctx: ListContext): C[] {
  return combinations.filter((c) => c.enabled && !isComingSoon(c) && isAuthorised(c, ctx.connections, ctx.source) && hasJobHistory(recipeFor(c, ctx.records)));
}

/**
 * Recommended list: enabled, recommended combinations whose recipe has zero failed and zero
 * succeeded jobs (a combination the user has no recipe for has zero of both).
 */
export function recommendedCombinations<C extends Combination>(combinations: readonly C[], ctx: Pick<ListContext, 'records'>): C[] {
  return combinations.filter((c) => c.enabled && c.recommended && !hasJobHistory(recipeFor(c, ctx.records)));
}

/** The Combinations Available counter: enabled combinations that are not coming soon. */
export function availableCount(combinations: readonly Pick<Combination, 'enabled' | 'status'>[]): number {
  return combinations.filter((c) => c.enabled && !isComingSoon(c)).length;
}
