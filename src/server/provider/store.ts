import type { ProviderRecipe, UserRecipeRecord } from '../../core/domain';
import { token } from '../../core/di';
import type { RecipeControl } from './recipe-control';

/**
 * The automation provider's records of a managed user: recipes and the user recipe records of
 * spec section 3, read from whatever runs recipes (RecipeControl: the automation engine, which
 * owns the user_recipes table); its connections come from the connections module,
 * `Connections.rowsOf`. The provider calls and the public API answer from here.
 */
export class ProviderStore {
  constructor(private readonly control: Pick<RecipeControl, 'recipe' | 'records'>) {}

  getRecipe(workatoId: number, recipeId: number): Promise<ProviderRecipe | undefined> {
    return this.control.recipe(workatoId, recipeId);
  }

  /** The managed user's recipe records: the starter (combination 0) and those of shown combinations. */
  listUserRecipes(workatoId: number): Promise<UserRecipeRecord[]> {
    return this.control.records(workatoId);
  }
}

export const Provider = token<ProviderStore>('ProviderStore');
