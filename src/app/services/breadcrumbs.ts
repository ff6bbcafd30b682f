import { BehaviorSubject } from 'rxjs';
import type { EventBus } from '../../core/event-bus';
import { StorageKeys, readJson, type KeyValueStorage } from './storage';

export interface Crumb {
  label: string;
  path: string;
}

export const HOME_CRUMB: Crumb = { label: 'Home', path: '/home' };

/**
 * The breadcrumb trail, kept per browser session (sessionStorage). Visiting a page appends its
 * crumb; visiting a page already in the trail (or clicking an earlier crumb) cuts the trail
 * back to it; /home resets it.
 */
export class Breadcrumbs {
  readonly trail$: BehaviorSubject<Crumb[]>;

  constructor(
    private readonly storage: KeyValueStorage,
    private readonly bus: EventBus,
  ) {
    const saved = readJson<Crumb[]>(storage, StorageKeys.breadcrumbs);
    this.trail$ = new BehaviorSubject<Crumb[]>(Array.isArray(saved) && saved.length ? saved : [HOME_CRUMB]);
  }

  get trail(): Crumb[] {
    return this.trail$.value;
  }

  private set(trail: Crumb[]): void {
    this.storage.setItem(StorageKeys.breadcrumbs, JSON.stringify(trail));
    this.trail$.next(trail);
    this.bus.publish('breadcrumbs/changed', { trail });
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
}
