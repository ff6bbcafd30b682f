import { createContext, useContext, useEffect, useState } from 'react';
import type { Container, ServiceIdentifier } from 'inversify';
import type { Observable } from 'rxjs';
import * as T from '../core/tokens';
import type { EventBus } from '../core/event-bus';
import type { EnvironmentInfo } from '../core/environment';
import type { ApiClient } from './services/api-client';
import type { Session, SessionState } from './services/session';
import type { Breadcrumbs, Crumb } from './services/breadcrumbs';
import type { ClientPluginRegistry } from './plugin';

export const ContainerContext = createContext<Container | null>(null);

export function useContainer(): Container {
  const c = useContext(ContainerContext);
  if (!c) throw new Error('useContainer must be used inside <ContainerContext.Provider>');
  return c;
}

export function useService<S>(token: ServiceIdentifier<S>): S {
  return useContainer().get<S>(token);
}

export const useApi = () => useService<ApiClient>(T.ApiClient);
export const useSession = () => useService<Session>(T.Session);
export const useEventBus = () => useService<EventBus>(T.EventBus);
export const useRegistry = () => useService<ClientPluginRegistry>(T.PluginRegistry);
export const useEnvironment = () => useService<EnvironmentInfo>(T.Environment);

/** The current value of an observable (BehaviorSubject-like: `initial` until it emits). */
export function useObservable<V>(source: Observable<V>, initial: V): V {
  const [value, setValue] = useState(initial);
  useEffect(() => {
    const sub = source.subscribe(setValue);
    return () => sub.unsubscribe();
  }, [source]);
  return value;
}

export function useSessionState(): SessionState {
  const session = useSession();
  return useObservable(session.state$, session.state$.value);
}

/** Registers the current page in the breadcrumb trail. */
export function useBreadcrumb(label: string | undefined, path: string): Crumb[] {
  const crumbs = useService<Breadcrumbs>(T.Breadcrumbs);
  useEffect(() => {
    if (label) crumbs.visit({ label, path });
  }, [crumbs, label, path]);
  return useObservable(crumbs.trail$, crumbs.trail);
}
