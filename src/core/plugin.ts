import type { PricingTier, ProviderConnection } from './domain';

/**
 * The browser-side plugin contract (Backstage-style declarative manifest).
 * Plugin authors never touch the DI container: the shell turns manifests into bindings and
 * registries. `C` is the view type (a React component in the browser shell); the core stays
 * free of React.
 */
export interface ViewLoader<C = unknown> {
  /** Lazily loads the view module: `load: () => import('./ReconciliationView')`. */
  load: () => Promise<{ default: C }>;
}

export interface AuthorisationRule {
  combinationId: number;
  /** Whether the user's provider connections authorise this combination. */
  isAuthorised(connections: ProviderConnection[]): boolean;
  /** What an authorised combination adds to the Active Connections counter. */
  activeConnectionsWeight: number;
}

export interface ConnectorContribution<C = unknown> {
  /** provider id, e.g. google_drive */
  provider: string;
  name: string;
  icon: string;
  /** true when the connector needs an OAuth authorisation (google_drive, xero...) */
  needsAuthorisation: boolean;
  widget?: ViewLoader<C>;
}

export type RouteAccess = 'public' | 'login' | 'anonymous-only';

export interface RouteContribution<C = unknown> {
  path: string;
  access: RouteAccess;
  title?: string;
  view: ViewLoader<C>;
}

export interface CostTierContribution {
  tiers?: Omit<PricingTier, 'per_request'>[];
  /** per-request price by combination id, or 'default' */
  perRequest?: Record<string, number>;
}

/** Key under which the basic setup view is registered (combination name contains 'basic'). */
export const BASIC_VIEW_KEY = 'basic';
/** Key under which the view for every other combination is registered. */
export const DEFAULT_VIEW_KEY = 'default';

export interface PluginManifest<C = unknown> {
  id: string;
  /** Workflow pages keyed by workflow id (10002, 10004, 10006, 10011...). */
  workflowViews?: Record<string, ViewLoader<C>>;
  /** Combination setup views keyed by combination id, or 'basic' / 'default'. */
  combinationViews?: Record<string, ViewLoader<C>>;
  authorisationRules?: AuthorisationRule[];
  costTiers?: CostTierContribution;
  connectors?: ConnectorContribution<C>[];
  routes?: RouteContribution<C>[];
}

export function definePlugin<C = unknown>(manifest: PluginManifest<C>): PluginManifest<C> {
  if (!manifest.id || !/^[a-z0-9][a-z0-9-]*$/.test(manifest.id)) {
    throw new Error(`Plugin id "${manifest.id}" must be kebab-case`);
  }
  return manifest;
}
