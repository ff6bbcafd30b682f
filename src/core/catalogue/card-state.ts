import type { Combination, UserRecipeRecord } from '../domain';
import { isBasicName } from './names';
import { isComingSoon } from './ordering';
import { hasJobHistory } from './recipes';

export type CardStatus = 'coming_soon' | 'connected' | 'inactive';

export const CARD_STATUS_LABEL: Record<CardStatus, string> = {
  coming_soon: 'Coming Soon',
  connected: 'Connected',
  inactive: 'Inactive',
};

export const VOTE_LABEL = 'Vote to get this combination sooner';
export const VOTED_LABEL = 'Thanks for your vote';

/**
 * Card state (spec section 4, Card state): coming-soon cards are voting cards; the others are
 * Connected when the user's recipe has at least one succeeded or failed job AND the combination
 * is authorised, else Inactive.
 */
export function cardStatus(
  combination: Pick<Combination, 'status'>,
  record: Pick<UserRecipeRecord, 'job_succeeded_count' | 'job_failed_count'> | undefined,
  authorised: boolean,
): CardStatus {
  if (isComingSoon(combination)) return 'coming_soon';
  return authorised && hasJobHistory(record) ? 'connected' : 'inactive';
}

/** The footer action: 'Use Now' while the recipe runs, else 'Get Now'. */
export function cardAction(combination: Pick<Combination, 'running'>): 'Get Now' | 'Use Now' {
  return combination.running ? 'Use Now' : 'Get Now';
}

/** Where a card's action leads: the basic setup screen for basic variants, else the setup screen. */
export function combinationPath(combination: Pick<Combination, 'id' | 'name'>): string {
  return isBasicName(combination.name) ? `/solutions/combinations/basic-workflow/${combination.id}` : `/solutions/combinations/workflow/${combination.id}`;
}
