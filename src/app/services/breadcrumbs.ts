import { BehaviorSubject } from 'rxjs';
import type { EventBus } from '../../core/event-bus';
import { StorageKeys, readJson, type KeyValueStorage } from './storage';

export interface Crumb {
  label: string;
  path: string;
}

export const HOME_CRUMB: Crumb = { label: 'Home', path: '/home' };

/** The most crumbs the stored trail keeps (Home included); older ones after Home drop off. */
export const MAX_CRUMBS = 8;

/** How many history entries keep a snapshot of their trail (for Back and Forward). */
const MAX_SNAPSHOTS = 50;
const SNAPSHOTS_KEY = `${StorageKeys.breadcrumbs}:history`;

function isCrumb(c: unknown): c is Crumb {
  return !!c && typeof (c as Crumb).label === 'string' && typeof (c as Crumb).path === 'string';
}

function validTrail(t: unknown): Crumb[] | null {
  return Array.isArray(t) && t.length > 0 && t.length <= MAX_CRUMBS && t.every(isCrumb) ? (t as Crumb[]) : null;
}

/** Keeps Home and the newest crumbs so the trail never holds more than MAX_CRUMBS. */
function capped(trail: Crumb[]): Crumb[] {
  if (trail.length <= MAX_CRUMBS) return trail;
  return [trail[0], ...trail.slice(trail.length - (MAX_CRUMBS - 1))];
}

/**
 * The breadcrumb trail, kept per browser session (sessionStorage). Visiting a page appends its
 * crumb; visiting a page already in the trail (or clicking an earlier crumb) cuts the trail
 * back to it; /home resets it; at most MAX_CRUMBS are kept. Each history entry remembers the
 * trail it showed, so Back and Forward move along the trail as they move along history.
 */
export class Breadcrumbs {
  readonly trail$: BehaviorSubject<Crumb[]>;
  private entry: string | null = null;
  private snapshots: Array<[string, Crumb[]]>;

  constructor(
    private readonly storage: KeyValueStorage,
    private readonly bus: EventBus,
  ) {
    const saved = readJson<unknown>(storage, StorageKeys.breadcrumbs);
    const trail = Array.isArray(saved) && saved.length && saved.every(isCrumb) ? capped(saved as Crumb[]) : [HOME_CRUMB];
    this.trail$ = new BehaviorSubject<Crumb[]>(trail);
    const snaps = readJson<unknown>(storage, SNAPSHOTS_KEY);
    this.snapshots = Array.isArray(snaps)
      ? (snaps as unknown[]).filter((s): s is [string, Crumb[]] => Array.isArray(s) && typeof s[0] === 'string' && !!validTrail(s[1]))
      : [];
  }

  get trail(): Crumb[] {
    return this.trail$.value;
  }

  private set(trail: Crumb[]): void {
    const next = capped(trail);
    this.storage.setItem(StorageKeys.breadcrumbs, JSON.stringify(next));
    this.trail$.next(next);
    this.bus.publish('breadcrumbs/changed', { trail: next });
    this.remember();
  }

  /** Saves the current trail as the current history entry's snapshot. */
  private remember(): void {
    if (!this.entry) return;
    this.snapshots = [...this.snapshots.filter(([k]) => k !== this.entry), [this.entry, this.trail] as [string, Crumb[]]].slice(-MAX_SNAPSHOTS);
    this.storage.setItem(SNAPSHOTS_KEY, JSON.stringify(this.snapshots));
  }

  visit(crumb: Crumb): void {
    if (crumb.path === HOME_CRUMB.path) return this.set([HOME_CRUMB]);
    const at = this.trail.findIndex((c) => c.path === crumb.path);
    if (at >= 0) return this.set([...this.trail.slice(0, at), crumb]);
    this.set([...this.trail, crumb]);
  }

  /** Clicking crumb `index` keeps the trail up to and including it. */
  cutTo(index: number): void {
    if (index < 0 || index >= this.trail.length) return;
    this.set(this.trail.slice(0, index + 1));
  }

  reset(): void {
    this.set([HOME_CRUMB]);
  }

  /**
   * Called on every navigation with the history entry's key. A new entry (link, typed URL)
   * starts from the current trail; Back or Forward (`pop`) to an entry seen before brings back
   * the trail that entry showed, so Back removes the last crumb and Forward restores it.
   */
  enter(key: string | null, pop: boolean): void {
    this.entry = key;
    if (!key) return;
    const saved = pop ? this.snapshots.find(([k]) => k === key)?.[1] : undefined;
    if (saved) this.set(saved);
    else this.remember();
  }
}
