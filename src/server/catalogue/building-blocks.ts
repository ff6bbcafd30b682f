import { AI_PROVIDER, CONNECTORS, TRIGGERS, type ConnectorDeclaration, type ConnectorKind, type TriggerKind } from '../../core/catalogue/vocabulary';
import type { ConnectorSeed, TriggerSeed } from './types';

/**
 * Builds a combination's connectors and triggers from the core's one vocabulary
 * (src/core/catalogue/vocabulary.ts), so a connector keeps one id and name in every combination.
 */
export { AI_PROVIDER, SOLUTIONS, type ConnectorKind, type TriggerKind } from '../../core/catalogue/vocabulary';
export const AI_PROVIDER_NAME = CONNECTORS[AI_PROVIDER].name;

/**
 * The connectors of a combination, in the order given (order 1, 2, 3...): a built-in term by its
 * provider ('google_drive') or a connector the plugin declares itself (its ConnectorDeclaration).
 */
export function connectors(...kinds: Array<ConnectorKind | Pick<ConnectorDeclaration, 'id' | 'name' | 'catalogueId'>>): ConnectorSeed[] {
  return kinds.map((k, i) => {
    const { id, name, provider } = typeof k === 'string' ? CONNECTORS[k] : { id: k.catalogueId, name: k.name, provider: k.id };
    return { id, name, icon: provider, provider, order: i + 1 };
  });
}

export function trigger(kind: TriggerKind): TriggerSeed {
  return { ...TRIGGERS[kind] };
}
