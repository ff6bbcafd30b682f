/**
 * Layouts from the fourth round of real documents (issue 20, chosen on dev documents): delivery
 * invoices whose totals rows also count pieces, and their due-date wording.
 */
import { extractInvoice } from '../../../../src/server/ai/extraction/invoice';
import { page } from './helpers';

const values = (r: ReturnType<typeof extractInvoice>) => Object.fromEntries(Object.entries(r.fields).map(([k, f]) => [k, f!.value]));

describe('delivery invoices', () => {
  it('reads "Total Price" as the total and "Total Pcs." as no amount, and "Payable on or before" as the due date', () => {
    const r = extractInvoice([
      page([
        [40, 20, 'NEXGEN'],
        [200, 60, 'Invoice Number: 3847193'],
        [40, 300, 'Total Pcs.: 27'],
        [300, 300, 'Total Price: 293.52'],
        [40, 315, 'Payable on or before 5/24/2024'],
      ]),
    ]);
    expect(values(r)).toMatchObject({ invoice_number: '3847193', total: 293.52, due_date: '2024-05-24' });
    // "Total pieces", "Total hours", "Total weight": counts, never the total
    for (const count of ['Total pieces: 12', 'Total hours: 40', 'Total Qty 7', 'Total Stück 3'])
      expect(
        extractInvoice([
          page([
            [40, 20, 'ACME'],
            [40, 300, count],
          ]),
        ]).fields.total,
      ).toBeUndefined();
  });

  it('takes the amount at the right margin of a totals row that also counts the pieces, and a priced total over a count on a returns slip', () => {
    const invoice = page([
      [40, 20, 'NEXGEN'],
      [40, 100, 'PRODUCT ID'],
      [150, 100, 'UNIT PRICE'],
      [230, 100, 'QUANTITY'],
      [400, 100, 'TOTAL PRICE'],
      [40, 120, 'H509L'],
      [150, 120, '5.00'],
      [240, 120, '150'],
      [420, 120, '750.00'],
      [40, 140, 'TOTAL'],
      [240, 140, '150'],
      [420, 140, '750.00'],
    ]);
    expect(values(extractInvoice([invoice])).total).toBe(750);
    const returns = page(
      [
        [40, 20, 'NEXGEN'],
        [400, 20, 'RETURNS'],
        [40, 140, 'TOTAL'],
        [240, 140, '150'],
      ],
      2,
    );
    expect(values(extractInvoice([invoice, returns])).total).toBe(750);
  });
});

describe('receipts sent by mail', () => {
  it('reads "Total Charges" as the total, and a zero balance after the payment as no total', () => {
    const r = extractInvoice([
      page([
        [40, 20, 'Contoso'],
        [40, 60, 'Receipt Number 334567'],
        [300, 200, 'Balance Due'],
        [420, 200, '$0.00'],
        [300, 170, 'Total Charges'],
        [420, 170, '$710.00'],
        [300, 185, 'Payment'],
        [420, 185, '$710.00'],
      ]),
    ]);
    expect(values(r).total).toBe(710);
    // zero when it is the only total there is
    expect(
      values(
        extractInvoice([
          page([
            [40, 20, 'Contoso'],
            [300, 200, 'Balance Due'],
            [420, 200, '$0.00'],
          ]),
        ]),
      ).total,
    ).toBe(0);
  });
});

describe('German tax', () => {
  it('reads "Steuer" alone as the tax, never "Steuernummer", "Steuersatz" or "Steuerberater"', () => {
    const doc = (label: string) =>
      extractInvoice([
        page([
          [40, 20, 'CONTOSO LTD.'],
          [300, 200, 'Zwischensumme'],
          [420, 200, '310,00 EURO'],
          [300, 215, label],
          [420, 215, '0,00 EURO'],
          [300, 230, 'Rechnungsbetrag'],
          [420, 230, '310,00 EURO'],
        ]),
      ]);
    expect(values(doc('Steuer'))).toMatchObject({ subtotal: 310, tax: 0, total: 310 });
    for (const other of ['Steuernummer', 'Steuersatz', 'Steuerberater']) expect(values(doc(other)).tax).toBeUndefined();
  });
});
