import { createContext, useContext, useEffect, useState } from 'react';
import type { ServiceContainer, Token } from '../core/di';
import type { Observable } from 'rxjs';
import * as T from './tokens';
import type { SessionState } from './services/session';
import type { Crumb } from './services/breadcrumbs';

export const ContainerContext = createContext<ServiceContainer | null>(null);

export function useContainer(): ServiceContainer {
  const c = useContext(ContainerContext);
  if (!c) throw new Error('useContainer must be used inside <ContainerContext.Provider>');
  return c;
}

/** A service of the container, typed by its token. */
export function useService<S>(token: Token<S>): S {
  return useContainer().get(token);
}

export const useApi = () => useService(T.ApiClient);
export const useSession = () => useService(T.Session);
export const useEventBus = () => useService(T.EventBus);
export const useRegistry = () => useService(T.PluginRegistry);
export const useEnvironment = () => useService(T.Environment);

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
  const crumbs = useService(T.Breadcrumbs);
  useEffect(() => {
    if (label) crumbs.visit({ label, path });
  }, [crumbs, label, path]);
  return useObservable(crumbs.trail$, crumbs.trail);
}
