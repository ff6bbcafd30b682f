import type { FastifyInstance } from 'fastify';
import type { Container } from 'inversify';
import type { Migration } from './db/migrate';
import type { CatalogueContribution } from './catalogue/types';

/** What a server plugin's route registration receives. */
export interface ServerPluginContext {
  container: Container;
}

export type PluginJobHandler = (data: any, ctx: ServerPluginContext) => Promise<unknown>;

/** A job handler, alone (one job of that name at a time per process) or with its concurrency. */
export type JobHandlerDefinition = PluginJobHandler | { handler: PluginJobHandler; concurrency?: number };

/**
 * The server-side plugin contract: `plugins/<name>/server.ts` default-exports
 * `defineServerPlugin({...})`. It is discovered at start-up; no central list is edited.
 */
export interface ServerPlugin {
  id: string;
  /** Bind or rebind services in the server container (runs before routes are registered). */
  bindings?: (container: Container) => void | Promise<void>;
  /** Database migrations, ids prefixed with the plugin id ('<id>/0001_name'). */
  migrations?: Migration[];
  /** API routes; called inside the /api scope-free root instance. */
  routes?: (app: FastifyInstance, ctx: ServerPluginContext) => void | Promise<void>;
  /** Catalogue entries (solutions, workflows, combinations) upserted at start-up. */
  catalogue?: CatalogueContribution;
  /** Job handlers keyed by job name; give `{ handler, concurrency }` to run several at once. */
  jobs?: Record<string, JobHandlerDefinition>;
  onStart?: (ctx: ServerPluginContext) => void | Promise<void>;
  onStop?: (ctx: ServerPluginContext) => void | Promise<void>;
}

export function defineServerPlugin(plugin: ServerPlugin): ServerPlugin {
  if (!plugin.id || !/^[a-z0-9][a-z0-9-]*$/.test(plugin.id)) {
    throw new Error(`Server plugin id "${plugin.id}" must be kebab-case`);
  }
  for (const m of plugin.migrations ?? []) {
    if (!m.id.startsWith(`${plugin.id}/`)) {
      throw new Error(`Migration "${m.id}" of plugin "${plugin.id}" must start with "${plugin.id}/"`);
    }
  }
  return plugin;
}
