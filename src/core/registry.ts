/**
 * A keyed registry of plugin contributions. Two plugins claiming the same key is an error
 * naming both, raised when the registry is built (so at start-up, never at first use).
 */
export class DuplicateContributionError extends Error {
  constructor(
    readonly kind: string,
    readonly key: string,
    readonly firstPlugin: string,
    readonly secondPlugin: string,
  ) {
    super(`${kind} "${key}" is contributed by both plugin "${firstPlugin}" and plugin "${secondPlugin}"`);
    this.name = 'DuplicateContributionError';
  }
}

export interface Contribution<T> {
  key: string;
  value: T;
  pluginId: string;
}

export class KeyedRegistry<T> {
  private readonly entries = new Map<string, Contribution<T>>();

  constructor(readonly kind: string) {}

  register(key: string | number, value: T, pluginId: string): void {
    const k = String(key);
    const existing = this.entries.get(k);
    if (existing) throw new DuplicateContributionError(this.kind, k, existing.pluginId, pluginId);
    this.entries.set(k, { key: k, value, pluginId });
  }

  get(key: string | number): T | undefined {
    return this.entries.get(String(key))?.value;
  }

  has(key: string | number): boolean {
    return this.entries.has(String(key));
  }

  owner(key: string | number): string | undefined {
    return this.entries.get(String(key))?.pluginId;
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  values(): T[] {
    return [...this.entries.values()].map((e) => e.value);
  }

  contributions(): Contribution<T>[] {
    return [...this.entries.values()];
  }

  get size(): number {
    return this.entries.size;
  }
}
