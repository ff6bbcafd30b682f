import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { token } from '../../core/di';

/** Marketing events: what a user acknowledged on the home page ('Great!'). */
export class MarketingStore {
  constructor(private readonly db: Kysely<Database>) {}

  async recordMarketingEvent(userId: number, topic: string): Promise<void> {
    await this.db.insertInto('marketing_events').values({ user_id: userId, topic }).execute();
  }
}

export const Marketing = token<MarketingStore>('MarketingStore');
