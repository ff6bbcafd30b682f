import { Observable, Subject, filter, map } from 'rxjs';

/**
 * Typed domain events. Plugins add their own events by declaration merging:
 *
 *   declare module '../../src/core/event-bus' {
 *     interface DomainEvents { 'reconciliation/config-saved': { id: number } }
 *   }
 */
export interface DomainEvents {
  'session/started': { userId: number };
  'session/expired': { reason: 'refresh-failed' | 'unauthorised' | 'no-token' };
  'session/ended': Record<string, never>;
  'recipe/started': { combinationId: number; recipeId: number };
  'recipe/stopped': { combinationId: number; recipeId: number };
  'vote/cast': { combinationId: number };
  'config/saved': { kind: string; combinationId: number };
  'job/status-changed': { jobId: string; status: string };
  'profile/updated': { name: string };
  'breadcrumbs/changed': { trail: Array<{ label: string; path: string }> };
  /** Server: a user's file was stored (upload or generated). */
  'file/stored': { owner: number; bucket: string; key: string; name: string; kind: string; workflow?: string };
  /** Server: the text of a user's document is known (extraction, OCR, upload of text). */
  'document/text-extracted': { owner: number; bucket: string; key: string; name: string; text: string };
}

export type DomainEventType = keyof DomainEvents;

export interface DomainEvent<K extends DomainEventType = DomainEventType> {
  type: K;
  payload: DomainEvents[K];
  at: number;
}

/** An RxJS subject carrying typed domain events, one instance per container. */
export class EventBus {
  private readonly subject = new Subject<DomainEvent>();

  /** Every event, for logging and tests. */
  readonly all$: Observable<DomainEvent> = this.subject.asObservable();

  publish<K extends DomainEventType>(type: K, payload: DomainEvents[K]): void {
    this.subject.next({ type, payload, at: Date.now() } as DomainEvent);
  }

  on<K extends DomainEventType>(type: K): Observable<DomainEvents[K]> {
    return this.subject.pipe(
      filter((e): e is DomainEvent<K> => e.type === type),
      map((e) => e.payload),
    );
  }

  complete(): void {
    this.subject.complete();
  }
}
