import 'reflect-metadata';
import { Container } from 'inversify';
import { EventBus } from '../core/event-bus';
import { resolveEnvironment, type EnvironmentInfo } from '../core/environment';
import { PluginRegistry } from '../core/plugin-registry';
import * as T from '../core/tokens';
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
  overrides?: (container: Container) => void;
}

export interface Clock {
  now(): number;
}

/**
 * The shell's container: every service a view needs is bound here, lazily, as a singleton.
 * Tests pass `overrides` to rebind one service (or a whole plugin list) to a fake.
 */
export function createShellContainer(opts: ShellOptions): Container {
  const c = new Container();
  for (const p of opts.plugins) c.bind(T.PluginManifest).toConstantValue(p);
  c.bind(T.PluginRegistry)
    .toDynamicValue((ctx) => new PluginRegistry<View>(ctx.getAll<ClientPlugin>(T.PluginManifest)))
    .inSingletonScope();
  c.bind(T.EventBus).toDynamicValue(() => new EventBus()).inSingletonScope();
  c.bind<EnvironmentInfo>(T.Environment).toConstantValue(
    resolveEnvironment(opts.hostname ?? (typeof window !== 'undefined' ? window.location.hostname : 'localhost'), {
      dev: process.env.API_HOST_DEV ?? '',
      staging: process.env.API_HOST_STAGING ?? '',
      production: process.env.API_HOST_PRODUCTION ?? '',
    }),
  );
  c.bind<KeyValueStorage>(T.Storage).toConstantValue(opts.storage ?? window.localStorage);
  c.bind<KeyValueStorage>(T.SessionStorage).toConstantValue(opts.sessionStorage ?? window.sessionStorage);
  c.bind<PageNavigator>(T.Navigator).toConstantValue(opts.navigator ?? windowNavigator);
  c.bind<Clock>(T.Clock).toConstantValue({ now: () => Date.now() });
  c.bind(Http).toDynamicValue((ctx) => new Http(ctx.get(T.Environment), opts.fetch)).inSingletonScope();
  c.bind(T.Session)
    .toDynamicValue(
      (ctx) =>
        new Session(ctx.get(Http), ctx.get(T.Storage), ctx.get(T.EventBus), ctx.get(T.Navigator), () => ctx.get<Clock>(T.Clock).now()),
    )
    .inSingletonScope();
  c.bind(T.ApiClient).toDynamicValue((ctx) => new ApiClient(ctx.get(Http), ctx.get(T.Session))).inSingletonScope();
  c.bind(T.Breadcrumbs).toDynamicValue((ctx) => new Breadcrumbs(ctx.get(T.SessionStorage), ctx.get(T.EventBus))).inSingletonScope();
  opts.overrides?.(c);
  return c;
}
