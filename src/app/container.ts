import 'reflect-metadata/lite';
import { EventBus } from '../core/event-bus';
import { ServiceContainer } from '../core/di';
import { resolveEnvironment } from '../core/environment';
import { PluginRegistry } from '../core/plugin-registry';
import { systemClock } from '../core/services';
import * as T from './tokens';
import type { ClientPlugin, View } from './plugin';
import { ApiClient } from './services/api-client';
import { Breadcrumbs } from './services/breadcrumbs';
import { Http } from './services/http';
import { windowNavigator, type PageNavigator } from './services/navigator';
import { Session } from './services/session';
import type { KeyValueStorage } from './services/storage';

export interface ShellOptions {
  plugins: ClientPlugin[];
  hostname?: string;
  storage?: KeyValueStorage;
  sessionStorage?: KeyValueStorage;
  navigator?: PageNavigator;
  fetch?: typeof fetch;
  /** Rebind any service to a fake before anything resolves. */
  overrides?: (container: ServiceContainer) => void;
}

export type { Clock } from '../core/services';

/**
 * The shell's container: every service a view needs is bound here, lazily, as a singleton;
 * then the services the plugins provide. Tests pass `overrides` to rebind one service (or a
 * whole plugin list) to a fake.
 */
export function createShellContainer(opts: ShellOptions): ServiceContainer {
  const c = new ServiceContainer();
  for (const p of opts.plugins) c.bind(T.PluginManifest).toConstantValue(p);
  c.provide(T.PluginRegistry, () => new PluginRegistry<View>(opts.plugins));
  c.provide(T.EventBus, () => new EventBus());
  c.constant(
    T.Environment,
    resolveEnvironment(opts.hostname ?? (typeof window !== 'undefined' ? window.location.hostname : 'localhost'), {
      dev: process.env.API_HOST_DEV ?? '',
      staging: process.env.API_HOST_STAGING ?? '',
      production: process.env.API_HOST_PRODUCTION ?? '',
    }),
  );
  c.constant(T.Storage, opts.storage ?? window.localStorage);
  c.constant(T.SessionStorage, opts.sessionStorage ?? window.sessionStorage);
  c.constant(T.Navigator, opts.navigator ?? windowNavigator);
  c.constant(T.Clock, systemClock);
  c.constant(T.Logger, consoleLogger);
  c.provide(T.Http, (get) => new Http(get(T.Environment), opts.fetch));
  c.provide(T.Session, (get) => new Session(get(T.Http), get(T.Storage), get(T.EventBus), get(T.Navigator), () => get(T.Clock).now()));
  c.provide(T.ApiClient, (get) => new ApiClient(get(T.Http), get(T.Session)));
  c.provide(T.Breadcrumbs, (get) => new Breadcrumbs(get(T.SessionStorage), get(T.EventBus)));
  for (const p of opts.plugins) for (const s of p.services ?? []) c.provide(s.token, s.factory);
  opts.overrides?.(c);
  return c;
}

/**
 * Runs every plugin's start hook once (subscriptions to the event bus, warm-ups) and returns a
 * function that stops them all.
 */
export function startPlugins(c: ServiceContainer): () => void {
  const get = <S>(t: import('../core/di').Token<S>) => c.get(t);
  const events = c.get(T.EventBus);
  const stops = c.getAll(T.PluginManifest).map((p) => p.onStart?.({ get, events }));
  return () => stops.forEach((s) => s?.());
}

const consoleLogger = {
  debug: (...a: unknown[]) => console.debug(...a),
  info: (...a: unknown[]) => console.info(...a),
  warn: (...a: unknown[]) => console.warn(...a),
  error: (...a: unknown[]) => console.error(...a),
};
