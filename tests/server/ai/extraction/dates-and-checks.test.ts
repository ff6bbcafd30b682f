import { findAmounts } from '../../../../src/server/ai/extraction/amount';
import { decideDateOrder } from '../../../../src/server/ai/extraction/date';
import { extractInvoice } from '../../../../src/server/ai/extraction/invoice';
import { page } from './helpers';

type Run = [number, number, string, number?];
const values = (r: ReturnType<typeof extractInvoice>) => Object.fromEntries(Object.entries(r.fields).map(([k, f]) => [k, f!.value]));

/** A small invoice: labels at x=50, values at x=200, one row every 15 points. */
function invoice(rows: [string, string][], extra: Run[] = []) {
  const runs: Run[] = [[50, 30, 'Northwind Traders Ltd', 16]];
  rows.forEach(([label, value], i) => {
    runs.push([50, 60 + i * 15, label]);
    if (value) runs.push([200, 60 + i * 15, value]);
  });
  return extractInvoice([page([...runs, ...extra])]);
}

describe('day-first or month-first, decided from the document', () => {
  it('an unambiguous date on the document settles the order', () => {
    expect(decideDateOrder('Invoice date 04/05/2026 delivered 13/04/2026')).toEqual({ order: 'DMY', basis: 'dates' });
    expect(decideDateOrder('Invoice date 04/05/2026 delivered 04/13/2026', 'EUR')).toEqual({ order: 'MDY', basis: 'dates' });
  });

  it('a dotted date counts as day-first evidence', () => {
    expect(decideDateOrder('Invoice date 04.05.2026 total 10.00', 'USD')).toEqual({ order: 'DMY', basis: 'dates' });
  });

  it('the language decides when no date does', () => {
    expect(decideDateOrder('Rechnungsdatum 04/05/2026 Gesamtbetrag 10,00 Netto Umsatzsteuer', 'USD')).toEqual({ order: 'DMY', basis: 'language' });
    expect(decideDateOrder('Date de facture 04/05/2026 Montant TVA', 'USD')).toEqual({ order: 'DMY', basis: 'language' });
  });

  it('then the currency: US dollars month-first, others day-first', () => {
    expect(decideDateOrder('Invoice date 04/05/2026 Total', 'USD')).toEqual({ order: 'MDY', basis: 'currency' });
    expect(decideDateOrder('Invoice date 04/05/2026 Total', 'GBP')).toEqual({ order: 'DMY', basis: 'currency' });
  });

  it('with nothing to go on, day-first by default', () => {
    expect(decideDateOrder('04/05/2026')).toEqual({ order: 'DMY', basis: 'default' });
  });
});

describe('invoice dates are checked', () => {
  it('a US-dollar invoice whose month-first reading puts the due date before the issue date is read day-first, flagged, with a warning', () => {
    const r = invoice([
      ['Invoice No:', 'A-1'],
      ['Invoice Date:', '08/04/2026'],
      ['Due Date:', '07/05/2026'],
      ['Total:', '$120.00'],
    ]);
    expect(r.fields.invoice_date).toMatchObject({ value: '2026-04-08', needs_review: true });
    expect(r.fields.due_date).toMatchObject({ value: '2026-05-07', needs_review: true });
    expect(r.fields.invoice_date!.confidence).toBeLessThan(0.6);
    expect(r.warnings).toContain(
      'Read day-first and month-first the other way round (2026-08-04 / 2026-07-05 → 2026-04-08 / 2026-05-07), because a due date cannot be before the invoice date; please check both dates.',
    );
  });

  it('when another date on the document settles the order, an impossible pair is flagged but not swapped', () => {
    const r = invoice([
      ['Invoice No:', 'A-1'],
      ['Invoice Date:', '08/04/2026'],
      ['Due Date:', '07/03/2026'],
      ['Delivered:', '13/03/2026'],
      ['Total:', '€120.00'],
    ]);
    expect(r.fields.invoice_date).toMatchObject({ value: '2026-04-08', needs_review: true });
    expect(r.fields.due_date).toMatchObject({ value: '2026-03-07', needs_review: true });
    expect(r.warnings).toContain('The due date 2026-03-07 is before the invoice date 2026-04-08; please check both dates.');
  });

  it('a date the document settles is not flagged', () => {
    const r = invoice([
      ['Invoice Date:', '08/04/2026'],
      ['Due Date:', '13/05/2026'],
      ['Total:', '€120.00'],
    ]);
    expect(r.fields.invoice_date).toMatchObject({ value: '2026-04-08' });
    expect(r.fields.invoice_date!.needs_review).toBeUndefined();
    expect(r.fields.invoice_date!.confidence).toBeGreaterThanOrEqual(0.6);
    expect(r.warnings.some((w) => /date/.test(w))).toBe(false);
  });

  it('an ambiguous date with nothing on the document to settle it needs a look', () => {
    const r = extractInvoice([
      page([
        [50, 60, 'Date:'],
        [200, 60, '04/05/2026'],
      ]),
    ]);
    expect(r.fields.invoice_date).toMatchObject({ value: '2026-05-04', needs_review: true });
    expect(r.warnings[0]).toBe(
      'The invoice date 04/05/2026 could be day-first or month-first, and nothing on the document says which; it was read as 2026-05-04.',
    );
  });
});

describe('labels and amounts of generated and real invoices', () => {
  it('"Invoice # 362090", "Total (EUR)" and "Due 26 Apr 2026"', () => {
    const r = invoice([
      ['Invoice # 362090', ''],
      ['Date', '12 Apr 2026'],
      ['Due 26 Apr 2026', ''],
      ['Total (EUR)', '1,234.50'],
    ]);
    expect(values(r)).toMatchObject({ invoice_number: '362090', invoice_date: '2026-04-12', due_date: '2026-04-26', total: 1234.5, currency: 'EUR' });
  });

  it('a year is never an amount: the total is the one that adds up', () => {
    expect(findAmounts('© 2014 Example Inc.')).toEqual([]);
    const r = invoice([
      ['Subtotal', '3.50'],
      ['Tax', '0.61'],
      ['Total', '2014'],
      ['Total', '4.11'],
    ]);
    expect(values(r)).toMatchObject({ subtotal: 3.5, tax: 0.61, total: 4.11 });
    expect(r.fields.total!.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('totals that do not add up are never shown as certain', () => {
    const r = invoice([
      ['Subtotal', '100.00'],
      ['Tax', '20.00'],
      ['Total', '125.00'],
    ]);
    for (const f of ['subtotal', 'tax', 'total'] as const) {
      expect(r.fields[f]).toMatchObject({ needs_review: true });
      expect(r.fields[f]!.confidence).toBeLessThan(0.6);
    }
    expect(r.warnings).toContain('Subtotal 100.00 + tax 20.00 = 120.00, but the total is 125.00.');
  });

  it('a German invoice: labels, 1.234,56 amounts, VAT ids of both sides, the buyer under its heading', () => {
    const r = invoice([
      ['Rechnungsnummer:', 'R-2018-17'],
      ['Rechnungsdatum:', '05.03.2018'],
      ['Fälligkeitsdatum:', '04.04.2018'],
      ['USt-IdNr.:', 'DE123456789'],
      ['Käufer', ''],
      ['Kunden AG Mitte', ''],
      ['USt-IdNr. Kunde:', 'DE136695976'],
      ['Nettobetrag', '1.234,56 €'],
      ['USt. 19 %', '234,57 €'],
      ['Gesamtbetrag', '1.469,13 €'],
    ]);
    expect(values(r)).toMatchObject({
      invoice_number: 'R-2018-17',
      invoice_date: '2018-03-05',
      due_date: '2018-04-04',
      customer_name: 'Kunden AG Mitte',
      vendor_vat_id: 'DE123456789',
      customer_vat_id: 'DE136695976',
      subtotal: 1234.56,
      tax: 234.57,
      total: 1469.13,
      currency: 'EUR',
    });
  });

  it('a French invoice with space-grouped amounts and a buyer VAT id named by its label', () => {
    const r = invoice([
      ['Facture N°', 'FA-2017-0010'],
      ['Date de facture', '13/11/2017'],
      ["Date d'échéance", '13/12/2017'],
      ['N° TVA client', 'FR19787878784'],
      ['Total HT', '1 234,50 €'],
      ['Total TVA', '246,90 €'],
      ['Total TTC', '1 481,40 €'],
    ]);
    expect(values(r)).toMatchObject({
      invoice_number: 'FA-2017-0010',
      invoice_date: '2017-11-13',
      due_date: '2017-12-13',
      customer_vat_id: 'FR19787878784',
      subtotal: 1234.5,
      tax: 246.9,
      total: 1481.4,
      currency: 'EUR',
    });
  });

  it('Dutch, Spanish and Italian labels', () => {
    expect(
      values(
        invoice([
          ['Factuurnummer:', '2026-041'],
          ['Factuurdatum:', '01-03-2026'],
          ['Subtotaal', '100,00'],
          ['BTW 21%', '21,00'],
          ['Totaal', '121,00'],
        ]),
      ),
    ).toMatchObject({
      invoice_number: '2026-041',
      invoice_date: '2026-03-01',
      subtotal: 100,
      tax: 21,
      total: 121,
    });
    expect(
      values(
        invoice([
          ['Nº Factura:', 'F-77'],
          ['Fecha de factura:', '02/03/2026'],
          ['Base imponible', '200,00'],
          ['IVA 21%', '42,00'],
          ['Total factura', '242,00'],
        ]),
      ),
    ).toMatchObject({
      invoice_number: 'F-77',
      invoice_date: '2026-03-02',
      subtotal: 200,
      tax: 42,
      total: 242,
    });
    expect(
      values(
        invoice([
          ['Fattura n.', '12/2026'],
          ['Data fattura:', '03/03/2026'],
          ['Imponibile', '50,00'],
          ['IVA 22%', '11,00'],
          ['Totale documento', '61,00'],
        ]),
      ),
    ).toMatchObject({
      invoice_number: '12/2026',
      invoice_date: '2026-03-03',
      subtotal: 50,
      tax: 11,
      total: 61,
    });
  });
});

describe('line items of real layouts', () => {
  it('a German table: an ignored position and tax-rate column, the amount on the row under the line, unit prices with four decimals, a note under each line', () => {
    const r = extractInvoice([
      page([
        [40, 100, 'Pos'],
        [90, 100, 'Beschreibung'],
        [285, 100, 'Nettopreis'],
        [375, 100, 'Menge'],
        [420, 100, 'Steuersatz'],
        [500, 100, 'Nettobetrag'],
        [90, 110, '(Art)'],
        [40, 125, '1'],
        [90, 125, 'Trennblätter A4'],
        [295, 125, '9,9000'],
        [377, 125, '20 Stk'],
        [430, 125, '19 %'],
        [90, 134, '4012345001235'],
        [510, 134, '198,00'],
        [45, 143, '(GTIN)'],
        [40, 170, '2'],
        [90, 170, 'Joghurt Banane'],
        [295, 170, '0,025'],
        [377, 170, '50 Stk'],
        [430, 170, '7 %'],
        [510, 179, '1,25'],
        [300, 220, 'Nettobetrag'],
        [510, 220, '199,25'],
      ]),
    ]);
    expect(r.lineItems.map(({ description, quantity, unit_price, amount }) => ({ description, quantity, unit_price, amount }))).toEqual([
      { description: 'Trennblätter A4', quantity: 20, unit_price: 9.9, amount: 198 },
      { description: 'Joghurt Banane', quantity: 50, unit_price: 0.025, amount: 1.25 },
    ]);
    expect(r.fields.subtotal?.value).toBe(199.25);
  });
});

describe('totals when more than one trio adds up', () => {
  it('a rate row of the tax breakdown adds up as well as the whole: the whole is taken, and certain', () => {
    const r = invoice([
      ['Invoice number', 'INV-77'],
      ['Subtotal 19%', '100.00'],
      ['VAT 19%', '19.00'],
      ['Total 19%', '119.00'],
      ['Subtotal 7%', '100.00'],
      ['VAT 7%', '7.00'],
      ['Total 7%', '107.00'],
      ['Subtotal', '200.00'],
      ['VAT', '26.00'],
      ['Invoice total', '226.00'],
    ]);
    expect(values(r)).toMatchObject({ subtotal: 200, tax: 26, total: 226 });
    for (const f of ['subtotal', 'tax', 'total'] as const) expect(r.fields[f]!.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('the same when the rate row is printed first under the same labels', () => {
    const r = invoice([
      ['Invoice number', 'INV-78'],
      ['Subtotal', '100.00'],
      ['VAT 19%', '19.00'],
      ['Total', '119.00'],
      ['Subtotal', '200.00'],
      ['VAT', '26.00'],
      ['Total', '226.00'],
    ]);
    expect(values(r)).toMatchObject({ subtotal: 200, tax: 26, total: 226 });
  });
});
