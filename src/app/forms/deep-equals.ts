/**
 * What the browser build gives @rjsf/utils in place of its `lib/deepEquals.js` (webpack.config.ts,
 * NormalModuleReplacementPlugin; issue 7, 'Speed'). rjsf builds its deepEquals with fast-equals'
 * `createCustomEqual({ circular: true, createCustomConfig: () => ({ areFunctionsEqual: (_a, b) =>
 * typeof b === 'function' }) })`, which brings the whole fast-equals module (every preset it
 * exports, strict mode, custom-state plumbing: ~2.5 KB gzip) into the first chunk of every form.
 *
 * This is that one configuration and nothing else, written to give the same answer as fast-equals
 * 6.x for every input (tests/unit/forms/deep-equals.test.ts compares the two over many cases):
 * - `a === b` first, so `0` equals `-0`; other numbers (and bigints) by `Object.is`, so NaN equals NaN;
 * - any two functions are equal (rjsf's option: callbacks re-created on each render do not count);
 * - objects only when their `constructor`s are the same (so a null-prototype object never equals a
 *   plain one: fast-equals' default `strictNullPrototypeComparison`), then by kind: plain and
 *   null-prototype objects, arguments and class instances by own enumerable string keys (React's
 *   `_owner`, Preact's `__o`/`__v` skipped on elements, as fast-equals does), arrays by index,
 *   Dates by time, RegExps by source and flags, Maps and Sets by entries in any order, Errors,
 *   typed arrays, ArrayBuffers, DataViews, URLs and primitive wrappers by value; promises and
 *   anything else (WeakMap…) only when identical;
 * - circular structures: a pair of objects already being compared higher up counts as equal when
 *   they were paired with each other there (fast-equals' `circular: true`).
 */

type Obj = Record<PropertyKey, unknown>;
/** The objects being compared on the way down, each paired with its counterpart (fast-equals' `state.cache`). */
type Pairs = WeakMap<object, object>;
type Compare = (a: Obj, b: Obj, pairs: Pairs) => boolean;

const { keys, getOwnPropertyDescriptor, getPrototypeOf } = Object;
const { toString, propertyIsEnumerable } = Object.prototype;
/** The element type of a typed array (across realms and subclasses), as fast-equals reads it. */
const typedArrayName = getOwnPropertyDescriptor(getPrototypeOf(Int8Array.prototype), Symbol.toStringTag)!.get!;

/** Compares `a` and `b` with `compare` unless they are already being compared higher up (a cycle). */
function circular(compare: Compare): Compare {
  return (a, b, pairs) => {
    const pairedA = pairs.get(a);
    const pairedB = pairs.get(b);
    if (pairedA && pairedB) return pairedA === b && pairedB === a;
    pairs.set(a, b);
    pairs.set(b, a);
    const result = compare(a, b, pairs);
    pairs.delete(a);
    pairs.delete(b);
    return result;
  };
}

/** React's and Preact's back-references on elements: deeply circular, and not what makes two elements differ. */
const isReactProperty = (a: Obj, b: Obj, key: string) => (key === '_owner' || key === '__o' || key === '__v') && !!(a.$$typeof || b.$$typeof);

const objects = circular((a, b, pairs) => {
  const names = keys(a);
  const namesB = keys(b);
  let i = names.length;
  if (namesB.length !== i) return false;
  while (i-- > 0) {
    const key = names[i]!;
    if (isReactProperty(a, b, key)) continue;
    if ((key !== namesB[i] && !propertyIsEnumerable.call(b, key)) || !equals(a[key], b[key], pairs)) return false;
  }
  return true;
});

const arrays = circular((a, b, pairs) => {
  const list = a as unknown as unknown[];
  const listB = b as unknown as unknown[];
  let i = list.length;
  if (listB.length !== i) return false;
  while (i-- > 0) if (!equals(list[i], listB[i], pairs)) return false;
  return true;
});

/** Maps or Sets: each entry of `a` matches a distinct entry of `b`, in any order. */
function collections(entries: (c: Obj) => Iterable<unknown>, same: (x: unknown, y: unknown, pairs: Pairs) => boolean): Compare {
  return circular((a, b, pairs) => {
    if ((a as unknown as Set<unknown>).size !== (b as unknown as Set<unknown>).size) return false;
    const matched: boolean[] = [];
    for (const x of entries(a)) {
      let i = 0;
      let found = false;
      for (const y of entries(b)) {
        if (!matched[i] && same(x, y, pairs)) {
          found = matched[i] = true;
          break;
        }
        i++;
      }
      if (!found) return false;
    }
    return true;
  });
}
const maps = collections(
  (m) => (m as unknown as Map<unknown, unknown>).entries(),
  (x, y, pairs) => {
    const [keyA, valueA] = x as [unknown, unknown];
    const [keyB, valueB] = y as [unknown, unknown];
    return equals(keyA, keyB, pairs) && equals(valueA, valueB, pairs);
  },
);
const sets = collections((s) => (s as unknown as Set<unknown>).values(), equals);

const dates: Compare = (a, b) => Object.is((a as unknown as Date).getTime(), (b as unknown as Date).getTime());
const regExps: Compare = (a, b) => a.source === b.source && a.flags === b.flags;
const wrappers: Compare = (a, b) => Object.is(a.valueOf(), b.valueOf());

type Indexed = ArrayLike<unknown> & { byteOffset: number };
/** Same length and offset, elements `===` (NaN equal to NaN in float arrays), as fast-equals. */
function typedArrays(a: Indexed, b: Indexed): boolean {
  let i = a.length;
  if (b.length !== i || a.byteOffset !== b.byteOffset) return false;
  const floats = /^Float(16|32|64)Array$/.test(String(typedArrayName.call(a)));
  while (i-- > 0) if (a[i] !== b[i] && !(floats && a[i] !== a[i] && b[i] !== b[i])) return false;
  return true;
}
const buffers: Compare = (a, b) =>
  a.byteLength === b.byteLength && typedArrays(new Uint8Array(a as unknown as ArrayBuffer), new Uint8Array(b as unknown as ArrayBuffer));
const dataViews: Compare = (a, b) => {
  const x = a as unknown as DataView;
  const y = b as unknown as DataView;
  return (
    x.byteLength === y.byteLength && typedArrays(new Uint8Array(x.buffer, x.byteOffset, x.byteLength), new Uint8Array(y.buffer, y.byteOffset, y.byteLength))
  );
};

/** name, message, stack, cause and errors (enumerable or not), then the other own enumerable properties. */
const errors = circular((a, b, pairs) => {
  if (a.name !== b.name || a.message !== b.message || a.stack !== b.stack) return false;
  if (a.cause !== b.cause && !equals(a.cause, b.cause, pairs)) return false;
  if (a.errors !== b.errors && !equals(a.errors, b.errors, pairs)) return false;
  const names = keys(a);
  const namesB = keys(b);
  let compared = 0;
  for (let i = names.length; i-- > 0;) {
    const key = names[i]!;
    if (key === 'cause' || key === 'errors') continue;
    if ((key !== namesB[i] && !propertyIsEnumerable.call(b, key)) || !equals(a[key], b[key], pairs)) return false;
    compared++;
  }
  // what b has left over may only be its enumerable cause / errors, compared above
  const left = namesB.length - compared;
  return !left || left === +propertyIsEnumerable.call(b, 'cause') + +propertyIsEnumerable.call(b, 'errors');
});

/** The query parameters as a sorted multiset: order does not count, repeats do. */
const sortedQuery = (q: URLSearchParams) => q.toString().split('&').sort().join('&');
const urls: Compare = (a, b) => {
  const x = a as unknown as URL;
  const y = b as unknown as URL;
  return (
    x.href === y.href ||
    (x.protocol === y.protocol &&
      x.username === y.username &&
      x.password === y.password &&
      x.host === y.host &&
      x.pathname === y.pathname &&
      x.hash === y.hash &&
      (x.searchParams.toString() === y.searchParams.toString() || sortedQuery(x.searchParams) === sortedQuery(y.searchParams)))
  );
};

/**
 * By `Object.prototype.toString` tag, for objects of other constructors (subclasses, other realms,
 * class instances). No prototype: a tag such as "constructor" (Symbol.toStringTag) finds nothing.
 */
const BY_TAG: Record<string, Compare> = Object.assign(Object.create(null) as Record<string, Compare>, {
  Arguments: objects,
  Array: arrays,
  ArrayBuffer: buffers,
  DataView: dataViews,
  Date: dates,
  Error: errors,
  Map: maps,
  // a class instance; a thenable counts as a promise, equal only to itself
  Object: (a: Obj, b: Obj, pairs: Pairs) => typeof a.then !== 'function' && typeof b.then !== 'function' && objects(a, b, pairs),
  RegExp: regExps,
  Set: sets,
  URL: urls,
});
for (const name of ['BigInt', 'Boolean', 'Number', 'String']) BY_TAG[name] = wrappers;
for (const name of ['Int8', 'Uint8', 'Uint8Clamped', 'Int16', 'Uint16', 'Int32', 'Uint32', 'Float16', 'Float32', 'Float64', 'BigInt64', 'BigUint64']) {
  BY_TAG[`${name}Array`] = (a, b) => typedArrays(a as unknown as Indexed, b as unknown as Indexed);
}

function equals(a: unknown, b: unknown, pairs: Pairs): boolean {
  if (a === b) return true;
  if (a == null || b == null) return false;
  const type = typeof a;
  if (type !== typeof b) return false;
  if (type !== 'object') {
    if (type === 'number' || type === 'bigint') return Object.is(a, b);
    // rjsf's `areFunctionsEqual`: b is a function (same typeof as a); strings, booleans, symbols differ
    return type === 'function';
  }
  const x = a as Obj;
  const y = b as Obj;
  const constructor = x.constructor;
  if (constructor !== y.constructor) return false;
  if (constructor === Object || constructor == null) return objects(x, y, pairs);
  if (constructor === Array) return arrays(x, y, pairs);
  if (constructor === Date) return dates(x, y, pairs);
  if (constructor === RegExp) return regExps(x, y, pairs);
  if (constructor === Map) return maps(x, y, pairs);
  if (constructor === Set) return sets(x, y, pairs);
  if (constructor === Promise) return false;
  if (Array.isArray(a)) return arrays(x, y, pairs);
  const byTag = BY_TAG[toString.call(a).slice(8, -1)];
  return byTag ? byTag(x, y, pairs) : false;
}

/** rjsf's deepEquals: whether `a` and `b` are deeply equal (any two functions are; cycles are followed safely). */
export default function deepEquals<A, B>(a: A, b: B): boolean {
  return equals(a, b, new WeakMap());
}
