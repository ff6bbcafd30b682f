import { AI_PROVIDER, CONNECTORS, TRIGGERS, type ConnectorKind, type TriggerKind } from '../../core/catalogue/vocabulary';
import type { ConnectorSeed, TriggerSeed } from './types';

/**
 * Builds a combination's connectors and triggers from the core's one vocabulary
 * (src/core/catalogue/vocabulary.ts), so a connector keeps one id and name in every combination.
 */
export { AI_PROVIDER, SOLUTIONS, type ConnectorKind, type TriggerKind } from '../../core/catalogue/vocabulary';
export const AI_PROVIDER_NAME = CONNECTORS[AI_PROVIDER].name;

/** The connectors of a combination, in the order given (order 1, 2, 3...). */
export function connectors(...kinds: ConnectorKind[]): ConnectorSeed[] {
  return kinds.map((k, i) => {
    const { id, name, provider } = CONNECTORS[k];
    return { id, name, icon: provider, provider, order: i + 1 };
  });
}

export function trigger(kind: TriggerKind): TriggerSeed {
  return { ...TRIGGERS[kind] };
}
