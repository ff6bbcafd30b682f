/**
 * @jest-environment node
 */
import { omitExtraData, retrieveSchema, type RJSFSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import ourMerge from '../../../src/app/forms/all-of-merge';
import { hasAllOf } from '../../../src/app/forms/all-of';

// The browser build replaces @rjsf/utils' allOf merger (lib/schema/shallowAllOfMerge.js) with
// src/app/forms/all-of-merge-stub.ts and loads src/app/forms/all-of-merge.ts, a copy of it, for the
// schemas that need it. Jest loads rjsf's own build, whose retrieveSchema/omitExtraData use rjsf's
// merger unless given one: the two must merge alike.

const SCHEMAS: Record<string, RJSFSchema> = {
  'two property sets': {
    type: 'object',
    allOf: [
      { properties: { a: { type: 'string' } }, required: ['a'] },
      { properties: { b: { type: 'number', minimum: 1 } }, required: ['b'] },
    ],
  },
  'overlapping constraints': {
    type: 'object',
    properties: { a: { type: 'string', maxLength: 10 } },
    allOf: [{ properties: { a: { type: 'string', minLength: 2, maxLength: 5 } } }, { properties: { a: { pattern: '^x' } }, required: ['a'] }],
  },
  'enums and types intersected': {
    allOf: [
      { type: ['string', 'number'], enum: ['a', 'b', 1] },
      { type: 'string', enum: ['b', 'a', 'c'] },
    ],
  },
  'a $ref into definitions': {
    definitions: { base: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } },
    allOf: [{ $ref: '#/definitions/base' }, { properties: { name: { type: 'string', title: 'Name' } } }],
  },
  'nested allOf': {
    allOf: [{ allOf: [{ title: 'Inner', properties: { x: { type: 'string' } } }, { properties: { y: { type: 'string' } } }] }, { required: ['x'] }],
  },
  'additionalProperties and patternProperties': {
    type: 'object',
    allOf: [
      { properties: { a: { type: 'string' } }, additionalProperties: false },
      { properties: { b: { type: 'string' } }, patternProperties: { '^x-': { type: 'string' } } },
    ],
  },
  'items and numbers': {
    type: 'array',
    allOf: [
      { items: { type: 'number', multipleOf: 2 }, minItems: 1 },
      { items: { multipleOf: 3 }, maxItems: 4 },
    ],
  },
  'if/then in branches': {
    type: 'object',
    allOf: [
      { properties: { kind: { type: 'string' } } },
      { if: { properties: { kind: { const: 'a' } } }, then: { properties: { extra: { type: 'string' } } } },
    ],
  },
};

describe('the allOf merger loaded on demand (src/app/forms/all-of-merge.ts)', () => {
  it.each(Object.entries(SCHEMAS))('merges %s as rjsf does', (_name, schema) => {
    const theirs = retrieveSchema(validator, schema, schema, {});
    const ours = retrieveSchema(validator, schema, schema, {}, ourMerge);
    expect(ours).toEqual(theirs);
    expect(ours).not.toEqual(schema); // merged, not passed through
    const data = { a: 'x', b: 2, id: 1, name: 'n', x: 'x', y: 'y', kind: 'a', extra: 'e', junk: true };
    expect(omitExtraData(validator, schema, schema, data, ourMerge)).toEqual(omitExtraData(validator, schema, schema, data));
  });

  it("throws on schemas that cannot be merged, as rjsf's does (its retrieveSchema then warns and drops the allOf)", () => {
    const impossible: RJSFSchema = { allOf: [{ type: 'string' }, { type: 'number' }] };
    expect(() => ourMerge(impossible)).toThrow(/incompatible types/);
  });
});

describe('hasAllOf: which schemas need the merger', () => {
  it.each<[string, unknown, boolean]>([
    ['no allOf', { type: 'object', properties: { a: { type: 'string', oneOf: [{ const: 'x' }] } } }, false],
    ['at the root', { allOf: [] }, true],
    ['in a property', { properties: { a: { allOf: [{ type: 'string' }] } } }, true],
    ['in items', { type: 'array', items: { allOf: [{}] } }, true],
    ['in tuple items', { type: 'array', items: [{ type: 'string' }, { allOf: [{}] }] }, true],
    ['under definitions', { definitions: { x: { allOf: [{}] } }, properties: { a: { $ref: '#/definitions/x' } } }, true],
    ['under $defs', { $defs: { x: { properties: { y: { allOf: [{}] } } } } }, true],
    ['in an anyOf option', { anyOf: [{ type: 'string' }, { allOf: [{}] }] }, true],
    ['in if/then/else', { if: { properties: {} }, then: {}, else: { allOf: [{}] } }, true],
    ['in dependencies', { dependencies: { a: { allOf: [{}] } } }, true],
    ['in a default value (data, not a schema)', { default: { allOf: [1] } }, false],
    ['in a const or enum value', { properties: { a: { const: { allOf: 1 } }, b: { enum: [{ allOf: 1 }] } } }, false],
    ['in examples', { examples: [{ allOf: [] }] }, false],
    ['not a schema', 'allOf', false],
  ])('%s', (_name, schema, expected) => {
    expect(hasAllOf(schema)).toBe(expected);
  });

  it('stops at cycles', () => {
    const schema: Record<string, unknown> = { properties: {} };
    (schema.properties as Record<string, unknown>).self = schema;
    expect(hasAllOf(schema)).toBe(false);
  });
});

describe("the build's stand-in for rjsf's merger (src/app/forms/all-of-merge-stub.ts)", () => {
  const schema: RJSFSchema = { allOf: [{ title: 'A' }, { type: 'string' }] };

  it('throws an error that says what to do until the merger is loaded, then merges with it', async () => {
    let stub!: typeof import('../../../src/app/forms/all-of-merge-stub');
    let allOf!: typeof import('../../../src/app/forms/all-of');
    jest.isolateModules(() => {
      stub = require('../../../src/app/forms/all-of-merge-stub');
      allOf = require('../../../src/app/forms/all-of');
    });
    expect(() => stub.default(schema)).toThrow(/allOf merger is not loaded.*<SchemaForm>.*loadAllOfMerge/);
    const loaded = await allOf.loadAllOfMerge();
    expect(await allOf.loadAllOfMerge()).toBe(loaded);
    expect(stub.default(schema)).toEqual({ title: 'A', type: 'string' });
    expect(stub.default(schema)).toEqual(ourMerge(schema));
  });
});
