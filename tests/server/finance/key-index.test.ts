import { KeyIndex, hashKey } from '../../../plugins/invoice-reconciliation/engine/key-index';
import { normaliseKey } from '../../../plugins/invoice-reconciliation/engine/matcher';

describe('KeyIndex (the matcher key table)', () => {
  it('adds keys in order, finds them and refuses a second add of the same key', () => {
    const index = new KeyIndex(4);
    expect(index.add('PO-1')).toBe(-1);
    expect(index.add('PO-2')).toBe(-1);
    expect(index.add('PO-1')).toBe(0); // already there: its entry, nothing added
    expect(index.size).toBe(2);
    expect(index.get('PO-2')).toBe(1);
    expect(index.get('PO-3')).toBe(-1);
    expect(index.keys).toEqual(['PO-1', 'PO-2']);
  });

  it('keeps every key findable while it grows, with colliding slots and equal hashes of different lengths', () => {
    const index = new KeyIndex(2);
    const keys = Array.from({ length: 50_000 }, (_, i) => `K${i.toString(36)}`);
    for (const k of keys) expect(index.add(k)).toBe(-1);
    expect(index.size).toBe(keys.length);
    for (let i = 0; i < keys.length; i += 997) expect(index.get(keys[i])).toBe(i);
    // a key equal in content but another string object is found
    expect(index.get(['K', 'a'].join(''))).toBe(10);
    expect(index.get('')).toBe(-1);
    expect(index.add('')).toBe(-1);
    expect(index.get('')).toBe(keys.length);
  });

  it('hashes by content, and keys are compared upper case without copying typical keys', () => {
    expect(hashKey('abc')).toBe(hashKey(['a', 'b', 'c'].join('')));
    expect(hashKey('abc')).not.toBe(hashKey('abd'));
    const typical = 'PO-0001234';
    expect(normaliseKey(typical)).toBe(typical);
    expect(normaliseKey('po-0001234')).toBe(typical);
    expect(normaliseKey('straße')).toBe('STRASSE');
  });
});
