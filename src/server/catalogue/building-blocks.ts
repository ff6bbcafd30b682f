import { AI_CONNECTOR, TRIGGERS, type ConnectorDeclaration, type ConnectorKind, type TriggerKind } from '../../core/catalogue/vocabulary';
import type { ConnectorSeed, TriggerSeed } from './types';

/**
 * Builds a combination's connectors and triggers. A connector is named by its provider only: the
 * catalogue gives it the numeric id and name of the connector a plugin declares with that
 * provider (`Connectors`, see collect.ts), so a connector keeps one id and name in every
 * combination; triggers come from the core's vocabulary (src/core/catalogue/vocabulary.ts).
 */
export { AI_PROVIDER, SOLUTIONS, type ConnectorKind, type TriggerKind } from '../../core/catalogue/vocabulary';
export const AI_PROVIDER_NAME = AI_CONNECTOR.name;

/**
 * The connectors of a combination, in the order given (order 1, 2, 3...), each by its provider
 * id ('google_drive') or by the declaration of a connector the plugin declares itself.
 */
export function connectors(...kinds: Array<ConnectorKind | Pick<ConnectorDeclaration, 'id'>>): ConnectorSeed[] {
  return kinds.map((k, i) => ({ provider: typeof k === 'string' ? k : k.id, order: i + 1 }));
}

export function trigger(kind: TriggerKind): TriggerSeed {
  return { ...TRIGGERS[kind] };
}
