import { joinSentences, listPhrase, pick, plural, seededIndex } from '../../../../src/server/ai/text-generation';

describe('prose helpers', () => {
  it('pick is stable for a seed and spreads across options', () => {
    const opts = ['a', 'b', 'c', 'd'];
    expect(pick('invoice-42', opts)).toBe(pick('invoice-42', opts));
    const chosen = new Set(Array.from({ length: 200 }, (_, i) => pick(`seed-${i}`, opts)));
    expect(chosen).toEqual(new Set(opts));
    expect(() => pick('x', [])).toThrow(/at least one option/);
  });

  it('seededIndex stays in range', () => {
    for (let i = 0; i < 100; i++) {
      const k = seededIndex(String(i), 7);
      expect(k).toBeGreaterThanOrEqual(0);
      expect(k).toBeLessThan(7);
    }
  });

  it('joinSentences capitalises, punctuates and skips empty parts', () => {
    expect(joinSentences(['the total is £12.50', '', null, false, 'is that right?', ' payment is due on Friday. '])).toBe(
      'The total is £12.50. Is that right? Payment is due on Friday.',
    );
    expect(joinSentences([])).toBe('');
  });

  it('listPhrase and plural', () => {
    expect(listPhrase(['Acme'])).toBe('Acme');
    expect(listPhrase(['Acme', 'Globex'])).toBe('Acme and Globex');
    expect(listPhrase(['a', 'b', 'c'], 'or')).toBe('a, b or c');
    expect(plural(1, 'invoice')).toBe('1 invoice');
    expect(plural(3, 'entry', 'entries')).toBe('3 entries');
  });
});
