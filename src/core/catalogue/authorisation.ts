import type { Combination, Connector, ProviderConnection } from '../domain';
import type { AuthorisationRule, ConnectorContribution } from '../plugin';

/** What authorisation needs from the plugin registry (kept small so tests can pass plain objects). */
export interface AuthorisationSource {
  /** the AuthorisationRule a plugin contributed for this combination id */
  ruleFor(combinationId: number): AuthorisationRule | undefined;
  /** the connector contributed for a provider id */
  connectorFor(provider: string): Pick<ConnectorContribution, 'needsAuthorisation'> | undefined;
}

/** Builds the source from the registry's keyed contributions (PluginRegistry or a fake). */
export function authorisationSourceFrom(registry: {
  authorisationRules: { get(key: string | number): AuthorisationRule | undefined };
  connectors: { get(key: string | number): Pick<ConnectorContribution, 'needsAuthorisation'> | undefined };
}): AuthorisationSource {
  return {
    ruleFor: (id) => registry.authorisationRules.get(id),
    connectorFor: (provider) => registry.connectors.get(provider),
  };
}

export const CONNECTED_STATUS = 'success';

/** A connection counts only when its authorization_status is 'success' (null means not connected). */
export function isConnected(connections: readonly ProviderConnection[], provider: string): boolean {
  return connections.some((c) => c.provider === provider && c.authorization_status === CONNECTED_STATUS);
}

/**
 * Whether a connector must be authorised before its combination counts as authorised.
 * A provider contributed by a plugin says so itself (needsAuthorisation). A provider no plugin
 * contributes is treated as needing a connection: we cannot tell, and claiming "authorised"
 * for a connector nobody can connect would be wrong.
 */
export function connectorNeedsAuthorisation(source: AuthorisationSource, connector: Pick<Connector, 'provider'>): boolean {
  return source.connectorFor(connector.provider)?.needsAuthorisation ?? true;
}

/**
 * Whether the user's provider connections authorise a combination (spec section 4,
 * Authorisation). A plugin's AuthorisationRule decides when one exists (9: xero; 1: google_drive
 * or google_sheets; 8, 10, 11: always). Default for every other combination: authorised when each
 * of its connectors that needs authorisation has a successful connection, so a combination
 * made only of manual upload / e-mail / AI steps is always authorised.
 */
export function isAuthorised(
  combination: Pick<Combination, 'id' | 'connectors'>,
  connections: readonly ProviderConnection[],
  source: AuthorisationSource,
): boolean {
  const rule = source.ruleFor(combination.id);
  if (rule) return rule.isAuthorised([...connections]);
  return (combination.connectors ?? []).filter((c) => connectorNeedsAuthorisation(source, c)).every((c) => isConnected(connections, c.provider));
}

/**
 * The Active Connections counter: each authorised combination adds its rule's
 * activeConnectionsWeight (1 for 9, 2 for 1); combinations without a rule add nothing.
 */
export function activeConnectionsCount(
  combinations: readonly Pick<Combination, 'id' | 'connectors'>[],
  connections: readonly ProviderConnection[],
  source: AuthorisationSource,
): number {
  let total = 0;
  for (const c of combinations) {
    const rule = source.ruleFor(c.id);
    if (rule && rule.activeConnectionsWeight && isAuthorised(c, connections, source)) total += rule.activeConnectionsWeight;
  }
  return total;
}

/** Copies each combination with the client-computed `authed` field set. */
export function withAuthorisation<C extends Combination>(
  combinations: readonly C[],
  connections: readonly ProviderConnection[],
  source: AuthorisationSource,
): C[] {
  return combinations.map((c) => ({ ...c, authed: isAuthorised(c, connections, source) }));
}
