import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema';
import type { Vote } from '../../core/domain';
import { token } from '../../core/di';
import type { CombinationFactsService } from '../catalogue/combination-facts';

export type VoteOutcome = { kind: 'voted'; votes: number } | { kind: 'already-voted'; votes: number } | { kind: 'not-found' } | { kind: 'not-coming-soon' };

/**
 * A combination's votes for other modules' queries, spelled by the votes module (which owns the
 * votes table): scalar subqueries to place in one set-based query (the catalogue's combination
 * lists), so no other module names the table.
 */
export interface VoteTallies {
  /** How many votes the combination `combinationId` refers to has (a column of the caller's query, `sql.ref('c.id')`). */
  countOf(combinationId: Expression<number>): RawBuilder<number>;
  /** Whether that user voted for it. */
  castBy(combinationId: Expression<number>, userId: number): RawBuilder<boolean>;
}

/** Votes on coming-soon combinations: one per user and combination. */
export class VoteStore implements VoteTallies {
  /** `catalogue`: the catalogue's fragments for whether a combination is shown and its status (combinations is its table). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly catalogue: Pick<CombinationFactsService, 'isShown' | 'shownStatusOf'>,
  ) {}

  countOf(combinationId: Expression<number>): RawBuilder<number> {
    return sql<number>`(select count(*)::int from votes v where v.combination_id = ${combinationId})`;
  }

  castBy(combinationId: Expression<number>, userId: number): RawBuilder<boolean> {
    return sql<boolean>`exists (select 1 from votes v where v.combination_id = ${combinationId} and v.user_id = ${userId})`;
  }

  /** The caller's own votes for combinations that are shown. */
  async listVotes(userId: number): Promise<Vote[]> {
    return this.db
      .selectFrom('votes as v')
      .select(['v.combination_id', 'v.user_id'])
      .where('v.user_id', '=', userId)
      .where(this.catalogue.isShown(sql.ref('v.combination_id')))
      .orderBy('v.combination_id')
      .execute();
  }

  private async countVotes(combinationId: number): Promise<number> {
    const r = await this.db
      .selectFrom('votes')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('combination_id', '=', combinationId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /**
   * Records one vote per user and coming-soon combination. The primary key with
   * `on conflict do nothing` makes a repeated or simultaneous second vote count once.
   */
  async vote(userId: number, combinationId: number): Promise<VoteOutcome> {
    const { rows } = await sql<{ status: string | null }>`select ${this.catalogue.shownStatusOf(sql.val(combinationId))} as status`.execute(this.db);
    const status = rows[0]?.status ?? null;
    if (status === null) return { kind: 'not-found' };
    if (status !== 'coming_soon') return { kind: 'not-coming-soon' };
    const inserted = await this.db
      .insertInto('votes')
      .values({ user_id: userId, combination_id: combinationId })
      .onConflict((oc) => oc.columns(['user_id', 'combination_id']).doNothing())
      .returning('combination_id')
      .executeTakeFirst();
    const votes = await this.countVotes(combinationId);
    return inserted ? { kind: 'voted', votes } : { kind: 'already-voted', votes };
  }
}

export const Votes = token<VoteStore>('VoteStore');
