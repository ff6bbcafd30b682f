import { parseNumber } from '../../../src/server/ai/extraction/amount';
import { parseAmount } from '../../../src/server/tabular/amount';

describe('parseAmount on tricky amounts (the one number reader of CSV files and documents)', () => {
  // [text, comma-delimited file (decimal dot), decimal-comma file, document (convention unknown)]
  it.each([
    ['1.234', 1.234, 1234, 1234],
    ['1,234.50', 1234.5, 1234.5, 1234.5],
    ['1.234,50', 1234.5, 1234.5, 1234.5],
    ['0.025', 0.025, 0.025, 0.025],
    ['0,025', 0.025, 0.025, 0.025],
    ['-0,5', -0.5, -0.5, -0.5],
    ['(12.00)', -12, -12, -12],
    ['(0.025)', -0.025, -0.025, -0.025],
    ['-0.025', -0.025, -0.025, -0.025],
    ['0,0205', 0.0205, 0.0205, 0.0205],
    ['1,234', 1234, 1.234, 1234],
    ['10.000', 10, 10000, 10000],
  ])('%s', (text, dotFile, commaFile, document) => {
    expect(parseAmount(text, false)).toBe(dotFile);
    expect(parseAmount(text, true)).toBe(commaFile);
    expect(parseAmount(text, 'unknown')).toBe(document);
  });

  it("is what the document extraction's parseNumber reads (no reader of its own)", () => {
    for (const text of ['0.025', '0,025', '-0,5', '(12.00)', '1.234', '1,234.50', '1.234,50', '9,9000'])
      expect(parseNumber(text)).toBe(parseAmount(text, 'unknown'));
    expect(parseNumber('9,9000')).toBe(9.9);
    expect(parseNumber('abc')).toBeUndefined();
  });
});
