import { amountVariants, editDistance, questionTerms } from '../../../plugins/document-search/search-query';

describe('questionTerms', () => {
  it('drops the filler words of a question and weighs names above other words', () => {
    expect(questionTerms('How much did we pay Amazon Web Services?')).toEqual([
      { kind: 'word', word: 'amazon', weight: 2 },
      { kind: 'word', word: 'web', weight: 2 },
      { kind: 'word', word: 'services', weight: 2 },
    ]);
    expect(questionTerms('what did the plumber charge')).toEqual([{ kind: 'word', word: 'plumber', weight: 1 }]);
    expect(questionTerms('How much did we pay?')).toEqual([]);
  });

  it('keeps invoice numbers whole and reads amounts in every spelling', () => {
    expect(questionTerms('invoice 2024-117')).toEqual([
      { kind: 'word', word: 'invoice', weight: 1 },
      { kind: 'phrase', text: '2024-117', weight: 3 },
    ]);
    expect(questionTerms('paid 1,234.56?')).toEqual([{ kind: 'amount', variants: ['1234.56', '1234,56', '1,234.56', '1.234,56'], weight: 3 }]);
  });

  it('turns a month (and year) into the dates printed in it', () => {
    const terms = questionTerms('Which invoice from Acme is due in April 2024?');
    expect(terms.map((t) => (t.kind === 'word' ? t.word : t.kind === 'phrase' ? t.text : t.kind))).toEqual(['invoice', 'acme', 'due', 'date', '2024']);
    const april = terms[3];
    expect(april).toMatchObject({ kind: 'date', month: 'april', prefix: false, weight: 2 });
    expect(april.kind === 'date' && [april.lexemes.length, april.lexemes[0], april.lexemes[30]]).toEqual([31, '01.04.2024', '31.04.2024']);
    const [, open] = questionTerms('due in April');
    expect(open).toMatchObject({ kind: 'date', month: 'april', prefix: true });
    expect(open.kind === 'date' && open.lexemes[14]).toBe('15.04.');
  });
});

describe('amountVariants', () => {
  it.each([
    ['1234.56', ['1234.56', '1234,56', '1,234.56', '1.234,56']],
    ['1.234,56', ['1234.56', '1234,56', '1,234.56', '1.234,56']],
    ['18,310.63', ['18310.63', '18310,63', '18,310.63', '18.310,63']],
    ['9.00', ['9.00', '9,00']],
    ['2024', null],
    ['1.234.56', null],
  ])('%s', (token, expected) => {
    expect(amountVariants(token)).toEqual(expected);
  });
});

describe('editDistance', () => {
  it('counts edits, a swap of neighbours as one, up to the cap', () => {
    expect(editDistance('amazn', 'amazon')).toBe(1);
    expect(editDistance('invoce', 'invoice')).toBe(1);
    expect(editDistance('hetnzer', 'hetzner')).toBe(1);
    expect(editDistance('acme', 'acme')).toBe(0);
    expect(editDistance('plumber', 'invoice')).toBe(3);
  });
});
