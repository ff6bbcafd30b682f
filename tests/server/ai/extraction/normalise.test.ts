import { currencyCode, findAmounts, parseAmount, parseNumber } from '../../../../src/server/ai/extraction/amount';
import { findDates, inferDateOrder, parseDate } from '../../../../src/server/ai/extraction/date';

describe('amounts', () => {
  it.each([
    ['1,234.56', 1234.56],
    ['1.234,56', 1234.56],
    ['1234.5', 1234.5],
    ['1,234', 1234],
    ['1.234.567', 1234567],
    ['(12.50)', -12.5],
    ['-7,00', -7],
    ["1'234.50", 1234.5],
    ['12.3456', 12.3456],
  ])('parseNumber(%s) = %d', (text, value) => {
    expect(parseNumber(text)).toBe(value);
  });

  it('reads currency symbols and codes on either side', () => {
    expect(parseAmount('$1,234.56')).toMatchObject({ value: 1234.56, currency: 'USD' });
    expect(parseAmount('EUR 1.234,56')).toMatchObject({ value: 1234.56, currency: 'EUR' });
    expect(parseAmount('1 234,56 €')).toMatchObject({ value: 1234.56, currency: 'EUR' });
    expect(parseAmount('£ 99')).toMatchObject({ value: 99, currency: 'GBP' });
    expect(parseAmount('1,200.00 USD')).toMatchObject({ value: 1200, currency: 'USD' });
    expect(currencyCode('zzz')).toBeUndefined();
  });

  it('takes the last amount of a line and skips dates, ids and percentages', () => {
    expect(parseAmount('Total (incl. 20% VAT) 1,200.00')?.value).toBe(1200);
    expect(findAmounts('INV-2026-0042 on 01/03/2026')).toEqual([]);
    expect(parseAmount('no money here')).toBeUndefined();
  });

  it('reads a word of three capitals before an amount as no currency ("Total TTC -233,47 €", "VAT 19.00"), so the amount is found', () => {
    expect(findAmounts('Total TTC -233,47 €')).toEqual([{ value: -233.47, currency: 'EUR', raw: '-233,47 €' }]);
    expect(findAmounts('TVA 20,00 €')).toEqual([{ value: 20, currency: 'EUR', raw: '20,00 €' }]);
    expect(findAmounts('VAT 19.00')).toEqual([{ value: 19, raw: '19.00' }]);
    expect(findAmounts('EUR 12,00')).toEqual([{ value: 12, currency: 'EUR', raw: 'EUR 12,00' }]);
    // still part of an id: no amount
    expect(findAmounts('ABC123')).toEqual([]);
  });
});

describe('dates', () => {
  it.each([
    ['2026-03-01', '2026-03-01'],
    ['1 March 2026', '2026-03-01'],
    ['Mar 1, 2026', '2026-03-01'],
    ['1st Mar. 2026', '2026-03-01'],
    ['01-Mar-26', '2026-03-01'],
    ['31.12.2025', '2025-12-31'],
    ['13/02/2026', '2026-02-13'],
    ['02/13/2026', '2026-02-13'],
  ])('%s → %s', (text, iso) => {
    expect(parseDate(text, 'MDY')?.iso).toBe(iso);
    expect(parseDate(text, 'DMY')?.iso).toBe(iso);
  });

  it('reads an ambiguous numeric date in the given order and says it was ambiguous', () => {
    expect(parseDate('01/03/2026', 'DMY')).toMatchObject({ iso: '2026-03-01', ambiguous: true });
    expect(parseDate('01/03/2026', 'MDY')).toMatchObject({ iso: '2026-01-03', ambiguous: true });
  });

  it('rejects impossible dates', () => {
    expect(parseDate('31/02/2026')).toBeUndefined();
    expect(parseDate('2026-13-01')).toBeUndefined();
  });

  it('infers the order from an unambiguous date, else from the currency', () => {
    expect(inferDateOrder('Date 03/04/2026 Due 25/04/2026', 'USD')).toBe('DMY');
    expect(inferDateOrder('Date 04/13/2026', 'EUR')).toBe('MDY');
    expect(inferDateOrder('Date 03/04/2026', 'USD')).toBe('MDY');
    expect(inferDateOrder('Date 03/04/2026', 'EUR')).toBe('DMY');
    expect(findDates('from 2026-01-05 to 5 Feb 2026').map((d) => d.iso)).toEqual(['2026-01-05', '2026-02-05']);
  });
});
