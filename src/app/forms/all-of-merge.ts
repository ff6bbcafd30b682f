/**
 * rjsf's `allOf` merger, as a chunk of its own (issue 7, 'Speed'): built exactly as
 * @rjsf/utils/lib/schema/shallowAllOfMerge.js builds it, with the same @x0k/json-schema-merge
 * pipeline (comparator, merger, intersector, deduplicator). The browser build replaces rjsf's
 * module with ./all-of-merge-stub.ts, so the library (~3.6 KB gzip) is no longer in the first
 * chunk of every form; ./all-of.ts loads this before a schema with `allOf` is rendered.
 * Keep it in step with rjsf's module on upgrades (tests/unit/forms/all-of.test.ts compares them).
 */
import { createComparator, createMerger, createShallowAllOfMerge } from '@x0k/json-schema-merge';
import { createDeduplicator, createIntersector } from '@x0k/json-schema-merge/lib/array';
import type { RJSFSchema } from '@rjsf/utils';

const { compareSchemaDefinitions, compareSchemaValues } = createComparator();
const { mergeArrayOfSchemaDefinitions } = createMerger({
  intersectJson: createIntersector(compareSchemaValues),
  deduplicateJsonSchemaDef: createDeduplicator(compareSchemaDefinitions),
});

/** Merges a schema's `allOf` into the schema itself (rjsf's `experimental_customMergeAllOf` shape). */
const shallowAllOfMerge = createShallowAllOfMerge(mergeArrayOfSchemaDefinitions) as (schema: RJSFSchema) => RJSFSchema;
export default shallowAllOfMerge;
