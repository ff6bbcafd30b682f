import { extractInvoice } from '../../../../src/server/ai/extraction/invoice';
import { buildPage } from '../../../../src/server/ai/layout/group';
import { expectFields, page } from './helpers';

describe('a hotel folio read by its rows (no header the vocabulary reads)', () => {
  it("takes each row's posting date and reference off its description, and the brand logos in the page's margin off its end", () => {
    const r = extractInvoice([
      page([
        [40, 40, 'Hampton Inn Example City'],
        [40, 120, 'Confirmation Number: 80087193'],
        [40, 160, '9/9/2024   368901   GUEST ROOM        $285.21'],
        [40, 175, '9/9/2024   368901   LODGING TAX         $9.98'],
        [520, 175, 'canopy'],
        [40, 190, '©/9/2024   368901   TPS/GST RM         $14.76'],
        [40, 205, '9/10/2024  369253   GUEST ROOM        $285.21'],
        [520, 205, 'CU RIO'],
        [40, 220, '9/10/2024  369253   LODGING TAX         $9.98'],
        [300, 260, 'Total'],
        [400, 260, '605.14'],
      ]),
    ]);
    expect(r.lineItems.map((i) => [i.description, i.amount])).toEqual([
      ['GUEST ROOM', 285.21],
      ['LODGING TAX', 9.98],
      ['TPS/GST RM', 14.76],
      ['GUEST ROOM', 285.21],
      ['LODGING TAX', 9.98],
    ]);
    expectFields(r, { total: 605.14 });
  });

  it('keeps a receipt row that starts with a number of its own, and a word close after the amount is no margin', () => {
    const r = extractInvoice([
      page([
        [40, 40, 'Kiosk am Markt'],
        [40, 100, '4711 Kaffee           2,50 A'],
        [40, 115, 'Brezel                1,20 A'],
        [40, 140, 'Summe                 3,70'],
      ]),
    ]);
    expect(r.lineItems.map((i) => [i.description, i.amount])).toEqual([
      ['4711 Kaffee', 2.5],
      ['Brezel', 1.2],
    ]);
  });
});

describe('an amount in brackets in a total label', () => {
  it('"Total excl. VAT 9% (770.00)   706.42 EUR": the bracketed amount is what the tax is taken of, the value is at the right', () => {
    const r = extractInvoice([
      page([
        [40, 40, 'Example Hotel OÜ'],
        [40, 60, 'Invoice No 377904'],
        [300, 300, 'Total'],
        [480, 300, '770.00 EUR'],
        [300, 320, 'Total excl. VAT 9% (770.00)'],
        [480, 320, '706.42 EUR'],
        [300, 340, 'VAT 9%'],
        [480, 340, '63.58 EUR'],
      ]),
    ]);
    expectFields(r, { subtotal: 706.42, tax: 63.58, total: 770 });
  });
});

describe("a letterhead's brand and the company's legal name in the foot", () => {
  it('takes the legal name that shares a word with the brand, from the middle of a footer line', () => {
    const r = extractInvoice([
      page([
        [40, 30, 'Only YOU Hotel Atocha', 16],
        [40, 60, 'Paseo Infanta Isabel 13, 28014 Madrid'],
        [40, 100, 'FACTURA 883/19024895'],
        [40, 700, 'ONLY YOU HOTELS S.L. Avda. Bartolomé Roselló, 18 - 07800 Ibiza C.I.F: B-16606576', 7],
      ]),
    ]);
    expectFields(r, { vendor_name: 'ONLY YOU HOTELS S.L.' });
  });

  it('keeps the brand when no legal name shares a word with it', () => {
    const r = extractInvoice([
      page([
        [40, 30, 'Kiosk Sonnenschein', 16],
        [40, 60, 'Marktplatz 3, 12345 Musterstadt'],
        [40, 100, 'Rechnung 4711'],
        [40, 700, 'Bankverbindung: Musterbank AG, IBAN DE02 1203 0000 0000 2020 51', 7],
      ]),
    ]);
    expectFields(r, { vendor_name: 'Kiosk Sonnenschein' });
  });
});

describe("a folio's date and a lost decimal point", () => {
  const folio = (stateTax: string) =>
    extractInvoice([
      page([
        [300, 30, 'Contoso Inn', 16],
        [40, 100, 'Alex Morgan'],
        [40, 140, 'Arrive: 27Mar21   Time: 05:02PM   Depart: 28Mar21   Time: 02:52PM'],
        [40, 170, 'DATE'],
        [100, 170, 'DESCRIPTION'],
        [400, 170, 'CHARGES'],
        [480, 170, 'CREDITS'],
        [40, 185, '27Mar21'],
        [100, 185, 'Room Charge'],
        [400, 185, '88.00'],
        [40, 200, '27Mar21'],
        [100, 200, 'County Tax 6%'],
        [400, 200, '5.28'],
        [40, 215, '27Mar21'],
        [100, 215, 'State Tax 6%'],
        [400, 215, stateTax],
        [40, 230, '27Mar21'],
        [100, 230, 'Daily Parking'],
        [400, 230, '6.00'],
        [40, 245, '28Mar21'],
        [100, 245, 'American Express'],
        [480, 245, '99.28'],
        [300, 270, 'Total'],
        [400, 270, '104.56'],
        [480, 270, '104.56'],
      ]),
    ]);

  it('is dated the day its guest departs when no label names the issue date', () => {
    expectFields(folio('5.28'), { invoice_date: '2021-03-28', total: 104.56 });
  });

  it('an amount read without its decimal point ("528" for "5.28") that makes the lines add up is mended and marked for a look', () => {
    const r = folio('528');
    expect(r.lineItems.map((i) => i.amount)).toEqual([88, 5.28, 5.28, 6]);
    expect(r.warnings.join(' ')).toContain('was read as 528.00; 5.28 makes the lines add up');
  });
});

describe('a currency sign another country shares', () => {
  const amounts = (sign: string, extra: string) =>
    extractInvoice([
      page([
        [40, 30, 'Example Services', 16],
        [40, 60, extra],
        [40, 100, 'Invoice 4711'],
        [300, 300, 'Subtotal'],
        [400, 300, `${sign}1,000.00`],
        [300, 315, 'Tax'],
        [400, 315, `${sign}50.00`],
        [300, 330, 'Total'],
        [400, 330, `${sign}1,050.00`],
      ]),
    ]);

  it('"$" on a page with Canadian sales taxes (TPS/TVQ, HST) is the Canadian dollar', () => {
    expectFields(amounts('$', 'TPS/GST: 770149714  TVQ/QST: 1225244584'), { currency: 'CAD' });
    expectFields(amounts('$', 'Phone 555-0100'), { currency: 'USD' });
  });

  it('"¥" read by OCR on an Indian invoice (GSTIN, IGST, lakhs) is the rupee sign misread', () => {
    const ocr = (text: string) => {
      const p = page([
        [40, 30, 'Contoso India Pvt Ltd', 16],
        [40, 60, text],
        [40, 100, 'Invoice 4711'],
        [300, 300, 'Subtotal'],
        [400, 300, '¥6,00,000.00'],
        [300, 315, 'IGST'],
        [400, 315, '¥1,08,000.00'],
        [300, 330, 'Total'],
        [400, 330, '¥7,08,000.00'],
      ]);
      return extractInvoice([buildPage(1, p.width, p.height, 'ocr', p.words)]);
    };
    expectFields(ocr('GSTIN: 12ABCDE0123A1A2'), { currency: 'INR', total: 708000 });
  });
});
