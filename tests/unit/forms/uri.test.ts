/**
 * @jest-environment node
 */
import fastUri from 'fast-uri';
import { equal, resolve } from '../../../src/app/forms/uri';

/** RFC 3986 section 5.4's examples and the shapes JSON Schema $id and $ref take. */
const BASES = [
  'http://a/b/c/d;p?q',
  'https://example.com/schemas/root.json',
  'https://Example.COM/a/b/',
  'urn:example:root',
  'auth/login',
  'schemas/a/b.json',
  'file:///x/y.json',
  'http://a',
];
const REFS = [
  'g:h',
  'g',
  './g',
  'g/',
  '/g',
  '//g',
  '?y',
  'g?y',
  '#s',
  'g#s',
  'g?y#s',
  ';x',
  'g;x',
  'g;x?y#s',
  '',
  '.',
  './',
  '..',
  '../',
  '../g',
  '../..',
  '../../',
  '../../g',
  '../../../g',
  '../../../../g',
  '/./g',
  '/../g',
  'g.',
  '.g',
  'g..',
  '..g',
  './../g',
  './g/.',
  'g/./h',
  'g/../h',
  'g;x=1/./y',
  'g;x=1/../y',
  'other.json',
  'other.json#/definitions/x',
  '#/$defs/name',
  'https://example.com/schemas/other.json#anchor',
  'sub/dir/%7Efile.json',
  'a%2fb',
];

describe('the small URI resolver the browser build gives rjsf in place of fast-uri', () => {
  it('resolves every reference as fast-uri does', () => {
    for (const base of BASES) for (const ref of REFS) expect([base, ref, resolve(base, ref)]).toEqual([base, ref, fastUri.resolve(base, ref)]);
  });

  it('compares URIs as fast-uri does', () => {
    const uris = [
      ...BASES,
      ...REFS,
      'HTTP://EXAMPLE.com/a/./b/../c',
      'http://example.com/a/c',
      'https://example.com/%7euser',
      'https://example.com/~user',
      'https://example.com/a%2Fb',
    ];
    for (const a of uris) for (const b of uris) expect([a, b, equal(a, b)]).toEqual([a, b, fastUri.equal(a, b)]);
  });
});
