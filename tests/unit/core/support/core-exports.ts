import * as core from '../../../../src/core';

/**
 * Walks every value the core exports (src/core) and lists where it names a plugin's term: a key
 * `owned` has (a table keyed by one, like the old CONNECTORS or TRIGGERS) or an object `names`
 * flags (a term naming one). Empty when the core names none.
 */
export function coreExportsNaming(owned: Set<string>, names: (o: Record<string, unknown>) => boolean): string[] {
  const found: string[] = [];
  const seen = new Set<unknown>();
  const walk = (value: unknown, where: string, depth: number): void => {
    if (value === null || typeof value !== 'object' || seen.has(value) || depth > 6) return;
    seen.add(value);
    const o = value as Record<string, unknown>;
    for (const key of Object.keys(o)) {
      if (owned.has(key)) found.push(`${where}.${key}`);
      walk(o[key], `${where}.${key}`, depth + 1);
    }
    if (names(o)) found.push(where);
  };
  for (const [name, value] of Object.entries(core)) walk(value, name, 0);
  return found;
}
