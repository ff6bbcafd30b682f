import { CsvFormatError, readCsv } from '../../../src/server/tabular';
import { cleanDelta, differs, reconcile } from '../../../plugins/invoice-reconciliation/engine/matcher';

const PO = [
  'PO Number,Vendor,Description,Quantity,Unit Price,Total',
  'PO-1,Acme Ltd,Bolts,10,2.50,25.00',
  'PO-2,Acme Ltd,Nuts,4,1.00,4.00',
  'PO-3,Globex,Paper,3,0.10,0.30',
  'PO-4,Globex,Ink,1,100.00,100.00',
  'PO-5,Initech,Chairs,2,50.00,100.00',
  'PO-9,Initech,Desks,1,300.00,300.00',
].join('\n');

const INVOICES = [
  'Invoice No,PO Number,Vendor,Description,Qty,Unit Price,Amount',
  'INV-1,PO-1,Acme Ltd,Bolts,12,2.50,30.00', // quantity +2 and total +5
  'INV-2,  po-2 ,ACME LTD ,Nuts,4,1.00,4.00', // padded, other case: clean
  'INV-3,PO-3,Globex,Paper,3,0.1,0.30', // 3 × 0.1 = 0.30000000000000004: noise, clean
  'INV-4,PO-4,Globex Corp,Ink,1,"$100.01",100.01', // within tolerance, vendor differs
  'INV-5,PO-5,Initech,Chairs,2,52.00,104.00', // unit price +2, total +4
  'INV-6,PO-7,Initech,Lamps,1,20.00,20.00', // no such PO
  'INV-7,PO-1,Acme Ltd,Bolts again,1,2.50,2.50', // duplicate key
].join('\n');

async function run(invoices = INVOICES, orders = PO, options = {}) {
  return reconcile({ name: 'invoices.csv', data: invoices }, { name: 'orders.csv', data: orders }, options);
}

describe('tolerance and noise', () => {
  it('counts a difference equal to the tolerance as equal, and floating-point noise as nothing', () => {
    expect(differs(100, 100.01, 0.01)).toBe(false);
    expect(differs(100, 100.011, 0.01)).toBe(true);
    expect(differs(0.1 + 0.2, 0.3, 0)).toBe(false);
    expect(differs(1e9 + 0.01, 1e9, 0.01)).toBe(false);
    expect(differs(5, 5.001, 0)).toBe(true);
    expect(cleanDelta(10.3 - 10.1)).toBe(0.2);
  });
});

describe('reconcile', () => {
  it('detects the keys and columns from the headers', async () => {
    const { metadata } = await run();
    expect(metadata.invoice_key).toBe('PO Number');
    expect(metadata.purchase_order_key).toBe('PO Number');
    expect(metadata.columns.invoice).toEqual({ vendor: 'Vendor', description: 'Description', quantity: 'Qty', unitPrice: 'Unit Price', total: 'Amount' });
    expect(metadata.columns.purchase_order).toMatchObject({ quantity: 'Quantity', unitPrice: 'Unit Price', total: 'Total' });
  });

  it('reports every difference with both values and the delta', async () => {
    const { discrepencies } = await run();
    const summary = discrepencies.map((d) => [d.kind, d.key, d.invoice_value, d.purchase_order_value, d.delta, d.invoice_row, d.purchase_order_row]);
    expect(summary).toEqual([
      ['quantity', 'PO-1', 12, 10, 2, 2, 2],
      ['total', 'PO-1', 30, 25, 5, 2, 2],
      ['vendor', 'PO-4', 'Globex Corp', 'Globex', null, 5, 5],
      ['unit_price', 'PO-5', 52, 50, 2, 6, 6],
      ['total', 'PO-5', 104, 100, 4, 6, 6],
      ['duplicate_invoice_key', 'PO-1', 'PO-1', null, null, 8, 2],
    ]);
    expect(discrepencies[0].message).toBe('PO-1: invoiced quantity 12 differs from the ordered 10 by +2.');
    expect(discrepencies[5].message).toContain('appears again at row 8 (first at row 2)');
  });

  it('lists unmatched rows on both sides and counts everything in the metadata', async () => {
    const { unmatched_records, metadata } = await run();
    expect(unmatched_records.map((u) => [u.side, u.key, u.row])).toEqual([
      ['invoice', 'PO-7', 7],
      ['purchase_order', 'PO-9', 7],
    ]);
    expect(unmatched_records[0].reason).toBe('No purchase order with PO Number "PO-7".');
    expect(metadata).toMatchObject({
      invoice_rows: 7,
      purchase_order_rows: 6,
      matched_rows: 5,
      clean_matched_rows: 2,
      lines_with_discrepancies: 3,
      unmatched_invoice_rows: 1,
      unmatched_purchase_order_rows: 1,
      duplicate_invoice_keys: 1,
      discrepancy_count: 6,
      discrepancies_by_kind: { quantity: 1, total: 2, vendor: 1, unit_price: 1, duplicate_invoice_key: 1 },
      // 30 + 4 + 0.30 + 100.01 + 104 + 20 + 2.50
      invoice_total: 260.81,
      // 25 + 4 + 0.30 + 100 + 100 + 300
      purchase_order_total: 529.3,
      matched_invoice_total: 238.31,
      matched_purchase_order_total: 229.3,
      total_difference: -268.49,
      match_rate: Math.round((5 / 6) * 10000) / 10000,
      clean_match_rate: Math.round((2 / 6) * 10000) / 10000,
      tolerance: 0.01,
    });
    expect(metadata.time_taken_ms).toBeGreaterThanOrEqual(0);
    const acme = metadata.vendors.find((v) => v.vendor === 'Acme Ltd')!;
    expect(acme).toMatchObject({ matched_lines: 2, clean_lines: 1, discrepancy_lines: 1 });
    expect(acme.clean_sample).toEqual([{ key: 'po-2', row: 3, total: 4, description: 'Nuts' }]);
  });

  it('applies a configured tolerance at its edge', async () => {
    const tight = await run(undefined, undefined, { tolerance: 0 });
    expect(tight.discrepencies.filter((d) => d.key === 'PO-4').map((d) => [d.kind, d.delta])).toEqual([
      ['unit_price', 0.01],
      ['total', 0.01],
      ['vendor', null],
    ]);
    const loose = await run(undefined, undefined, { tolerance: 5 });
    // quantity +2, unit price +2 and total +4 are within 5; the total +5 of PO-1 is exactly 5: not flagged.
    expect(loose.discrepencies.map((d) => d.kind)).toEqual(['vendor', 'duplicate_invoice_key']);
    await expect(run(undefined, undefined, { tolerance: -1 })).rejects.toThrow(/tolerance must be a number of zero or more/);
  });

  it('checks the invoice line total against quantity × unit price', async () => {
    const r = await run('PO Number,Qty,Unit Price,Total\nPO-1,10,2.50,26.00\n', 'PO Number,Qty,Unit Price,Total\nPO-1,10,2.50,26.00\n');
    expect(r.discrepencies).toEqual([
      expect.objectContaining({ kind: 'line_total', key: 'PO-1', invoice_value: 26, expected_value: 25, delta: 1, invoice_row: 2 }),
    ]);
  });

  it('reports a value present on one side only', async () => {
    const r = await run('PO Number,Qty,Total\nPO-1,,25\n', 'PO Number,Qty,Total\nPO-1,10,25\n');
    expect(r.discrepencies.map((d) => [d.kind, d.field, d.invoice_value, d.purchase_order_value])).toEqual([['missing_value', 'quantity', null, 10]]);
  });

  it('flags duplicate purchase-order keys and rows without a key', async () => {
    const r = await run('PO Number,Total\nPO-1,5\n,7\n', 'PO Number,Total\nPO-1,5\npo-1 ,6\n ,1\n');
    expect(r.discrepencies.map((d) => [d.kind, d.purchase_order_row])).toEqual([['duplicate_purchase_order_key', 3]]);
    expect(r.unmatched_records.map((u) => [u.side, u.row, u.reason])).toEqual([
      ['purchase_order', 4, 'No value in the key column "PO Number".'],
      ['invoice', 3, 'No value in the key column "PO Number".'],
    ]);
    expect(r.metadata.duplicate_purchase_order_keys).toBe(1);
  });

  it('matches on configured keys with different names, semicolons and decimal commas', async () => {
    const invoices = 'Ref;Menge;Stückpreis;Betrag\nA-1;2;1.000,50;2.001,00\n';
    const orders = '\ufeffOrder ID,Quantity,Unit Price,Total\r\na-1,2,"1,000.50","2,001.00"\r\n';
    const r = await run(invoices, orders, { invoiceKey: 'ref', purchaseOrderKey: 'ORDER ID' });
    expect(r.metadata.matched_rows).toBe(1);
    expect(r.discrepencies).toEqual([]);
    expect(r.metadata.purchase_order_total).toBe(2001);
  });

  it('names the file and its columns when the key column is missing', async () => {
    await expect(run(undefined, undefined, { invoiceKey: 'Invoice ID', purchaseOrderKey: 'PO Number' })).rejects.toThrow(
      'The file "invoices.csv" has no column "Invoice ID" (chosen as the invoice key); its columns are: Invoice No, PO Number, Vendor, Description, Qty, Unit Price, Amount.',
    );
    await expect(run('Qty,Total\n1,2\n')).rejects.toThrow(/The file "invoices.csv" has no column that looks like a key/);
  });

  it('names the file, row and column of a garbage number', async () => {
    const bad = INVOICES.replace('INV-5,PO-5,Initech,Chairs,2,52.00', 'INV-5,PO-5,Initech,Chairs,2,fifty');
    const error = await run(bad).catch((e) => e);
    expect(error).toBeInstanceOf(CsvFormatError);
    expect(error.message).toBe('The file "invoices.csv", row 6, column "Unit Price": "fifty" is not a number.');
  });

  it('accepts tables already in memory', async () => {
    const invoices = await readCsv({ name: 'invoices.csv', data: INVOICES });
    const orders = await readCsv({ name: 'orders.csv', data: PO });
    const r = await reconcile(invoices, orders);
    expect(r.metadata.matched_rows).toBe(5);
    expect(r.discrepencies).toHaveLength(6);
  });
});
