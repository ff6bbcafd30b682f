/**
 * Amounts on OCR pages (issue 20): a second look at the numbers read unsure, receipt rows whose
 * count, unit price and amount sit under the article's name, lines that one misread digit keeps
 * from adding up, totals that are all zero, and the Indian grouping of lakhs.
 */
import { amountCandidates, betterReading, editDistance, rereadRectangle } from '../../../../src/server/ai/ocr/amount-reread';
import { findAmounts } from '../../../../src/server/ai/extraction/amount';
import { extractInvoice, mendOneMisread } from '../../../../src/server/ai/extraction/invoice';
import type { LayoutWord } from '../../../../src/server/ai/layout/types';
import { ocrPage } from './helpers';

const word = (text: string, confidence: number): LayoutWord => ({ text, x: 100, y: 200, width: 30, height: 12, confidence });

describe('a second look at unsure numbers', () => {
  it('reads again only unsure words of digits and separators, the least sure first, at most as many as asked', () => {
    const words = [word('207004', 0.72), word('Summe', 0.5), word('9,99', 0.95), word('65,99', 0.71), word('7', 0.2), word('A1', 0.1), word('22237', 0.48)];
    expect(amountCandidates(words, { below: 0.9, max: 10 }).map((w) => w.text)).toEqual(['22237', '65,99', '207004']);
    expect(amountCandidates(words, { below: 0.9, max: 2 }).map((w) => w.text)).toEqual(['22237', '65,99']);
    // a decimal comma read as a colon ("8:73" for 6,73 on a receipt photo) when very unsure; a
    // time of day read fairly surely is left alone
    const colons = [word('8:73', 0.55), word('12:30', 0.8), word('27;68', 0.6), word('1:2', 0.3)];
    expect(amountCandidates(colons, { below: 0.9, max: 10 }).map((w) => w.text)).toEqual(['8:73', '27;68']);
    expect(betterReading(word('8:73', 0.55), '6,73', 0.9).text).toBe('6,73');
  });

  it('keeps the new reading only when it is an amount, clearly surer, and at most two characters away', () => {
    expect(betterReading(word('207004', 0.72), '20,00', 0.9).text).toBe('20,00');
    expect(betterReading(word('65,99', 0.71), '6,99', 0.95)).toMatchObject({ text: '6,99', confidence: 0.95 });
    expect(betterReading(word('$12.5O', 0.5), '12.50', 0.9).text).toBe('$12.50');
    // not an amount, not surer, or too far from what was read
    expect(betterReading(word('7,95', 0.61), '1,995', 0.73).text).toBe('7,95');
    expect(betterReading(word('9,99', 0.87), '9,49', 0.9).text).toBe('9,99');
    expect(betterReading(word('10145337', 0.84), '10145537', 0.99).text).toBe('10145337');
    expect(betterReading(word('4711', 0.5), '134,39', 0.99).text).toBe('4711');
    // the same digits with the decimal mark the page's reading lost: taken when as sure
    expect(betterReading(word('10492', 0.85), '104.92', 0.92).text).toBe('104.92');
    expect(betterReading(word('10492', 0.85), '104.92', 0.8).text).toBe('10492');
    expect(betterReading(word('026', 0.85), '0.26', 0.84).text).toBe('026');
    expect(betterReading(word('$1170', 0.67), '$11.70', 0.85).text).toBe('$11.70');
    expect(betterReading(word('1170', 0.67), '$11.70', 0.85).text).toBe('$11.70');
    expect(editDistance('207004', '20,00')).toBe(2);
  });

  it('reads a word with a margin of a quarter of its height, inside the image', () => {
    expect(rereadRectangle(word('9,99', 0.5), 1000, 1000)).toEqual({ left: 97, top: 197, width: 36, height: 18 });
    expect(rereadRectangle({ ...word('9,99', 0.5), x: 0, y: 990 }, 1000, 1000)).toEqual({ left: 0, top: 987, width: 33, height: 13 });
  });
});

describe('receipt rows under OCR', () => {
  const receipt: [number, number, string, number?][] = [
    [40, 20, 'Moebelhaus Beispiel GmbH'],
    [40, 60, 'Artikel 50319963'],
    [300, 60, '22621'],
    [40, 75, 'POANG Kissen'],
    [350, 75, '10,00'],
    [430, 75, '=e)', 0.3],
    [40, 90, 'Artikel 50306244'],
    [40, 105, 'RYET LED GU10'],
    [300, 105, '22237'],
    [60, 120, '2,000 x'],
    [200, 120, '3,99'],
    [350, 120, '7,98'],
    [430, 120, '0'],
    [40, 135, 'SKANKA Topf'],
    [350, 135, '14,99'],
    [430, 135, '0'],
    [40, 170, 'Summe'],
    [350, 170, '32,97'],
  ];

  it('reads a count, unit price and amount on a row of their own under the article name, and a speck after an amount as noise', () => {
    const r = extractInvoice([ocrPage(receipt)]);
    expect(r.lineItems.map(({ confidence: _, ...rest }) => rest)).toEqual([
      { description: 'POANG Kissen', amount: 10 },
      { description: 'RYET LED GU10', quantity: 2, unit_price: 3.99, amount: 7.98 },
      { description: 'SKANKA Topf', amount: 14.99 },
    ]);
    expect(r.warnings).toEqual([]);
  });

  it('mends the one amount a misread digit explains, the least surely read, and says so', () => {
    const misread = receipt.map((run): [number, number, string, number?] => (run[2] === '14,99' ? [350, 135, '14,95', 0.6] : run));
    const r = extractInvoice([ocrPage(misread)]);
    expect(r.lineItems.map((i) => i.amount)).toEqual([10, 7.98, 14.99]);
    expect(r.lineItems[2].confidence).toBeLessThan(0.6);
    expect(r.warnings).toContain("Line 3's amount was read as 14.95; 14.99 makes the lines add up, so it was taken: check it.");
  });

  it('mends nothing when two amounts are as unsure, when it was read surely, or when more than one digit differs; never a line that multiplies out', () => {
    const line = (amount: number, confidence: number, extra: object = {}) => ({ description: 'x', amount, confidence, ...extra });
    // 10.00 → 10.04 and 7.95 → 7.99 are both one character away: only a clearly least sure one is taken
    expect(mendOneMisread([line(10, 0.62), line(7.95, 0.61)], 17.99)).toBeUndefined();
    expect(mendOneMisread([line(10, 0.85), line(7.95, 0.61)], 17.99)?.items.map((i) => i.amount)).toEqual([10, 7.99]);
    // a line whose quantity × unit price makes its amount is never the one mended
    expect(mendOneMisread([line(10, 0.95), line(7.95, 0.61, { quantity: 1, unit_price: 7.95 })], 17.99)).toBeUndefined();
    expect(mendOneMisread([line(10, 0.85), line(7.95, 0.61, { quantity: 1, unit_price: 7.95 })], 17.99)?.mended).toEqual({ line: 1, read: 10, amount: 10.04 });
    expect(mendOneMisread([line(10, 1), line(7.95, 1)], 17.99)).toBeUndefined();
    // 10.00 → 10.13 and 7.95 → 8.08 differ in more than one character: no misread digit
    expect(mendOneMisread([line(10, 0.85), line(7.95, 0.61)], 18.08)).toBeUndefined();
  });
});

describe('totals', () => {
  it('never shows totals that are all zero as certain', () => {
    const r = extractInvoice([
      ocrPage([
        [40, 20, 'Contoso Hotel'],
        [40, 60, 'Room 1 night'],
        [350, 60, '99,00'],
        [300, 100, 'Subtotal'],
        [400, 100, '0.00'],
        [300, 115, 'Tax'],
        [400, 115, '0.00'],
        [300, 130, 'Total'],
        [400, 130, '0.00'],
      ]),
    ]);
    expect(r.fields.total?.value).toBe(0);
    expect(r.fields.total!.confidence).toBeLessThan(0.9);
  });

  it('reads the Indian grouping of lakhs and crores whole, never its tail as an amount', () => {
    expect(findAmounts('SUBTOTAL ₹6,00,000.00').map((a) => [a.value, a.currency])).toEqual([[600000, 'INR']]);
    expect(findAmounts('1,23,45,678.90 (1,08,000.00)').map((a) => a.value)).toEqual([12345678.9, -108000]);
    expect(findAmounts('1,234.56 1.234,56 12,50').map((a) => a.value)).toEqual([1234.56, 1234.56, 12.5]);
  });
});
