import { DuplicateContributionError } from '../../core/registry';
import type { ServerPlugin } from '../plugin';
import contributionSchema from '../../../schemas/catalogue/catalogue-contribution.schema.json';
import type { CatalogueContribution, CombinationSeed, SolutionSeed, WorkflowSeed } from './types';
import { compileSchema } from '../http/schema-validation';
import { CONNECTORS } from '../../core/catalogue/vocabulary';
import { Connectors } from '../connections/kinds';

export interface Owned<T> {
  pluginId: string;
  entry: T;
}

/** Every catalogue entry of the running modules and plugins, each with its contributor. */
export interface CollectedCatalogue {
  solutions: Owned<SolutionSeed>[];
  workflows: Owned<WorkflowSeed>[];
  combinations: Owned<CombinationSeed>[];
}

export class InvalidCatalogueError extends Error {
  constructor(
    readonly pluginId: string,
    detail: string,
  ) {
    super(`The catalogue of plugin "${pluginId}" is not valid: ${detail}`);
    this.name = 'InvalidCatalogueError';
  }
}

const validateContribution = compileSchema<CatalogueContribution>(contributionSchema);

/**
 * The providers a combination may name, built at start-up: the catalogue's built-in terms, every
 * connector a running plugin declares (`Connectors`), and the AI providers (`*_ai`).
 */
export function knownProviders(plugins: ServerPlugin[]): (provider: string) => boolean {
  const known = new Set<string>(Object.keys(CONNECTORS));
  for (const p of plugins) for (const e of p.contributes ?? []) if (e.kind.id === Connectors.id) known.add((e.value as { id: string }).id);
  return (provider) => known.has(provider) || /^[a-z0-9]+_ai$/.test(provider);
}

function collectKind<T extends { id: number }>(kind: string, plugins: ServerPlugin[], pick: (c: CatalogueContribution) => T[] | undefined): Owned<T>[] {
  const owners = new Map<number, string>();
  const out: Owned<T>[] = [];
  for (const p of plugins) {
    for (const entry of (p.catalogue && pick(p.catalogue)) ?? []) {
      const previous = owners.get(entry.id);
      if (previous === p.id) throw new InvalidCatalogueError(p.id, `${kind} ${entry.id} is listed twice`);
      if (previous !== undefined) throw new DuplicateContributionError(kind, String(entry.id), previous, p.id);
      owners.set(entry.id, p.id);
      out.push({ pluginId: p.id, entry });
    }
  }
  return out.sort((a, b) => a.entry.id - b.entry.id);
}

/**
 * Checks and gathers the catalogue entries of all modules and plugins. Fails start-up when a
 * contribution does not match schemas/catalogue/catalogue-contribution.schema.json or names a
 * connector no running plugin declares (knownProviders), when two
 * plugins (or one plugin twice) claim the same id, or when a combination repeats a connector.
 */
export function collectCatalogue(plugins: ServerPlugin[]): CollectedCatalogue {
  const isKnown = knownProviders(plugins);
  for (const p of plugins) {
    if (p.catalogue === undefined) continue;
    if (!validateContribution(p.catalogue)) {
      const e = validateContribution.errors?.[0];
      throw new InvalidCatalogueError(p.id, `${e?.instancePath || '(root)'} ${e?.message ?? 'is not valid'}`);
    }
    for (const c of p.catalogue.combinations ?? []) {
      const ids = c.connectors.map((x) => x.id);
      if (new Set(ids).size !== ids.length) throw new InvalidCatalogueError(p.id, `combination ${c.id} lists a connector twice`);
      const unknown = c.connectors.find((x) => !isKnown(x.provider));
      if (unknown) throw new InvalidCatalogueError(p.id, `combination ${c.id} names the connector "${unknown.provider}", which no running plugin declares`);
    }
  }
  return {
    solutions: collectKind('Solution', plugins, (c) => c.solutions),
    workflows: collectKind('Workflow', plugins, (c) => c.workflows),
    combinations: collectKind('Combination', plugins, (c) => c.combinations),
  };
}
