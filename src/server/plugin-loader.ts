import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { DuplicateContributionError } from '../core/registry';
import type { ContributionEntry } from '../core/contributions';
import { AutomationActions, AutomationTriggers, type ActionDefinition, type TriggerDefinition } from './automation/kinds';
import type { PluginStep, ServerPlugin } from './plugin';

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

function isEntry(step: PluginStep): step is ContributionEntry<unknown> {
  const e = step as Partial<ContributionEntry<unknown>>;
  return !!e.kind && typeof e.kind === 'object' && typeof e.kind.id === 'string' && 'value' in e;
}

/**
 * The contributions of a plugin's `steps(deps)`, built once its needs are resolved (buildServer
 * adds them to the registry before any route, job or start hook runs): actions to
 * AutomationActions, each carrying the plugin's services for its `ctx.services`, triggers to
 * AutomationTriggers, entries as they are.
 */
export function stepContributions(plugin: Pick<ServerPlugin, 'id' | 'steps'>, deps: unknown): ContributionEntry<unknown>[] {
  if (!plugin.steps) return [];
  const out: ContributionEntry<unknown>[] = [];
  for (const step of plugin.steps(deps as never)) {
    if (isEntry(step)) out.push(step);
    else if (typeof (step as ActionDefinition).run === 'function')
      out.push({ kind: AutomationActions, value: { ...(step as ActionDefinition), services: deps } } as ContributionEntry<unknown>);
    else if (typeof (step as TriggerDefinition).provider === 'string') out.push({ kind: AutomationTriggers, value: step } as ContributionEntry<unknown>);
    else throw new Error(`Plugin "${plugin.id}": steps() returned something that is neither an action, a trigger nor a contribution`);
  }
  return out;
}
