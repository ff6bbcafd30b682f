/**
 * The kernel's public face: what plugins (and both runtimes) import from src/core. Plugins never
 * import a deeper path (tests/unit/core/public-faces.test.ts enforces it).
 */
export * from './domain';
export * from './di';
export * from './services';
export * from './contributions';
export * from './event-bus';
export * from './catalogue/vocabulary';
export * from './validation-messages';
export * from './labels';
export {
  definePlugin as defineCorePlugin,
  provide,
  BASIC_VIEW_KEY,
  CombinationLinks,
  type CombinationLinkContribution,
  DEFAULT_VIEW_KEY,
  type AuthorisationRule,
  type ConnectorContribution,
  type CostTierContribution,
  type FormComponentContribution,
  type PluginManifest,
  type PluginStartContext,
  type RouteAccess,
  type RouteContribution,
  type ServiceProvision,
  type ViewLoader,
} from './plugin';
export * from './python-literal';
export * from './hash';
export * from './catalogue';
