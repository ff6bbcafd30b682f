import type { RecipeSetupStatus } from '../../core/domain';

/** What the setup flow needs to know about a combination (catalogue fields, never ids). */
export interface SetupFacts {
  /** setup starts the user's starter recipe first (spec: 1, 2, 3, 4, 7) */
  starterRecipe: boolean;
  /** setup is complete as soon as the recipe starts (spec: 9 and basic variants) */
  completesOnStart: boolean;
}

export type SetupEvent =
  /** the setup screen's webhook call reached the record (customer_id, email, instance, recipe_id, combination_id) */
  | 'setup-call'
  /** the starter recipe's run for this combination succeeded */
  | 'starter-succeeded'
  /** the combination's own recipe was started */
  | 'recipe-started';

const RANK: Record<RecipeSetupStatus, number> = { 'no started': 0, started: 1, ready: 2, complete: 3 };

/**
 * The recipe setup status of spec section 4, as one pure function:
 * - the setup call: a combination with a starter recipe goes 'no started' → started (its starter
 *   run is queued); one that completes on start goes to complete; any other is ready at once
 *   (it has nothing to prepare);
 * - the starter's run succeeded: started → ready (complete for one that completes on start);
 * - starting the combination's own recipe: ready → complete; a combination that completes on
 *   start, or has no starter recipe, goes to complete from any status; one still waiting for its
 *   starter keeps its status.
 * Complete is final: nothing moves a record back.
 */
export function nextSetupStatus(current: RecipeSetupStatus, event: SetupEvent, facts: SetupFacts): RecipeSetupStatus {
  if (current === 'complete') return current;
  switch (event) {
    case 'setup-call':
      if (facts.starterRecipe) return current === 'no started' ? 'started' : current;
      return facts.completesOnStart ? 'complete' : 'ready';
    case 'starter-succeeded':
      if (current === 'no started' || current === 'started') return facts.completesOnStart ? 'complete' : 'ready';
      return current;
    case 'recipe-started':
      if (facts.completesOnStart || !facts.starterRecipe || current === 'ready') return 'complete';
      return current;
  }
}

/** The starter recipe's own record: started when it starts, complete after its first success. */
export function nextStarterStatus(current: RecipeSetupStatus, event: 'started' | 'succeeded'): RecipeSetupStatus {
  if (event === 'started') return current === 'no started' ? 'started' : current;
  return 'complete';
}

/** Whether a status set through workatoRecipeStatus is allowed: forward moves only. */
export function isForwardMove(from: RecipeSetupStatus, to: RecipeSetupStatus): boolean {
  return RANK[to] >= RANK[from];
}

export const SETUP_STATUSES: readonly RecipeSetupStatus[] = ['no started', 'started', 'ready', 'complete'];
