import { featurise, fnv1a, namedFeatures, type FeatureConfig } from '../../../src/server/ai/emotion/features';

const norm = (values: Float32Array) => Math.sqrt(values.reduce((s, v) => s + v * v, 0));

describe('emotion featuriser', () => {
  it('hashes with 32-bit FNV-1a', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });

  it('names words, word pairs, negated words and character n-grams', () => {
    const { words, chars } = namedFeatures('Not happy!', { charNgrams: [3, 4] });
    expect(Object.fromEntries(words)).toEqual({
      'w:not': 1,
      'b:<s> not': 1,
      'w:happy': 1,
      'b:not happy': 1,
      'n:happy': 1,
      'w:!': 1,
      'b:happy !': 1,
      'b:! </s>': 1,
    });
    expect(Object.fromEntries(chars)).toEqual({
      '<no': 1,
      not: 1,
      'ot>': 1,
      '<not': 1,
      'not>': 1,
      '<ha': 1,
      hap: 1,
      app: 1,
      ppy: 1,
      'py>': 1,
      '<hap': 1,
      happ: 1,
      appy: 1,
      'ppy>': 1,
    });
  });

  it('ends a negation at punctuation, counts repeats, reads placeholders and capitals', () => {
    const { words } = namedFeatures("I don't like it, good good [NAME] is GREAT", { charNgrams: [3, 3] });
    expect(words.get('n:like')).toBe(1);
    expect(words.get('n:it')).toBe(1);
    expect(words.get('n:good')).toBeUndefined();
    expect(words.get('w:good')).toBe(2);
    expect(words.get('b:good good')).toBe(1);
    expect(words.get('w:xnamex')).toBe(1);
    expect(words.get('shape:caps')).toBe(1);
    expect(namedFeatures('', { charNgrams: [3, 3] }).words.get('shape:empty')).toBe(1);
  });

  it('gives a sparse, sorted, L2-normalised vector with log counts, the same every time', () => {
    const config: FeatureConfig = { buckets: 1 << 18, charNgrams: [3, 5], charWeight: 0.5 };
    const x = featurise('Thanks, this is great great news!', config);
    expect(x.indices.length).toBe(x.values.length);
    for (let i = 1; i < x.indices.length; i++) expect(x.indices[i]).toBeGreaterThan(x.indices[i - 1]);
    for (const b of x.indices) expect(b).toBeLessThan(config.buckets);
    expect(norm(x.values)).toBeCloseTo(1, 5);
    expect(featurise('Thanks, this is great great news!', config)).toEqual(x);

    // with only words, "w:great" (count 2) weighs 1 + ln 2 against 1 for "w:news"
    const words = featurise('great great news', { buckets: 1 << 20, charNgrams: [3, 3], charWeight: 0 });
    const valueOf = (name: string) => words.values[words.indices.indexOf(fnv1a(name) & ((1 << 20) - 1))];
    expect(valueOf('w:great') / valueOf('w:news')).toBeCloseTo(1 + Math.log(2), 5);
  });

  it('adds colliding features in one bucket', () => {
    const x = featurise('hello there', { buckets: 1, charNgrams: [3, 3], charWeight: 1 });
    expect(Array.from(x.indices)).toEqual([0]);
    expect(x.values[0]).toBeCloseTo(1, 6);
  });

  it("adds the lexicon's share of evidence when asked", () => {
    const config: FeatureConfig = { buckets: 1 << 20, charNgrams: [3, 3], charWeight: 0 };
    const mask = (1 << 20) - 1;
    const joy = fnv1a('lex:joy') & mask;
    expect(Array.from(featurise('I love this', config).indices)).not.toContain(joy);
    expect(Array.from(featurise('I love this', { ...config, lexiconWeight: 1 }).indices)).toContain(joy);
  });
});
