import type { Vote } from '../domain';

/** The caller's votes: the list is matched to the current user id (spec section 3, Vote). */
export function myVotes(votes: readonly Vote[], userId: number | null): Vote[] {
  return userId === null ? [...votes] : votes.filter((v) => Number(v.user_id) === userId);
}

/** Whether the user voted for a combination, by the server's my_vote flag or the votes list. */
export function hasVoted(combination: { id: number; my_vote?: boolean }, votes: readonly Vote[]): boolean {
  return !!combination.my_vote || votes.some((v) => Number(v.combination_id) === combination.id);
}
