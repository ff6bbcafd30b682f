import type { PricingTier } from './domain';
import {
  BASIC_VIEW_KEY,
  DEFAULT_VIEW_KEY,
  type AuthorisationRule,
  type ConnectorContribution,
  type PluginManifest,
  type RouteContribution,
  type ViewLoader,
} from './plugin';
import { DuplicateContributionError, KeyedRegistry } from './registry';

/** True when the combination name contains the word "basic" (any case). */
export function isBasicCombination(name: string): boolean {
  return /\bbasic\b/i.test(name);
}

/**
 * Collects every plugin manifest into keyed registries. Built once per container;
 * duplicate keys fail here with an error naming both plugins.
 */
export class PluginRegistry<C = unknown> {
  readonly plugins = new KeyedRegistry<PluginManifest<C>>('Plugin');
  readonly workflowViews = new KeyedRegistry<ViewLoader<C>>('Workflow view');
  readonly combinationViews = new KeyedRegistry<ViewLoader<C>>('Combination view');
  readonly authorisationRules = new KeyedRegistry<AuthorisationRule>('Authorisation rule');
  readonly costTiers = new KeyedRegistry<Omit<PricingTier, 'per_request'>>('Cost tier');
  readonly perRequestPrices = new KeyedRegistry<number>('Per-request price');
  readonly connectors = new KeyedRegistry<ConnectorContribution<C>>('Connector');
  readonly routes = new KeyedRegistry<RouteContribution<C>>('Route');

  constructor(manifests: PluginManifest<C>[]) {
    for (const m of manifests) this.add(m);
  }

  private add(m: PluginManifest<C>): void {
    this.plugins.register(m.id, m, m.id);
    for (const [k, v] of Object.entries(m.workflowViews ?? {})) this.workflowViews.register(k, v, m.id);
    for (const [k, v] of Object.entries(m.combinationViews ?? {})) this.combinationViews.register(k, v, m.id);
    for (const r of m.authorisationRules ?? []) this.authorisationRules.register(r.combinationId, r, m.id);
    for (const t of m.costTiers?.tiers ?? []) this.costTiers.register(t.numbers, t, m.id);
    for (const [k, v] of Object.entries(m.costTiers?.perRequest ?? {})) this.perRequestPrices.register(k, v, m.id);
    for (const c of m.connectors ?? []) this.connectors.register(c.provider, c, m.id);
    for (const r of m.routes ?? []) this.routes.register(r.path, r, m.id);
  }

  /** The setup view for a combination: by id, else 'basic' for basic variants, else 'default'. */
  combinationViewFor(combination: { id: number; name: string }): ViewLoader<C> | undefined {
    return (
      this.combinationViews.get(combination.id) ??
      (isBasicCombination(combination.name) ? this.combinationViews.get(BASIC_VIEW_KEY) : undefined) ??
      this.combinationViews.get(DEFAULT_VIEW_KEY)
    );
  }
}

export { DuplicateContributionError };
