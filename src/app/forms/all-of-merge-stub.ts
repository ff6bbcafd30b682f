/**
 * What the browser build gives @rjsf/utils in place of `lib/schema/shallowAllOfMerge.js`
 * (webpack.config.ts, NormalModuleReplacementPlugin; issue 7, 'Speed'). rjsf's module builds its
 * `allOf` merger from @x0k/json-schema-merge (~3.6 KB gzip) at import time, so every form paid for
 * it, yet it only runs for a schema with `allOf`, which none of our forms has today.
 *
 * <SchemaForm> loads the real merger (./all-of-merge.ts, a chunk of its own) before it renders a
 * schema with `allOf` anywhere and passes it as `experimental_customMergeAllOf`, which
 * retrieveSchema and most of rjsf honour. A few rjsf call sites do not pass that prop on (checked
 * in @rjsf/utils 6.11.1: SchemaUtils.omitExtraData, the precompiled validator's root-schema check,
 * and the getDefaultFormState run before `customValidate`), so once loaded the merger is also
 * handed to this module (`provideAllOfMerge`) and those sites get the same merger. Before that,
 * merging throws an error saying what to do (rjsf's retrieveSchema logs it as a console warning and
 * renders the schema without its `allOf`).
 */
import type { RJSFSchema } from '@rjsf/utils';

export type AllOfMerge = (schema: RJSFSchema) => RJSFSchema;

let loaded: AllOfMerge | undefined;

/** Called by ./all-of.ts once the merger's chunk is in. */
export function provideAllOfMerge(merge: AllOfMerge): void {
  loaded = merge;
}

export default function shallowAllOfMerge(schema: RJSFSchema): RJSFSchema {
  if (loaded) return loaded(schema);
  throw new Error(
    "rjsf's allOf merger is not loaded: this build leaves @x0k/json-schema-merge out of the form chunk (webpack.config.ts). " +
      'Render a schema with `allOf` through <SchemaForm>, which loads it first, or `await loadAllOfMerge()` from ' +
      "src/app/forms/all-of.ts and pass the result as the Form's `experimental_customMergeAllOf`.",
  );
}
