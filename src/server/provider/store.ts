import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { ProviderRecipe, UserRecipeRecord } from '../../core/domain';
import { token } from '../../core/di';
import { iso } from '../catalogue/store';

/**
 * The automation provider's records of a managed user: recipes and the user recipe records of
 * spec section 3 (its connections come from the connections module, `Connections.rowsOf`). The
 * engine answers the provider calls from here.
 */
export class ProviderStore {
  constructor(private readonly db: Kysely<Database>) {}

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

export const Provider = token<ProviderStore>('ProviderStore');
