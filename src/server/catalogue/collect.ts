import { DuplicateContributionError } from '../../core/registry';
import type { ServerPlugin } from '../plugin';
import contributionSchema from '../../../schemas/catalogue/catalogue-contribution.schema.json';
import type { CatalogueContribution, CombinationSeed, SolutionSeed, WorkflowSeed } from './types';
import { compileSchema } from '../http/schema-validation';
import { AI_CONNECTOR, type ConnectorDeclaration } from '../../core/catalogue/vocabulary';
import type { Connector } from '../../core/domain';
import { Connectors } from '../connections/kinds';

export interface Owned<T> {
  pluginId: string;
  entry: T;
}

/** A contributed combination whose connectors carry their declared catalogue id and name. */
export type CollectedCombination = Omit<CombinationSeed, 'connectors'> & { connectors: Connector[] };

/** Every catalogue entry of the running modules and plugins, each with its contributor. */
export interface CollectedCatalogue {
  solutions: Owned<SolutionSeed>[];
  workflows: Owned<WorkflowSeed>[];
  combinations: Owned<CollectedCombination>[];
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

/** A connector as the catalogue knows it: its declared catalogue id and name. */
export interface DeclaredConnector {
  catalogueId: number;
  name: string;
}

/**
 * The connectors combinations may name, built at start-up from the connectors the running
 * plugins declare (`Connectors`) and the product's own AI connector (AI_CONNECTOR): only these
 * give a connector its catalogue id and name. Two connectors claiming one catalogue id fail,
 * naming both.
 */
export function declaredConnectors(plugins: ServerPlugin[]): Map<string, DeclaredConnector> {
  const declared = new Map<string, DeclaredConnector>([[AI_CONNECTOR.id, { catalogueId: AI_CONNECTOR.catalogueId, name: AI_CONNECTOR.name }]]);
  const byCatalogueId = new Map<number, string>([[AI_CONNECTOR.catalogueId, AI_CONNECTOR.id]]);
  for (const p of plugins) {
    for (const e of p.contributes ?? []) {
      if (e.kind.id !== Connectors.id) continue;
      const d = e.value as Pick<ConnectorDeclaration, 'id' | 'name' | 'catalogueId'>;
      const same = declared.get(d.id);
      // the product's AI connector may be declared again (for its icon) with its own id and name
      if (same && same.catalogueId === d.catalogueId && same.name === d.name) continue;
      const holder = byCatalogueId.get(d.catalogueId);
      if (holder !== undefined && holder !== d.id) {
        throw new InvalidCatalogueError(p.id, `the connector "${d.id}" takes catalogue id ${d.catalogueId}, which the connector "${holder}" already has`);
      }
      if (same) throw new InvalidCatalogueError(p.id, `the connector "${d.id}" is declared twice, with different catalogue ids or names`);
      declared.set(d.id, { catalogueId: d.catalogueId, name: d.name });
      byCatalogueId.set(d.catalogueId, d.id);
    }
  }
  return declared;
}

/**
 * A combination's connectors with their declared id and name (the icon is the provider unless
 * the contribution gives one). Fails naming the provider when nobody declares it, or when the
 * contribution gives an id or a name other than the declared ones.
 */
function resolveConnectors(pluginId: string, c: CombinationSeed, declared: Map<string, DeclaredConnector>): Connector[] {
  return c.connectors.map((x) => {
    const d = declared.get(x.provider);
    if (!d) throw new InvalidCatalogueError(pluginId, `combination ${c.id} names the connector "${x.provider}", which no running plugin declares`);
    if ((x.id !== undefined && x.id !== d.catalogueId) || (x.name !== undefined && x.name !== d.name)) {
      throw new InvalidCatalogueError(
        pluginId,
        `combination ${c.id} gives the connector "${x.provider}" the id ${x.id ?? d.catalogueId} and name "${x.name ?? d.name}", but it is declared as ${d.catalogueId} "${d.name}"`,
      );
    }
    return { id: d.catalogueId, name: d.name, icon: x.icon ?? x.provider, provider: x.provider, order: x.order };
  });
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
 * connector no running plugin declares (declaredConnectors), when two
 * plugins (or one plugin twice) claim the same id, or when a combination repeats a connector.
 * Each combination's connectors get their declared catalogue id and name.
 */
export function collectCatalogue(plugins: ServerPlugin[]): CollectedCatalogue {
  const declared = declaredConnectors(plugins);
  const resolved = new Map<CombinationSeed, CollectedCombination>();
  for (const p of plugins) {
    if (p.catalogue === undefined) continue;
    if (!validateContribution(p.catalogue)) {
      const e = validateContribution.errors?.[0];
      throw new InvalidCatalogueError(p.id, `${e?.instancePath || '(root)'} ${e?.message ?? 'is not valid'}`);
    }
    for (const c of p.catalogue.combinations ?? []) {
      const connectors = resolveConnectors(p.id, c, declared);
      const ids = connectors.map((x) => x.id);
      if (new Set(ids).size !== ids.length) throw new InvalidCatalogueError(p.id, `combination ${c.id} lists a connector twice`);
      resolved.set(c, { ...c, connectors });
    }
  }
  return {
    solutions: collectKind('Solution', plugins, (c) => c.solutions),
    workflows: collectKind('Workflow', plugins, (c) => c.workflows),
    combinations: collectKind('Combination', plugins, (c) => c.combinations?.map((x) => resolved.get(x)!)),
  };
}
