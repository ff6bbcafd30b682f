import { fnv1a } from '../../../src/core';
import { fnv1a as emotionFeatureHash } from '../../../src/server/ai/emotion/features';
import { hash as generatorHash } from '../../../plugins/public-generators/engine/text-tools';

describe('fnv1a (src/core)', () => {
  it('is FNV-1a 32-bit: the published test vectors', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });

  it('is the one hash of the emotion features and the public generators', () => {
    expect(emotionFeatureHash).toBe(fnv1a);
    expect(generatorHash).toBe(fnv1a);
  });
});
