import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { DuplicateContributionError } from '../core/registry';
import type { ServerPlugin } from './plugin';

const ENTRY_NAMES = ['server.ts', 'server.js'];

/**
 * Discovers server plugins: every folder under `pluginsDir` with a server.ts is loaded.
 * Folders are read in name order so start-up is deterministic. Two plugins with one id fail.
 */
export async function discoverServerPlugins(pluginsDir: string): Promise<ServerPlugin[]> {
  if (!existsSync(pluginsDir)) return [];
  const plugins: ServerPlugin[] = [];
  const owners = new Map<string, string>();
  for (const name of readdirSync(pluginsDir).sort()) {
    const dir = path.join(pluginsDir, name);
    if (!statSync(dir).isDirectory()) continue;
    const entry = ENTRY_NAMES.map((f) => path.join(dir, f)).find((f) => existsSync(f));
    if (!entry) continue;
    const mod = await import(entry);
    const plugin: ServerPlugin | undefined = mod.default?.default ?? mod.default ?? mod.plugin;
    if (!plugin || typeof plugin.id !== 'string') {
      throw new Error(`plugins/${name}/server.ts must default-export defineServerPlugin({...})`);
    }
    const previous = owners.get(plugin.id);
    if (previous) throw new DuplicateContributionError('Server plugin', plugin.id, previous, name);
    owners.set(plugin.id, name);
    plugins.push(plugin);
  }
  return plugins;
}
