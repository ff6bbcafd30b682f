import { existsSync } from 'node:fs';
import path from 'node:path';
import type { AnyServerPlugin, ServerPlugin } from '../plugin';
import { AutomationOptions } from '../automation/options';
import { startTestServer, type TestServer, type TestServerOptions } from './server';

/** The repository's plugins folder (beside src/). */
export const PLUGINS_DIR = path.resolve(__dirname, '../../../plugins');

/** The plugin with the solutions every workflow sits in. */
export const CORE_CATALOGUE = 'catalogue-core';

/** Loads plugins/<name>/server.ts, naming what is wrong when it cannot. */
export async function loadServerPlugin(name: string, pluginsDir = PLUGINS_DIR): Promise<ServerPlugin> {
  const entry = ['server.ts', 'server.js'].map((f) => path.join(pluginsDir, name, f)).find((f) => existsSync(f));
  if (!entry) throw new Error(`There is no ${path.join(pluginsDir, name)}/server.ts`);
  const mod = (await import(entry)) as { default?: { default?: unknown } & Partial<AnyServerPlugin> };
  const plugin = (mod.default?.default ?? mod.default) as ServerPlugin | undefined;
  if (!plugin || typeof plugin.id !== 'string') throw new Error(`plugins/${name}/server.ts must default-export defineServerPlugin({...})`);
  return plugin;
}

export interface PluginServerOptions extends Omit<TestServerOptions, 'plugins'> {
  /** where the plugin under test is (default: the repository's plugins/) */
  pluginsDir?: string;
  /** other plugins to load by folder name, e.g. ['connectors'] for its connectors and sandboxes */
  with?: string[];
  /** plugin objects of the test's own (a test-only action, a fixture catalogue) */
  extra?: ServerPlugin[];
  /** the engine's production settings instead of the test ones (retries in ms, not seconds; steps may call 127.0.0.1) */
  productionTimings?: boolean;
}

/**
 * The engine for tests: retries after 20-100 ms instead of seconds, and steps' HTTP client may
 * reach 127.0.0.1 (where connectors' sandboxes and a test's fixture servers listen; every other
 * private address stays refused).
 */
const TEST_ENGINE = { backoffBaseMs: 20, backoffMaxMs: 100, busyDelayMs: 30, leaseMs: 3000, stepHttpAllowLoopback: true };

/**
 * A real test server (in-memory PGlite, every core module) with the core catalogue and one
 * plugin (plus `with`), its migrations run and its catalogue seeded:
 *
 *   const server = await startPluginServer('my-workflow', { fakes: [fake(T.TextGenerator, { generate })] });
 *   const user = await createUser(server);
 *   const res = await server.call('POST', '/api/plugins/my-workflow/run', { token: user.access, body: {...} });
 *   await server.close();
 */
export async function startPluginServer(name: string, opts: PluginServerOptions = {}): Promise<TestServer> {
  const dir = opts.pluginsDir ?? PLUGINS_DIR;
  const names = [...new Set([CORE_CATALOGUE, ...(opts.with ?? []), name])];
  // the core catalogue and the `with` plugins come from pluginsDir when there, else from the repository's plugins/
  const plugins = await Promise.all(names.map((n) => loadServerPlugin(n, n !== name && !existsSync(path.join(dir, n)) ? PLUGINS_DIR : dir)));
  const { pluginsDir: _d, with: _w, extra, productionTimings, overrides, ...rest } = opts;
  return startTestServer({
    ...rest,
    plugins: [...plugins, ...(extra ?? [])],
    overrides: (c) => {
      if (!productionTimings) c.replace(AutomationOptions, { ...c.get(AutomationOptions), ...TEST_ENGINE });
      overrides?.(c);
    },
  });
}
