import type { PricingTier, ProviderConnection } from './domain';
import { contribute, contributionKind, type ContributionEntry, type ContributionKind } from './contributions';
import type { Resolve, Token } from './di';
import type { EventBus } from './event-bus';

/**
 * The browser-side plugin contract (Backstage-style declarative manifest).
 * Plugin authors never touch the DI container: the shell turns manifests into bindings and
 * registries. `C` is the view type (a React component in the browser shell); the core stays
 * free of React.
 *
 * The named fields (workflowViews, routes, …) are shorthands for contributions to the core's
 * kinds below; `declares` and `contributes` take any other kind, including kinds declared by
 * other plugins.
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

/** A named rjsf field or widget (`"ui:field": "csv-headers"` in a uiSchema). */
export interface FormComponentContribution<C = unknown> {
  name: string;
  component: C;
}

/**
 * A link a plugin adds to combination cards, e.g. Monitoring on a running combination. `to`
 * gives the in-app path for a combination, or undefined to leave that card without the link.
 */
export interface CombinationLinkContribution {
  id: string;
  label: string;
  to(combination: { id: number; workflow_id: number; name: string; running: boolean }): string | undefined;
}

/** A service a plugin adds to the container, built lazily from other services. */
export interface ServiceProvision<T = unknown> {
  token: Token<T>;
  factory: (get: Resolve) => T;
}

export function provide<T>(token: Token<T>, factory: (get: Resolve) => T): ServiceProvision<T> {
  return { token, factory };
}

/** What a plugin's start hook receives: typed service lookup and the event bus. */
export interface PluginStartContext {
  get: Resolve;
  events: EventBus;
}

/** Key under which the basic setup view is registered (combination name contains 'basic'). */
export const BASIC_VIEW_KEY = 'basic';
/** Key under which the view for every other combination is registered. */
export const DEFAULT_VIEW_KEY = 'default';

/** The contribution kinds the browser shell declares itself. */
export const WorkflowViews = contributionKind<ViewLoader>('workflow-view', 'Workflow view');
export const CombinationViews = contributionKind<ViewLoader>('combination-view', 'Combination view');
export const AuthorisationRules = contributionKind<AuthorisationRule>('authorisation-rule', 'Authorisation rule', (r) => r.combinationId);
export const CostTiers = contributionKind<Omit<PricingTier, 'per_request'>>('cost-tier', 'Cost tier', (t) => t.numbers);
export const PerRequestPrices = contributionKind<number>('per-request-price', 'Per-request price');
export const Connectors = contributionKind<ConnectorContribution>('connector', 'Connector', (c) => c.provider);
export const Routes = contributionKind<RouteContribution>('route', 'Route', (r) => r.path);
export const FormFields = contributionKind<FormComponentContribution>('form-field', 'Form field', (f) => f.name);
export const FormWidgets = contributionKind<FormComponentContribution>('form-widget', 'Form widget', (w) => w.name);
export const CombinationLinks = contributionKind<CombinationLinkContribution>('combination-link', 'Combination link', (l) => l.id);

export const CORE_CLIENT_KINDS: ContributionKind<any>[] = [
  WorkflowViews,
  CombinationViews,
  AuthorisationRules,
  CostTiers,
  PerRequestPrices,
  Connectors,
  Routes,
  FormFields,
  FormWidgets,
  CombinationLinks,
];

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
  /** Named rjsf fields and widgets, usable by any form's uiSchema. */
  formFields?: Record<string, C>;
  formWidgets?: Record<string, C>;
  /** Services this plugin adds to the container (`provide(Token, (get) => new Impl(get(Other)))`). */
  services?: ServiceProvision<any>[];
  /** Runs once when the shell starts (subscribe to the event bus here); may return a stop function. */
  onStart?: (ctx: PluginStartContext) => void | (() => void);
  /** Contribution kinds this plugin declares for other plugins to fill. */
  declares?: ContributionKind<any>[];
  /** Contributions to any declared kind. */
  contributes?: ContributionEntry<any>[];
}

/** The manifest's shorthand fields as contributions to the core kinds, then its own. */
export function manifestContributions(m: PluginManifest<unknown>): ContributionEntry<unknown>[] {
  const out: ContributionEntry<any>[] = [];
  for (const [k, v] of Object.entries(m.workflowViews ?? {})) out.push(contribute(WorkflowViews, v, k));
  for (const [k, v] of Object.entries(m.combinationViews ?? {})) out.push(contribute(CombinationViews, v, k));
  for (const r of m.authorisationRules ?? []) out.push(contribute(AuthorisationRules, r));
  for (const t of m.costTiers?.tiers ?? []) out.push(contribute(CostTiers, t));
  for (const [k, v] of Object.entries(m.costTiers?.perRequest ?? {})) out.push(contribute(PerRequestPrices, v, k));
  for (const c of m.connectors ?? []) out.push(contribute(Connectors, c as ConnectorContribution));
  for (const r of m.routes ?? []) out.push(contribute(Routes, r as RouteContribution));
  for (const [name, component] of Object.entries(m.formFields ?? {})) out.push(contribute(FormFields, { name, component }));
  for (const [name, component] of Object.entries(m.formWidgets ?? {})) out.push(contribute(FormWidgets, { name, component }));
  return [...out, ...(m.contributes ?? [])];
}

export function definePlugin<C = unknown>(manifest: PluginManifest<C>): PluginManifest<C> {
  if (!manifest.id || !/^[a-z0-9][a-z0-9-]*$/.test(manifest.id)) {
    throw new Error(`Plugin id "${manifest.id}" must be kebab-case`);
  }
  return manifest;
}
