import {
  AI_CONNECTOR,
  type CatalogueTriggerDeclaration,
  type ConnectorDeclaration,
  type ConnectorKind,
  type TriggerKind,
} from '../../core/catalogue/vocabulary';
import type { ConnectorSeed, TriggerSeed } from './types';

/**
 * Builds a combination's connectors and triggers. A connector is named by its provider only: the
 * catalogue gives it the numeric id and name of the connector a plugin declares with that
 * provider (`Connectors`, see collect.ts), so a connector keeps one id and name in every
 * combination. A trigger likewise is named by its id only: the catalogue gives it the id, name
 * and icon of the engine's built-in trigger (BUILTIN_TRIGGERS) or of the trigger a plugin
 * declares (`CatalogueTriggers`) with that id.
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

/** A trigger of a combination, by its id ('file_uploaded') or by the declaration of a trigger the plugin declares itself. */
export function trigger(kind: TriggerKind | Pick<CatalogueTriggerDeclaration, 'id'>): TriggerSeed {
  return { kind: typeof kind === 'string' ? kind : kind.id };
}
