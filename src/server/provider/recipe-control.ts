import { token } from '../../core/di';
import type { ProviderRecipe, UserRecipeRecord } from '../../core/domain';

/**
 * What the provider calls need from whatever runs recipes (today the automation engine): one
 * interface, so another provider could answer them later.
 */
export interface RecipeControl {
  /** starts the managed user's recipe; 404 if not theirs, 409 'Connector not found. …' if a step is missing */
  start(managedUserId: number, recipeId: number): Promise<{ running: boolean }>;
  stop(managedUserId: number, recipeId: number): Promise<{ running: boolean }>;
  /** sets the record's setup status (forward moves only) and returns the record */
  setSetupStatus(managedUserId: number, recipeId: number, status: unknown): Promise<UserRecipeRecord>;
  /** creates the managed user's recipe records if they have none yet */
  ensureRecords(managedUserId: number): Promise<void>;
  /** the managed user's recipe as the provider's recipe call answers it; undefined if not theirs */
  recipe(managedUserId: number, recipeId: number): Promise<ProviderRecipe | undefined>;
  /** the managed user's recipe records: the starter (combination 0) and those of shown combinations */
  records(managedUserId: number): Promise<UserRecipeRecord[]>;
}

export const RecipeControlToken = token<RecipeControl>('RecipeControl');
