import type { Combination, Workflow } from '../domain';

export const COMING_SOON = 'coming_soon';

export function isComingSoon(c: Pick<Combination, 'status'>): boolean {
  return c.status === COMING_SOON;
}

export function isComingSoonWorkflow(w: Pick<Workflow, 'icon'>): boolean {
  return w.icon === COMING_SOON;
}

/**
 * Combination order (spec section 2, Combinations): `order` descending, then `votes` descending,
 * then coming-soon combinations last. "Coming soon last" is the strongest rule: a coming-soon
 * combination never precedes an available one, whatever its order. Ties keep the id ascending
 * so the result is stable across reloads. Returns a new array.
 */
export function sortCombinations<C extends Pick<Combination, 'id' | 'order' | 'votes' | 'status'>>(list: readonly C[]): C[] {
  return [...list].sort(
    (a, b) => Number(isComingSoon(a)) - Number(isComingSoon(b)) || (b.order ?? 0) - (a.order ?? 0) || (b.votes ?? 0) - (a.votes ?? 0) || a.id - b.id,
  );
}

/** Workflow order (spec section 2, /solution/{id}): coming-soon workflows last, otherwise as given. */
export function sortWorkflows<W extends Pick<Workflow, 'icon'>>(list: readonly W[]): W[] {
  return list
    .map((w, i) => ({ w, i }))
    .sort((a, b) => Number(isComingSoonWorkflow(a.w)) - Number(isComingSoonWorkflow(b.w)) || a.i - b.i)
    .map((x) => x.w);
}

/** Connectors on a card are shown sorted by `order` ascending. */
export function sortConnectors<T extends { order: number }>(list: readonly T[] | undefined): T[] {
  return [...(list ?? [])].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
}
