import { crossCheck, extractInvoice, NO_TEXT_READ } from '../../../../src/server/ai/extraction/invoice';
import { buildPage } from '../../../../src/server/ai/layout/group';
import { page } from './helpers';

const values = (r: ReturnType<typeof extractInvoice>) => Object.fromEntries(Object.entries(r.fields).map(([k, f]) => [k, f!.value]));

describe('extractInvoice on hand-written layouts', () => {
  it('reads labels with values beside them, a party block, the line items and the totals', () => {
    const p = page([
      [50, 40, 'Acme Tools Ltd', 18],
      [50, 62, '12 Quarry Road'],
      [50, 74, 'Leeds LS1 4AB'],
      [50, 86, 'accounts@acme.example'],
      [380, 40, 'INVOICE', 20],
      [360, 80, 'Invoice #:'],
      [460, 80, 'A-20931'],
      [360, 95, 'Date:'],
      [460, 95, '14/03/2026'],
      [360, 110, 'Due Date:'],
      [460, 110, '13/04/2026'],
      [360, 125, 'Your Ref:'],
      [460, 125, 'PO 7781'],
      [50, 150, 'Bill To:'],
      [50, 164, 'Northwind Traders'],
      [50, 176, '5 Harbour Way'],
      [50, 188, 'Bristol BS1 5TT'],
      [50, 240, 'Description'],
      [300, 240, 'Qty'],
      [380, 240, 'Rate'],
      [480, 240, 'Amount'],
      [50, 256, 'Hex bolts M8'],
      [300, 256, '100'],
      [380, 256, '0.25'],
      [480, 256, '25.00'],
      [50, 270, 'Torque wrench'],
      [300, 270, '2'],
      [380, 270, '87.50'],
      [480, 270, '175.00'],
      [380, 300, 'Subtotal'],
      [480, 300, '200.00'],
      [380, 314, 'VAT 20%'],
      [480, 314, '40.00'],
      [380, 330, 'Balance Due'],
      [480, 330, '£240.00'],
      [50, 380, 'Terms: Net 30'],
    ]);
    const r = extractInvoice([p]);
    expect(values(r)).toMatchObject({
      vendor_name: 'Acme Tools Ltd',
      vendor_address: '12 Quarry Road, Leeds LS1 4AB',
      invoice_number: 'A-20931',
      invoice_date: '2026-03-14',
      due_date: '2026-04-13',
      customer_name: 'Northwind Traders',
      customer_address: '5 Harbour Way, Bristol BS1 5TT',
      subtotal: 200,
      tax: 40,
      total: 240,
      currency: 'GBP',
      payment_terms: 'Net 30',
    });
    expect(r.lineItems).toEqual([
      expect.objectContaining({ description: 'Hex bolts M8', quantity: 100, unit_price: 0.25, amount: 25 }),
      expect.objectContaining({ description: 'Torque wrench', quantity: 2, unit_price: 87.5, amount: 175 }),
    ]);
    expect(r.warnings).toEqual([]);
    expect(r.fields.total!.confidence).toBeGreaterThanOrEqual(0.97);
    for (const f of Object.values(r.fields)) expect(f!.confidence).toBeGreaterThan(0);
  });

  it('reads values written under their labels and month-first dates of a dollar invoice', () => {
    const p = page([
      [50, 40, 'Invoice Number'],
      [200, 40, 'Invoice Date'],
      [350, 40, 'Payment Due'],
      [50, 54, 'INV-0042'],
      [200, 54, '03/04/2026'],
      [350, 54, 'May 3, 2026'],
      [50, 100, 'Sold To'],
      [50, 114, 'Globex Corporation'],
      [380, 300, 'Total'],
      [480, 300, '$1,050.00'],
    ]);
    const r = extractInvoice([p]);
    expect(values(r)).toMatchObject({
      invoice_number: 'INV-0042',
      invoice_date: '2026-03-04',
      due_date: '2026-05-03',
      customer_name: 'Globex Corporation',
      total: 1050,
      currency: 'USD',
    });
  });

  it('reads European number formats and "Label: value" on one phrase', () => {
    const p = page([
      [50, 40, 'Rechnung GmbH', 16],
      [50, 100, 'Invoice No.: 2026/117'],
      [50, 114, 'Invoice Date: 1 March 2026'],
      [300, 200, 'Net Amount: 1.000,00 EUR'],
      [300, 214, 'VAT (19%): 190,00 EUR'],
      [300, 228, 'Total Amount Due: 1.190,00 EUR'],
    ]);
    expect(values(extractInvoice([p]))).toMatchObject({
      invoice_number: '2026/117',
      invoice_date: '2026-03-01',
      subtotal: 1000,
      tax: 190,
      total: 1190,
      currency: 'EUR',
    });
  });

  it('returns no fields and a warning for a page without an invoice', () => {
    const r = extractInvoice([page([[50, 50, 'Meeting notes from Tuesday']])]);
    expect(r.lineItems).toEqual([]);
    expect(r.warnings).toContain('No invoice total was found.');
  });
});

describe('crossCheck', () => {
  const f = (value: number) => ({ value, confidence: 0.8 });

  it('warns when subtotal plus tax is not the total', () => {
    expect(crossCheck({ subtotal: f(100), tax: f(20), total: f(125) }, [])).toEqual(['Subtotal 100.00 + tax 20.00 = 120.00, but the total is 125.00.']);
  });

  it('warns when the line items do not add up to the subtotal, and when a line is wrong', () => {
    const lines = [
      { description: 'a', quantity: 2, unit_price: 30, amount: 60, confidence: 1 },
      { description: 'b', quantity: 1, unit_price: 30, amount: 30, confidence: 1 },
    ];
    const warnings = crossCheck({ subtotal: f(100), tax: f(0), total: f(100) }, lines);
    expect(warnings).toEqual(['The line items add up to 90.00, but the subtotal is 100.00.']);
    // lines that fail their sum are no longer shown as certain
    expect(lines.map((l) => l.confidence)).toEqual([0.85, 0.85]);
    expect(crossCheck({ total: f(50) }, [{ description: 'x', quantity: 3, unit_price: 10, amount: 50, confidence: 1 }])).toEqual([
      'Line 1: 3 × 10.00 = 30.00, but its amount is 50.00.',
    ]);
    // a credited line printed negative beside its positive price adds up
    expect(crossCheck({ total: f(-30) }, [{ description: 'x', quantity: 3, unit_price: 10, amount: -30, confidence: 1 }])).toEqual([]);
  });

  it('raises confidence when everything agrees', () => {
    const fields = { subtotal: f(90), tax: f(10), total: f(100) };
    expect(crossCheck(fields, [{ description: 'a', quantity: 1, unit_price: 90, amount: 90, confidence: 1 }])).toEqual([]);
    expect(fields.total.confidence).toBe(0.97);
  });
});

describe('a document with no readable text', () => {
  it('says that no text could be read, before saying no total was found, and finds no field', () => {
    const r = extractInvoice([buildPage(1, 864, 1296, 'ocr', [])]);
    expect(r.fields).toEqual({});
    expect(r.lineItems).toEqual([]);
    expect(r.warnings[0]).toBe(NO_TEXT_READ);
    expect(r.warnings).toContain('No invoice total was found.');
  });
});
