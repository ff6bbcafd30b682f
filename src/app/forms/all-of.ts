import { useEffect, useMemo, useState } from 'react';
import type { RJSFSchema } from '@rjsf/utils';
import { provideAllOfMerge, type AllOfMerge } from './all-of-merge-stub';

export type { AllOfMerge } from './all-of-merge-stub';

/** Keywords whose values are data, not schemas: an `allOf` key inside them is not a keyword. */
const DATA_KEYWORDS = new Set(['const', 'default', 'enum', 'examples']);

/**
 * Whether `schema` has an `allOf` anywhere: at the root, in properties, items, if/then/else,
 * anyOf/oneOf options, definitions/$defs (reached through $ref)… Deliberately broad (a property
 * named "allOf" counts too): a false positive only loads the merger, a miss would render the
 * schema without its `allOf` (see ./all-of-merge-stub.ts).
 */
export function hasAllOf(schema: unknown, seen = new Set<object>()): boolean {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return false;
  seen.add(schema);
  if (Array.isArray(schema)) return schema.some((s) => hasAllOf(s, seen));
  if (Object.prototype.hasOwnProperty.call(schema, 'allOf')) return true;
  return Object.entries(schema).some(([key, value]) => !DATA_KEYWORDS.has(key) && hasAllOf(value, seen));
}

let loading: Promise<AllOfMerge> | undefined;
let loadedMerge: AllOfMerge | undefined;

/**
 * rjsf's `allOf` merger, from a chunk of its own (./all-of-merge.ts), loaded once. Also handed to
 * the build's stand-in for rjsf's own merger, for the rjsf call sites that do not take
 * `experimental_customMergeAllOf` (./all-of-merge-stub.ts).
 */
export function loadAllOfMerge(): Promise<AllOfMerge> {
  loading ??= import(/* webpackChunkName: "rjsf-all-of" */ './all-of-merge').then(
    (m) => {
      loadedMerge = m.default;
      provideAllOfMerge(m.default);
      return m.default;
    },
    (e: unknown) => {
      loading = undefined; // a failed chunk load may be retried by the next form
      throw e;
    },
  );
  return loading;
}

/**
 * For a form about to render `schema`: `null` when the schema has no `allOf` (nothing to load),
 * the merger once loaded, `undefined` while it loads. A failed load is thrown to the error boundary.
 */
export function useAllOfMerge(schema: RJSFSchema): AllOfMerge | null | undefined {
  const needed = useMemo(() => hasAllOf(schema), [schema]);
  const [merge, setMerge] = useState<AllOfMerge | undefined>(() => loadedMerge);
  const [failure, setFailure] = useState<Error | null>(null);
  useEffect(() => {
    if (!needed || merge) return;
    let live = true;
    loadAllOfMerge().then(
      (m) => live && setMerge(() => m),
      (e: unknown) => live && setFailure(e instanceof Error ? e : new Error(String(e))),
    );
    return () => {
      live = false;
    };
  }, [needed, merge]);
  if (failure) throw failure;
  if (!needed) return null;
  return merge ?? loadedMerge;
}
