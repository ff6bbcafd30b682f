import { cleanCombinationName, formatLongDate, isBasicName } from '../../../src/core/catalogue';

describe("'(basic)' removal", () => {
  it.each([
    ['Invoice Extraction (basic)', 'Invoice Extraction'],
    ['Invoice (basic) Extraction', 'Invoice Extraction'],
    ['Invoice Extraction (Basic)', 'Invoice Extraction'],
    ['Invoice Extraction ( basic )', 'Invoice Extraction'],
    ['Basic Invoice Extraction', 'Basic Invoice Extraction'],
    ['Xero to Sheets', 'Xero to Sheets'],
  ])('%s -> %s', (input, out) => {
    expect(cleanCombinationName(input)).toBe(out);
  });

  it('tells basic variants by the word basic', () => {
    expect(isBasicName('Invoices (basic)')).toBe(true);
    expect(isBasicName('Invoices Basic')).toBe(true);
    expect(isBasicName('Basically invoices')).toBe(false);
  });
});

describe('long date', () => {
  it('formats a catalogue date in long format, on the same calendar day everywhere', () => {
    expect(formatLongDate('2026-11-22T00:00:00Z')).toBe('November 22, 2026');
    expect(formatLongDate('2026-11-22T23:30:00Z')).toBe('November 22, 2026');
    expect(formatLongDate('2026-01-05')).toBe('January 5, 2026');
  });
  it('is empty for nothing or garbage', () => {
    expect(formatLongDate(undefined)).toBe('');
    expect(formatLongDate('not a date')).toBe('');
  });
});
