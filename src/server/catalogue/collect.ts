import { DuplicateContributionError } from '../../core/registry';
import type { ServerPlugin } from '../plugin';
import contributionSchema from '../../../schemas/catalogue/catalogue-contribution.schema.json';
import type { CatalogueContribution, CombinationSeed, SolutionSeed, WorkflowSeed } from './types';
import { compileSchema } from '../http/schema-validation';
import { AI_CONNECTOR, BUILTIN_TRIGGERS, type CatalogueTriggerDeclaration, type ConnectorDeclaration } from '../../core/catalogue/vocabulary';
import type { Connector, Trigger } from '../../core/domain';
import { Connectors } from '../connections/kinds';
import { CatalogueTriggers } from './kinds';

export interface Owned<T> {
  pluginId: string;
  entry: T;
}

/** A contributed combination whose connectors and triggers carry their declared catalogue ids and names. */
export type CollectedCombination = Omit<CombinationSeed, 'connectors' | 'triggers'> & { connectors: Connector[]; triggers: Trigger[] };

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

/** A trigger as the catalogue knows it: its declared catalogue id, name and icon. */
export interface DeclaredTrigger extends DeclaredConnector {
  icon: string;
}

type Term = Pick<ConnectorDeclaration, 'id' | 'name' | 'catalogueId'> & { icon?: string };

/**
 * The terms of one kind (connectors or triggers) combinations may name: the core's own
 * (`builtins`) and those the running plugins contribute as `kindId`. A term declared again with
 * the same values is the same term; two terms claiming one catalogue id fail, naming both, and so
 * does one id declared twice with other values (`differ` says which).
 */
function declaredTerms<D extends DeclaredConnector>(
  what: 'connector' | 'trigger',
  kindId: string,
  plugins: ServerPlugin[],
  builtins: readonly Term[],
  pick: (t: Term) => D,
  differ: string,
): Map<string, D> {
  const declared = new Map<string, D>(builtins.map((t) => [t.id, pick(t)]));
  const byCatalogueId = new Map<number, string>(builtins.map((t) => [t.catalogueId, t.id]));
  for (const p of plugins) {
    for (const e of p.contributes ?? []) {
      if (e.kind.id !== kindId) continue;
      const d = e.value as Term;
      const same = declared.get(d.id);
      const values = pick(d);
      // a built-in term may be declared again (the AI connector, for its icon) with its own values
      if (same && (Object.keys(values) as (keyof D)[]).every((k) => same[k] === values[k])) continue;
      const holder = byCatalogueId.get(d.catalogueId);
      if (holder !== undefined && holder !== d.id) {
        throw new InvalidCatalogueError(p.id, `the ${what} "${d.id}" takes catalogue id ${d.catalogueId}, which the ${what} "${holder}" already has`);
      }
      if (same) throw new InvalidCatalogueError(p.id, `the ${what} "${d.id}" is declared twice, with different ${differ}`);
      declared.set(d.id, values);
      byCatalogueId.set(d.catalogueId, d.id);
    }
  }
  return declared;
}

/**
 * The connectors combinations may name, built at start-up from the connectors the running
 * plugins declare (`Connectors`) and the product's own AI connector (AI_CONNECTOR): only these
 * give a connector its catalogue id and name. Two connectors claiming one catalogue id fail,
 * naming both.
 */
export function declaredConnectors(plugins: ServerPlugin[]): Map<string, DeclaredConnector> {
  const pick = (d: Term): DeclaredConnector => ({ catalogueId: d.catalogueId, name: d.name });
  return declaredTerms('connector', Connectors.id, plugins, [AI_CONNECTOR], pick, 'catalogue ids or names');
}

/**
 * The triggers combinations may name, built at start-up from the engine's built-in triggers
 * (BUILTIN_TRIGGERS) and the triggers the running plugins declare (`CatalogueTriggers`): only
 * these give a trigger its catalogue id, name and icon. Two triggers claiming one catalogue id
 * fail, naming both.
 */
export function declaredTriggers(plugins: ServerPlugin[]): Map<string, DeclaredTrigger> {
  const pick = (d: Term): DeclaredTrigger => ({ catalogueId: d.catalogueId, name: d.name, icon: (d as CatalogueTriggerDeclaration).icon });
  return declaredTerms('trigger', CatalogueTriggers.id, plugins, BUILTIN_TRIGGERS, pick, 'catalogue ids, names or icons');
}

/**
 * The declared term a combination names by `key` (a connector's provider, a trigger's id). Fails
 * naming it when nobody declares it, or when the contribution gives an id or a name other than
 * the declared ones.
 */
function termOf<D extends DeclaredConnector>(
  pluginId: string,
  c: CombinationSeed,
  what: 'connector' | 'trigger',
  key: string,
  given: { id?: number; name?: string },
  declared: Map<string, D>,
): D {
  const d = declared.get(key);
  if (!d) throw new InvalidCatalogueError(pluginId, `combination ${c.id} names the ${what} "${key}", which no running plugin declares`);
  if ((given.id !== undefined && given.id !== d.catalogueId) || (given.name !== undefined && given.name !== d.name)) {
    throw new InvalidCatalogueError(
      pluginId,
      `combination ${c.id} gives the ${what} "${key}" the id ${given.id ?? d.catalogueId} and name "${given.name ?? d.name}", but it is declared as ${d.catalogueId} "${d.name}"`,
    );
  }
  return d;
}

/**
 * A combination's connectors with their declared id and name (the icon is the provider unless
 * the contribution gives one).
 */
function resolveConnectors(pluginId: string, c: CombinationSeed, declared: Map<string, DeclaredConnector>): Connector[] {
  return c.connectors.map((x) => {
    const d = termOf(pluginId, c, 'connector', x.provider, x, declared);
    return { id: d.catalogueId, name: d.name, icon: x.icon ?? x.provider, provider: x.provider, order: x.order };
  });
}

/** A combination's triggers with their declared id, name and icon (the contribution may give another icon). */
function resolveTriggers(pluginId: string, c: CombinationSeed, declared: Map<string, DeclaredTrigger>): Trigger[] {
  return c.triggers.map((x) => {
    const d = termOf(pluginId, c, 'trigger', x.kind, x, declared);
    return { id: d.catalogueId, name: d.name, icon: x.icon ?? d.icon };
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
 * connector or a trigger no running plugin declares (declaredConnectors, declaredTriggers), when two
 * plugins (or one plugin twice) claim the same id, or when a combination repeats a connector.
 * Each combination's connectors and triggers get their declared catalogue ids and names.
 */
export function collectCatalogue(plugins: ServerPlugin[]): CollectedCatalogue {
  const declared = declaredConnectors(plugins);
  const triggers = declaredTriggers(plugins);
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
      resolved.set(c, { ...c, connectors, triggers: resolveTriggers(p.id, c, triggers) });
    }
  }
  return {
    solutions: collectKind('Solution', plugins, (c) => c.solutions),
    workflows: collectKind('Workflow', plugins, (c) => c.workflows),
    combinations: collectKind('Combination', plugins, (c) => c.combinations?.map((x) => resolved.get(x)!)),
  };
}
