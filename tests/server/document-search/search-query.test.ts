import { parseSearchQuery, SearchQueryError } from '../../../plugins/document-search/search-query';

describe('parseSearchQuery', () => {
  it.each([
    ['invoice', { head: '', prefix: 'invoice:*' }],
    ['late  Payment', { head: 'late', prefix: 'payment:*' }],
    ['"late payment"', { head: '"late payment"', prefix: null }],
    ['"late payment', { head: '"late payment', prefix: null }],
    ['supplier or holiday', { head: 'supplier or holiday', prefix: null }],
    ['or', { head: 'or', prefix: null }],
    ['payment -holiday', { head: 'payment -holiday', prefix: null }],
    ['fee or', { head: 'fee or', prefix: null }],
    ["don't", { head: "don't", prefix: null }],
    ['invoice:*|x', { head: 'invoice:*|x', prefix: null }],
    ['Zoë Müller', { head: 'Zoë', prefix: 'müller:*' }],
  ])('%s', (query, expected) => {
    expect(parseSearchQuery(query)).toEqual(expected);
  });

  it('refuses an empty or overlong query', () => {
    expect(() => parseSearchQuery(' ')).toThrow(new SearchQueryError('Please enter a search query.'));
    expect(() => parseSearchQuery('x'.repeat(301))).toThrow(SearchQueryError);
  });
});
