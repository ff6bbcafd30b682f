import type { PricingTier } from './domain';
import { ContributionRegistry, type ContributionKind } from './contributions';
import {
  AuthorisationRules,
  BASIC_VIEW_KEY,
  CombinationViews,
  Connectors,
  CORE_CLIENT_KINDS,
  CostTiers,
  DEFAULT_VIEW_KEY,
  FormFields,
  FormWidgets,
  manifestContributions,
  PerRequestPrices,
  Routes,
  WorkflowViews,
  type AuthorisationRule,
  type ConnectorContribution,
  type FormComponentContribution,
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
 * Every plugin manifest's contributions, by kind: the core's kinds plus any kind a plugin
 * declares. Built once per container; a key claimed twice fails here with an error naming both
 * plugins. The named accessors are typed views of the core's kinds.
 */
export class PluginRegistry<C = unknown> {
  readonly plugins = new KeyedRegistry<PluginManifest<C>>('Plugin');
  readonly contributions: ContributionRegistry;

  constructor(manifests: PluginManifest<C>[]) {
    for (const m of manifests) this.plugins.register(m.id, m, m.id);
    this.contributions = new ContributionRegistry(
      manifests.map((m) => ({ id: m.id, declares: m.declares, contributes: manifestContributions(m as PluginManifest<unknown>) })),
      CORE_CLIENT_KINDS,
    );
  }

  /** The keyed contributions of any kind, the core's or a plugin's. */
  of<V>(kind: ContributionKind<V>): KeyedRegistry<V> {
    return this.contributions.of(kind);
  }

  get workflowViews() {
    return this.of(WorkflowViews) as KeyedRegistry<ViewLoader<C>>;
  }
  get combinationViews() {
    return this.of(CombinationViews) as KeyedRegistry<ViewLoader<C>>;
  }
  get authorisationRules(): KeyedRegistry<AuthorisationRule> {
    return this.of(AuthorisationRules);
  }
  get costTiers(): KeyedRegistry<Omit<PricingTier, 'per_request'>> {
    return this.of(CostTiers);
  }
  get perRequestPrices(): KeyedRegistry<number> {
    return this.of(PerRequestPrices);
  }
  get connectors() {
    return this.of(Connectors) as KeyedRegistry<ConnectorContribution<C>>;
  }
  get routes() {
    return this.of(Routes) as KeyedRegistry<RouteContribution<C>>;
  }
  get formFields() {
    return this.of(FormFields) as KeyedRegistry<FormComponentContribution<C>>;
  }
  get formWidgets() {
    return this.of(FormWidgets) as KeyedRegistry<FormComponentContribution<C>>;
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
