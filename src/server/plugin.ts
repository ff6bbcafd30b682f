import type { FastifyInstance } from 'fastify';
import type { ContributionEntry, ContributionKind } from '../core/contributions';
import type { ServiceOf, Token } from '../core/di';
import type { ServiceProvision } from '../core/plugin';
import type { Migration } from './db/migrate';
import type { CatalogueContribution } from './catalogue/types';
import type { JobContext } from './queue/job-queue';
import type { ActionDefinition, TriggerDefinition } from './automation/kinds';

/** What a plugin's `steps(deps)` returns: actions, triggers, or contributions to any kind. */
export type PluginStep = ActionDefinition | TriggerDefinition | ContributionEntry<any>;

/** What a plugin asks for: a name per token, `{ db: Db, queue: JobQueue }`. */
export type Needs = Record<string, Token<any>>;
/** The typed services a plugin receives for its needs. */
export type DepsOf<N extends Needs> = { [K in keyof N]: ServiceOf<N[K]> };

/** A plugin's job handler: the job's data, the plugin's services, and the job itself (its id, try and progress reporter). */
export type PluginJobHandler<D = unknown> = (data: any, deps: D, job: JobContext) => Promise<unknown>;

/** A job handler, alone (one job of that name at a time per process) or with its concurrency. */
export type JobHandlerDefinition<D = unknown> = PluginJobHandler<D> | { handler: PluginJobHandler<D>; concurrency?: number };

/**
 * The server-side plugin contract: `plugins/<name>/server.ts` default-exports
 * `defineServerPlugin({...})`. It is discovered at start-up; no central list is edited.
 *
 * A plugin never sees the container. It names what it needs (`needs: { db: Db, log: Logger }`,
 * tokens from `src/server` or from another plugin) and receives those services, typed, in
 * `routes`, `jobs`, `onStart` and `onStop`. It may provide services of its own (`provides`) and
 * declare contribution kinds that other plugins fill (`declares` / `contributes`).
 *
 * Routes are registered in the plugin's own Fastify scope. A plugin's routes are either one of
 * the spec's fixed API paths (src/server/http/spec-paths.ts) or live under
 * `/api/plugins/{id}/`; anything else fails start-up. `auth: 'user'` on a route authenticates
 * before the body is read or validated.
 */
export interface ServerPlugin<N extends Needs = any> {
  id: string;
  needs?: N;
  /** Services this plugin adds to the container: `provide(InvoiceExtractor, (get) => …)`. */
  provides?: ServiceProvision<any>[];
  /** Contribution kinds this plugin declares (the engine's actions and triggers, …). */
  declares?: ContributionKind<any>[];
  /** Contributions to any declared kind. */
  contributes?: ContributionEntry<any>[];
  /**
   * Engine steps and triggers (and other contributions) built once the plugin's `needs` are
   * resolved: `steps: ({ analyser }) => [defineAction({ ..., run: (input, ctx) => analyser.analyse(...) })]`.
   * An action (with `run` or made by defineAction) becomes an AutomationActions contribution, a
   * trigger (defineTrigger, or a polled trigger) an AutomationTriggers one; a `contribute(Kind, v)`
   * entry goes to its kind. Each typed step gets these services as `ctx.services`.
   */
  steps?: (deps: DepsOf<N>) => PluginStep[];
  /** Database migrations, ids prefixed with the plugin id ('<id>/0001_name'). */
  migrations?: Migration[];
  /** API routes, in the plugin's own scope. */
  routes?: (app: FastifyInstance, deps: DepsOf<N>) => void | Promise<void>;
  /** Catalogue entries (solutions, workflows, combinations) upserted at start-up. */
  catalogue?: CatalogueContribution;
  /** Job handlers keyed by job name; give `{ handler, concurrency }` to run several at once. */
  jobs?: Record<string, JobHandlerDefinition<DepsOf<N>>>;
  onStart?: (deps: DepsOf<N>) => void | Promise<void>;
  onStop?: (deps: DepsOf<N>) => void | Promise<void>;
}

export type AnyServerPlugin = ServerPlugin<any>;

export function defineServerPlugin<N extends Needs = {}>(plugin: ServerPlugin<N>): ServerPlugin<N> {
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

/** The prefix of a plugin's own (non-spec) API routes. */
export function pluginApiPrefix(pluginId: string): string {
  return `/api/plugins/${pluginId}/`;
}
