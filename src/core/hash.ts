/**
 * FNV-1a (32-bit) of a string's UTF-16 code units: a small, stable, non-cryptographic hash, the
 * same on every runtime. Used for feature hashing (the emotion model's buckets, so it must never
 * change: the committed weights depend on it) and for deterministic choices (the public
 * generators' templates).
 */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
