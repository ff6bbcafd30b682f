/**
 * A string → row-index table for the matcher's keys: open addressing with linear probing over two
 * typed arrays (the slot's entry and its 32-bit hash), so a million purchase orders cost 16 MB
 * outside the JS heap instead of a Map the garbage collector walks and rebuilds as it grows, and a
 * lookup compares strings only when the full hashes agree.
 */

/** FNV-1a over the UTF-16 code units. */
export function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h | 0;
}

export class KeyIndex {
  /** entry + 1 per slot (0 = empty) */
  private slots: Int32Array;
  private hashes: Int32Array;
  private mask: number;
  /** the key of each entry, in insertion order */
  readonly keys: string[] = [];

  constructor(expected = 1024) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.slots = new Int32Array(capacity);
    this.hashes = new Int32Array(capacity);
    this.mask = capacity - 1;
  }

  get size(): number {
    return this.keys.length;
  }

  /** The entry of `key`, or -1. */
  get(key: string): number {
    const h = hashKey(key);
    const { slots, hashes, mask } = this;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const e = slots[s];
      if (e === 0) return -1;
      if (hashes[s] === h && this.keys[e - 1] === key) return e - 1;
    }
  }

  /**
   * Adds `key` as the next entry (its number is the size before the call) and returns -1, or,
   * when the key is there already, returns its entry and adds nothing.
   */
  add(key: string): number {
    const h = hashKey(key);
    const { slots, hashes, mask } = this;
    let s = h & mask;
    for (; ; s = (s + 1) & mask) {
      const e = slots[s];
      if (e === 0) break;
      if (hashes[s] === h && this.keys[e - 1] === key) return e - 1;
    }
    this.keys.push(key);
    slots[s] = this.keys.length;
    hashes[s] = h;
    if (this.keys.length * 2 > slots.length) this.grow();
    return -1;
  }

  private grow(): void {
    const { slots: oldSlots, hashes: oldHashes } = this;
    const capacity = oldSlots.length * 2;
    const slots = new Int32Array(capacity);
    const hashes = new Int32Array(capacity);
    const mask = capacity - 1;
    for (let i = 0; i < oldSlots.length; i++) {
      const e = oldSlots[i];
      if (e === 0) continue;
      const h = oldHashes[i];
      let s = h & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = e;
      hashes[s] = h;
    }
    this.slots = slots;
    this.hashes = hashes;
    this.mask = mask;
  }
}
