import { EMPTY, Observable, of, switchMap, timer, type SchedulerLike, asyncScheduler, map } from 'rxjs';

/** Workflow search (spec section 5): 700 ms pause, terms longer than 2 characters. */
export const SEARCH_DEBOUNCE_MS = 700;
export const SEARCH_MIN_LENGTH = 3;

export type SearchIntent = { kind: 'all' } | { kind: 'search'; term: string } | { kind: 'ignore' };

/** What a box value asks for: the full list when cleared, a search when long enough, else nothing. */
export function searchIntent(value: string): SearchIntent {
  const term = value.trim();
  if (term === '') return { kind: 'all' };
  if (term.length >= SEARCH_MIN_LENGTH) return { kind: 'search', term };
  return { kind: 'ignore' };
}

/**
 * Turns the box's values into requests: a search only after a 700 ms pause with a term longer
 * than 2 characters; clearing the box asks for the full list at once. Every keystroke cancels
 * the pending search, so a term of 1 or 2 characters sends nothing and also stops a search that
 * was about to go out.
 */
export function searchRequests(values$: Observable<string>, scheduler: SchedulerLike = asyncScheduler): Observable<Exclude<SearchIntent, { kind: 'ignore' }>> {
  return values$.pipe(
    switchMap((value) => {
      const intent = searchIntent(value);
      if (intent.kind === 'all') return of(intent);
      if (intent.kind === 'ignore') return EMPTY;
      return timer(SEARCH_DEBOUNCE_MS, scheduler).pipe(map(() => intent));
    }),
  );
}
