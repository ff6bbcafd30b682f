import { KeyedRegistry } from './registry';

/**
 * Open contribution points. A kind is declared once — by the core or by any plugin — with its
 * value type and how a contribution's key is found; any plugin may contribute to any declared
 * kind. The registry is built from what the plugins declare and contribute, so a new kind (an
 * engine action, a form field) needs no edit of the core.
 *
 *   export const FormFields = contributionKind<FormFieldContribution>('form-field', 'Form field', (f) => f.name);
 *   contribute(FormFields, { name: 'csv-headers', component: HeaderPicker })
 */
export interface ContributionKind<V> {
  readonly id: string;
  /** Names the kind in error messages: 'Workflow view "10002" is contributed by both …'. */
  readonly label: string;
  /** The key two contributions may not share; undefined: every contribution is kept (a list). */
  readonly keyOf?: (value: V) => string | number;
}

export function contributionKind<V>(id: string, label: string, keyOf?: (value: V) => string | number): ContributionKind<V> {
  if (!/^[a-z0-9][a-z0-9./-]*$/.test(id)) throw new Error(`Contribution kind id "${id}" must be lower-case (a-z, 0-9, '-', '.', '/')`);
  return Object.freeze({ id, label, keyOf });
}

/** One contribution: a value for a kind, with an explicit key or the kind's own. */
export interface ContributionEntry<V = unknown> {
  readonly kind: ContributionKind<V>;
  readonly value: V;
  readonly key?: string | number;
}

/** `contribute(kind, value)` or `contribute(kind, value, key)`, type-checked against the kind. */
export function contribute<V>(kind: ContributionKind<V>, value: V, key?: string | number): ContributionEntry<V> {
  return { kind, value, key };
}

export class UnknownContributionKindError extends Error {
  constructor(kindId: string, pluginId: string) {
    super(`Plugin "${pluginId}" contributes to "${kindId}", which no plugin declares`);
    this.name = 'UnknownContributionKindError';
  }
}

/** What a plugin brings to the registry, whatever the runtime. */
export interface ContributingPlugin {
  id: string;
  /** Contribution kinds this plugin declares for others to fill. */
  declares?: ContributionKind<any>[];
  contributes?: ContributionEntry<any>[];
}

/**
 * Every contribution of every plugin, by kind. Built once, at start-up: a key claimed twice, a
 * kind declared twice or a contribution to an undeclared kind fails here, naming the plugins.
 */
export class ContributionRegistry {
  private readonly kinds = new KeyedRegistry<ContributionKind<unknown>>('Contribution kind');
  private readonly byKind = new Map<string, KeyedRegistry<unknown>>();
  private readonly lists = new Map<string, Array<{ value: unknown; pluginId: string }>>();

  constructor(plugins: ContributingPlugin[], coreKinds: ContributionKind<any>[] = []) {
    for (const k of coreKinds) this.declare(k, 'core');
    for (const p of plugins) for (const k of p.declares ?? []) this.declare(k, p.id);
    for (const p of plugins) for (const e of p.contributes ?? []) this.add(e, p.id);
  }

  private declare(kind: ContributionKind<unknown>, pluginId: string): void {
    this.kinds.register(kind.id, kind, pluginId);
    this.byKind.set(kind.id, new KeyedRegistry(kind.label));
    this.lists.set(kind.id, []);
  }

  private add(entry: ContributionEntry<unknown>, pluginId: string): void {
    const registry = this.byKind.get(entry.kind.id);
    if (!registry) throw new UnknownContributionKindError(entry.kind.id, pluginId);
    this.lists.get(entry.kind.id)!.push({ value: entry.value, pluginId });
    const key = entry.key ?? entry.kind.keyOf?.(entry.value);
    if (key !== undefined) registry.register(key, entry.value, pluginId);
  }

  /**
   * Contributions a plugin makes once its services exist (a server plugin's `steps(deps)`), added
   * after the registry was built, with the same checks (a key claimed twice fails, naming both).
   */
  addLate(pluginId: string, entries: ContributionEntry<unknown>[]): void {
    for (const e of entries) this.add(e, pluginId);
  }

  /** The keyed contributions of a kind (empty for an undeclared kind). */
  of<V>(kind: ContributionKind<V>): KeyedRegistry<V> {
    return (this.byKind.get(kind.id) as KeyedRegistry<V> | undefined) ?? new KeyedRegistry<V>(kind.label);
  }

  /** Every contribution of a kind in plugin order, keyed or not. */
  all<V>(kind: ContributionKind<V>): V[] {
    return (this.lists.get(kind.id) ?? []).map((e) => e.value as V);
  }

  /** Whether some plugin (or the core) declares the kind. */
  declares(kind: ContributionKind<unknown> | string): boolean {
    return this.kinds.has(typeof kind === 'string' ? kind : kind.id);
  }

  /** Who declared a kind ('core' or a plugin id). */
  declaredBy(kind: ContributionKind<unknown>): string | undefined {
    return this.kinds.owner(kind.id);
  }
}
