/**
 * @jest-environment node
 */
import { createElement } from 'react';
import { createCustomEqual } from 'fast-equals';
import { deepEquals as rjsfDeepEquals } from '@rjsf/utils';
import deepEquals from '../../../src/app/forms/deep-equals';

// src/app/forms/deep-equals.ts stands in for @rjsf/utils' deepEquals in the browser build
// (webpack.config.ts): it must answer as rjsf's own does, which is fast-equals' createCustomEqual
// with the options below (Jest loads rjsf's CommonJS build, so `rjsfDeepEquals` is the real one).
const fastEqualsDeepEquals = createCustomEqual({
  circular: true,
  createCustomConfig: () => ({ areFunctionsEqual: (_a: unknown, b: unknown) => typeof b === 'function' }),
});

type Outcome = boolean | 'throws';
const outcome = (f: (a: unknown, b: unknown) => boolean, a: unknown, b: unknown): Outcome => {
  try {
    return f(a, b);
  } catch {
    return 'throws';
  }
};

/** Both ways round, ours against fast-equals' and rjsf's. */
function expectSame(label: string, a: unknown, b: unknown): Outcome {
  for (const [x, y] of [
    [a, b],
    [b, a],
  ]) {
    const reference = outcome(fastEqualsDeepEquals, x, y);
    expect([label, outcome(rjsfDeepEquals, x, y)]).toEqual([label, reference]);
    expect([label, outcome(deepEquals, x, y)]).toEqual([label, reference]);
  }
  return outcome(deepEquals, a, b);
}

class Point {
  constructor(
    public x: number,
    public y: number,
  ) {}
}
class OtherPoint {
  constructor(
    public x: number,
    public y: number,
  ) {}
}
class Tagged {
  get [Symbol.toStringTag]() {
    return 'constructor';
  }
}
class MyMap<K, V> extends Map<K, V> {}
class MyArray<T> extends Array<T> {}
const nullProto = (entries: Record<string, unknown>) => Object.assign(Object.create(null) as object, entries);
const makeError = (message: string, options?: { cause?: unknown }) => new Error(message, options);
/** Two errors made at one place, so with the same stack (fast-equals compares stacks too). */
const errorPair = (message: string, options?: { cause?: unknown }): [Error, Error] => {
  const [a, b] = [0, 1].map(() => makeError(message, options));
  return [a!, b!];
};
const withCode = ([a, b]: [Error, Error], x: unknown, y: unknown): [Error, Error] => [Object.assign(a, { code: x }), Object.assign(b, { code: y })];
/** One error given its cause by the constructor (not enumerable), one by assignment (enumerable). */
const assignedCause = (): [Error, Error] => {
  const [a, b] = [0, 1].map((i) => makeError('x', i ? { cause: 1 } : undefined));
  return [Object.assign(a!, { cause: 1 }), b!];
};
function args(..._values: unknown[]) {
  // eslint-disable-next-line prefer-rest-params
  return arguments;
}

/** A value whose `self` (or a deeper link) leads back to itself. */
function cycle(length: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const nodes = Array.from({ length }, () => ({ i: 0, ...extra, next: undefined as unknown }));
  nodes.forEach((n, i) => (n.next = nodes[(i + 1) % length]));
  return nodes[0]!;
}

describe("the small deepEquals the browser build gives rjsf in place of fast-equals'", () => {
  it('treats primitives, NaN, +0/-0 and functions as fast-equals does', () => {
    const fn = () => 1;
    const cases: Array<[string, unknown, unknown, boolean]> = [
      ['same number', 1, 1, true],
      ['different numbers', 1, 2, false],
      ['NaN', NaN, NaN, true],
      ['NaN and a number', NaN, 0, false],
      ['+0 and -0', 0, -0, true],
      ['+0 and -0 in arrays', [0], [-0], true],
      ['+0 and -0 in objects', { a: 0 }, { a: -0 }, true],
      ['Infinity', Infinity, Infinity, true],
      ['strings', 'a', 'a', true],
      ['different strings', 'a', 'b', false],
      ['string and number', '1', 1, false],
      ['booleans', true, false, false],
      ['null and undefined', null, undefined, false],
      ['null and null', null, null, true],
      ['undefined and undefined', undefined, undefined, true],
      ['null and an object', null, {}, false],
      ['0 and false', 0, false, false],
      ['empty string and 0', '', 0, false],
      ['bigints', 10n, 10n, true],
      ['different bigints', 10n, 11n, false],
      ['bigint and number', 1n, 1, false],
      ['symbols', Symbol('s'), Symbol('s'), false],
      ['same function', fn, fn, true],
      ['two functions', fn, () => 2, true],
      ['a function and a class', fn, Point, true],
      ['a function and an object', fn, {}, false],
      ['a function and undefined', fn, undefined, false],
      ['callbacks in objects', { onChange: () => 1 }, { onChange: () => 2 }, true],
      ['callback and no callback', { onChange: () => 1 }, { onChange: undefined }, false],
    ];
    for (const [label, a, b, expected] of cases) expect([label, expectSame(label, a, b)]).toEqual([label, expected]);
  });

  it('compares objects, arrays and their prototypes as fast-equals does', () => {
    const shared = { z: 1 };
    const sparse = [1, , 3];
    const cases: Array<[string, unknown, unknown, boolean]> = [
      ['empty objects', {}, {}, true],
      ['nested objects', { a: { b: { c: [1, { d: 'x' }] } } }, { a: { b: { c: [1, { d: 'x' }] } } }, true],
      ['nested difference', { a: { b: { c: [1, { d: 'x' }] } } }, { a: { b: { c: [1, { d: 'y' }] } } }, false],
      ['key order', { a: 1, b: 2 }, { b: 2, a: 1 }, true],
      ['extra key', { a: 1 }, { a: 1, b: 2 }, false],
      ['undefined value and missing key', { a: undefined }, {}, false],
      ['undefined values under different keys', { a: undefined }, { b: undefined }, false],
      ['shared sub-object', { p: shared, q: shared }, { p: { z: 1 }, q: { z: 1 } }, true],
      ['arrays', [1, [2, [3]]], [1, [2, [3]]], true],
      ['array lengths', [1, 2], [1, 2, undefined], false],
      ['array order', [1, 2], [2, 1], false],
      ['hole and undefined', sparse, [1, undefined, 3], true],
      ['array and array-like object', [1], { 0: 1, length: 1 }, false],
      ['array and object with index keys', [1], { 0: 1 }, false],
      ['null-prototype objects', nullProto({ a: 1 }), nullProto({ a: 1 }), true],
      ['null-prototype and plain object', nullProto({ a: 1 }), { a: 1 }, false],
      ['same class', new Point(1, 2), new Point(1, 2), true],
      ['same class, other values', new Point(1, 2), new Point(1, 3), false],
      ['other classes, same fields', new Point(1, 2), new OtherPoint(1, 2), false],
      ['class instance and plain object', new Point(1, 2), { x: 1, y: 2 }, false],
      ['subclassed arrays', MyArray.from([1, 2]), MyArray.from([1, 2]), true],
      ['subclassed and plain array', MyArray.from([1, 2]), [1, 2], false],
      ['own constructor keys', { constructor: 1, a: 2 }, { constructor: 1, a: 2 }, true],
      ['different own constructor keys', { constructor: 1 }, { constructor: 2 }, false],
      ['a tag named like a prototype key', new Tagged(), new Tagged(), false],
      ['arguments', args(1, 2), args(1, 2), true],
      ['different arguments', args(1, 2), args(1, 3), false],
      ['thenables', { then: () => 1 }, { then: () => 1 }, true],
      ['promises', Promise.resolve(1), Promise.resolve(1), false],
      ['weak maps', new WeakMap(), new WeakMap(), false],
      ['symbol keys are ignored', { [Symbol.for('k')]: 1 }, { [Symbol.for('k')]: 2 }, true],
      ['non-enumerable keys are ignored', Object.defineProperty({ a: 1 }, 'h', { value: 1 }), { a: 1 }, true],
      ['enumerable key against non-enumerable one', { a: 1, h: 1 }, Object.defineProperty({ a: 1, x: 1 }, 'h', { value: 1 }), false],
    ];
    for (const [label, a, b, expected] of cases) expect([label, expectSame(label, a, b)]).toEqual([label, expected]);
    // an object whose own `constructor` is Date is taken for a Date by both, and fails the same way
    expect(expectSame('own constructor Date', { constructor: Date }, { constructor: Date })).toBe('throws');
  });

  it('compares Dates, RegExps, Maps, Sets and other built-ins as fast-equals does', () => {
    const cases: Array<[string, unknown, unknown, boolean]> = [
      ['dates', new Date(5), new Date(5), true],
      ['different dates', new Date(5), new Date(6), false],
      ['invalid dates', new Date(NaN), new Date(NaN), true],
      ['date and number', new Date(5), 5, false],
      ['date and object', new Date(5), {}, false],
      ['regexps', /a+/gi, /a+/gi, true],
      ['regexp flags', /a+/g, /a+/i, false],
      ['regexp source', /a+/, /b+/, false],
      [
        'maps',
        new Map<unknown, unknown>([
          ['a', 1],
          [{ k: 1 }, [2]],
        ]),
        new Map<unknown, unknown>([
          [{ k: 1 }, [2]],
          ['a', 1],
        ]),
        true,
      ],
      ['map values', new Map([['a', 1]]), new Map([['a', 2]]), false],
      ['map keys by value', new Map([[{ k: 1 }, 1]]), new Map([[{ k: 2 }, 1]]), false],
      ['map sizes', new Map([['a', 1]]), new Map(), false],
      [
        'map with repeated-looking keys',
        new Map([
          [{ k: 1 }, 1],
          [{ k: 1 }, 2],
        ]),
        new Map([
          [{ k: 1 }, 2],
          [{ k: 1 }, 1],
        ]),
        true,
      ],
      ['map and object', new Map([['a', 1]]), { a: 1 }, false],
      ['subclassed maps', new MyMap([['a', 1]]), new MyMap([['a', 1]]), true],
      ['sets', new Set([1, 'a', { o: 1 }]), new Set([{ o: 1 }, 'a', 1]), true],
      ['set members', new Set([1, 2]), new Set([1, 3]), false],
      ['sets of equal-looking members', new Set([{ o: 1 }, { o: 1 }]), new Set([{ o: 1 }, { o: 2 }]), false],
      ['set and array', new Set([1]), [1], false],
      ['empty sets', new Set(), new Set(), true],
      ['number wrappers', Object(1), Object(1), true],
      ['NaN wrappers', Object(NaN), Object(NaN), true],
      ['+0/-0 wrappers', Object(0), Object(-0), false],
      ['string wrappers', Object('a'), Object('b'), false],
      ['boolean wrappers', Object(true), Object(true), true],
      ['bigint wrappers', Object(1n), Object(1n), true],
      ['errors from one place', ...errorPair('x'), true],
      ['errors from two places (stacks differ)', makeError('x'), makeError('x'), false],
      ['error messages', errorPair('x')[0], errorPair('y')[1], false],
      ['error causes', ...errorPair('x', { cause: { a: 1 } }), true],
      ['different error causes', errorPair('x', { cause: { a: 1 } })[0], errorPair('x', { cause: { a: 2 } })[1], false],
      ['error own fields', ...withCode(errorPair('x'), 1, 1), true],
      ['different error own fields', ...withCode(errorPair('x'), 1, 2), false],
      ['assigned cause against constructor cause', ...assignedCause(), true],
      ['float arrays with NaN', new Float64Array([NaN, 1]), new Float64Array([NaN, 1]), true],
      ['float arrays with -0', new Float32Array([0]), new Float32Array([-0]), true],
      ['int arrays', new Int16Array([1, 2]), new Int16Array([1, 2]), true],
      ['int arrays differ', new Uint8Array([1, 2]), new Uint8Array([1, 3]), false],
      ['typed array kinds', new Uint8Array([1]), new Int8Array([1]), false],
      ['typed array offsets', new Uint8Array([0, 1, 2]).subarray(1), new Uint8Array([1, 2]), false],
      ['bigint arrays', new BigInt64Array([1n]), new BigInt64Array([1n]), true],
      ['array buffers', new Uint8Array([1, 2]).buffer, new Uint8Array([1, 2]).buffer, true],
      ['different array buffers', new Uint8Array([1, 2]).buffer, new Uint8Array([1, 3]).buffer, false],
      ['data views', new DataView(new Uint8Array([1, 2]).buffer), new DataView(new Uint8Array([1, 2]).buffer), true],
      ['data view offsets', new DataView(new Uint8Array([9, 1, 2]).buffer, 1), new DataView(new Uint8Array([1, 2]).buffer), false],
      ['urls', new URL('https://x.test/a?b=1&c=2#h'), new URL('https://x.test/a?b=1&c=2#h'), true],
      ['url query order', new URL('https://x.test/a?b=1&c=2'), new URL('https://x.test/a?c=2&b=1'), true],
      ['url repeated query', new URL('https://x.test/a?b=1&b=1'), new URL('https://x.test/a?b=1&b=2'), false],
      ['url paths', new URL('https://x.test/a'), new URL('https://x.test/b'), false],
    ];
    for (const [label, a, b, expected] of cases) expect([label, expectSame(label, a, b)]).toEqual([label, expected]);
  });

  it('follows circular structures as fast-equals does', () => {
    const selfA: Record<string, unknown> = { v: 1 };
    selfA.self = selfA;
    const selfB: Record<string, unknown> = { v: 1 };
    selfB.self = selfB;
    const selfC: Record<string, unknown> = { v: 2 };
    selfC.self = selfC;
    const arrA: unknown[] = [1];
    arrA.push(arrA);
    const arrB: unknown[] = [1];
    arrB.push(arrB);
    const mapA = new Map<string, unknown>();
    mapA.set('me', mapA);
    const mapB = new Map<string, unknown>();
    mapB.set('me', mapB);
    const setA = new Set<unknown>();
    setA.add(setA);
    const setB = new Set<unknown>();
    setB.add(setB);
    const parentA: Record<string, unknown> = { name: 'p' };
    parentA.children = [{ name: 'c', parent: parentA }];
    const parentB: Record<string, unknown> = { name: 'p' };
    parentB.children = [{ name: 'c', parent: parentB }];
    const parentC: Record<string, unknown> = { name: 'p' };
    parentC.children = [{ name: 'c', parent: { name: 'p', children: [] } }];
    const [errA, errB] = errorPair('loop');
    (errA as Error & { cause?: unknown }).cause = errA;
    (errB as Error & { cause?: unknown }).cause = errB;
    const cases: Array<[string, unknown, unknown]> = [
      ['self references', selfA, selfB],
      ['self references with other values', selfA, selfC],
      ['self-referencing arrays', arrA, arrB],
      ['self-referencing maps', mapA, mapB],
      ['self-containing sets', setA, setB],
      ['parent links', parentA, parentB],
      ['parent link against a copy', parentA, parentC],
      ['cycles of one and two', cycle(1), cycle(2)],
      ['cycles of two and three', cycle(2), cycle(3)],
      ['cycles of equal length', cycle(3, { tag: 'x' }), cycle(3, { tag: 'x' })],
      ['self-causing errors', errA, errB],
      ['the same cycle', selfA, selfA],
    ];
    for (const [label, a, b] of cases) expectSame(label, a, b);
    expect(deepEquals(selfA, selfB)).toBe(true);
    expect(deepEquals(selfA, selfC)).toBe(false);
    expect(deepEquals(parentA, parentB)).toBe(true);
  });

  it('skips React element owners as fast-equals does', () => {
    const a = createElement('div', { id: 'x' }, 'text');
    const b = createElement('div', { id: 'x' }, 'text');
    const c = createElement('div', { id: 'y' }, 'text');
    expectSame('equal elements', a, b);
    expectSame('different elements', a, c);
    expectSame('props with children', { children: [a] }, { children: [b] });
    expectSame('fake owners', { $$typeof: 1, _owner: 1 }, { $$typeof: 1, _owner: 2 });
    expectSame('owners without $$typeof', { _owner: 1 }, { _owner: 2 });
    expectSame('an owner against another key', { $$typeof: 1, _owner: 1 }, { $$typeof: 1, other: 2 });
  });

  it('agrees with fast-equals on thousands of random values and near-copies', () => {
    // a seeded generator: the same cases on every run
    let seed = 0x5eed;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const LEAVES: Array<() => unknown> = [
      () => pick([0, -0, 1, -1, 2.5, NaN, Infinity]),
      () => pick(['', 'a', 'b', 'long text']),
      () => pick([true, false, null, undefined]),
      () => pick([1n, 2n]),
      () => () => 1,
      () => new Date(pick([0, 1, NaN])),
      () => pick([/a/, /a/g, /b/]),
      () => new Point(pick([1, 2]), 1),
    ];
    const generate = (depth: number, ancestors: object[]): unknown => {
      const r = random();
      if (depth <= 0 || r < 0.35) return pick(LEAVES)();
      if (ancestors.length && r < 0.4) return pick(ancestors);
      const size = Math.floor(random() * 4);
      const kind = pick(['array', 'object', 'object', 'null-proto', 'map', 'set'] as const);
      if (kind === 'array') {
        const list: unknown[] = [];
        for (let i = 0; i < size; i++) list.push(generate(depth - 1, [...ancestors, list]));
        return list;
      }
      if (kind === 'map') {
        const m = new Map<unknown, unknown>();
        for (let i = 0; i < size; i++) m.set(pick(['a', 'b', 'c', 1]), generate(depth - 1, [...ancestors, m]));
        return m;
      }
      if (kind === 'set') {
        const s = new Set<unknown>();
        for (let i = 0; i < size; i++) s.add(generate(depth - 1, [...ancestors, s]));
        return s;
      }
      const o: Record<string, unknown> = kind === 'null-proto' ? (Object.create(null) as Record<string, unknown>) : {};
      for (let i = 0; i < size; i++) o[pick(['a', 'b', 'c', 'd', 'constructor'])] = generate(depth - 1, [...ancestors, o]);
      return o;
    };
    /** A copy of `v` (cycles kept as cycles) with, at `rate`, a leaf or a key changed, or a container's kind. */
    const copy = (v: unknown, rate: number, seen = new Map<object, unknown>()): unknown => {
      if (random() < rate) {
        const r = random();
        if (r < 0.4) return pick(LEAVES)();
        if (r < 0.5 && v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Map) && !(v instanceof Set)) return { ...v };
      }
      if (typeof v === 'function') return () => 2;
      if (!v || typeof v !== 'object') return v;
      if (seen.has(v)) return seen.get(v);
      if (v instanceof Date) return new Date(v.getTime());
      if (v instanceof RegExp) return new RegExp(v.source, v.flags);
      if (v instanceof Point) return new Point(v.x, v.y);
      if (Array.isArray(v)) {
        const out: unknown[] = [];
        seen.set(v, out);
        for (const x of v) out.push(copy(x, rate, seen));
        if (random() < rate) out.reverse();
        return out;
      }
      if (v instanceof Map) {
        const out = new Map<unknown, unknown>();
        seen.set(v, out);
        const entries = [...v.entries()];
        if (random() < 0.5) entries.reverse();
        for (const [k, x] of entries) out.set(k, copy(x, rate, seen));
        return out;
      }
      if (v instanceof Set) {
        const out = new Set<unknown>();
        seen.set(v, out);
        const members = [...v.values()];
        if (random() < 0.5) members.reverse();
        for (const x of members) out.add(copy(x, rate, seen));
        return out;
      }
      const out: Record<string, unknown> = Object.getPrototypeOf(v) === null ? (Object.create(null) as Record<string, unknown>) : {};
      seen.set(v, out);
      const names = Object.keys(v);
      if (random() < 0.5) names.reverse();
      for (const k of names) out[random() < rate / 2 ? `${k}_` : k] = copy((v as Record<string, unknown>)[k], rate, seen);
      return out;
    };
    let equal = 0;
    let different = 0;
    for (let i = 0; i < 4000; i++) {
      const a = generate(4, []);
      const b = i % 4 === 0 ? generate(4, []) : copy(a, pick([0, 0.05, 0.2]));
      if (expectSame(`random case ${i}`, a, b) === true) equal++;
      else different++;
    }
    // both answers well represented, so the agreement means something
    expect(equal).toBeGreaterThan(800);
    expect(different).toBeGreaterThan(800);
  });
});
