import { Readable } from 'node:stream';
import { CsvFormatError, decodeText, detectDelimiter, normaliseHeader, parseAmount, readAmountCell, readCsv, streamCsv } from '../../../src/server/tabular';
import { detectColumns, detectKey, detectKeyPair, findColumn } from '../../../plugins/invoice-reconciliation/engine/columns';

describe('parseAmount', () => {
  it.each([
    ['1234.50', 1234.5],
    ['-12', -12],
    ['0', 0],
    ['1,234.50', 1234.5],
    ['1,234,567.89', 1234567.89],
    ['$1,234', 1234],
    ['€ 12', 12],
    ['12 €', 12],
    ['USD 1,200.00', 1200],
    ['1200.00 EUR', 1200],
    ['£-3.50', -3.5],
    ['(12.00)', -12],
    ['($1,000.25)', -1000.25],
    ['12.00-', -12],
    ['−5', -5],
    ['+7.5', 7.5],
    ['1 234,50', 1234.5],
    ['1\u00a0234,50', 1234.5],
    ["1'234.50", 1234.5],
    ['12,5', 12.5],
    ['.5', 0.5],
    ['1e3', 1000],
    ['  42  ', 42],
  ])('reads %j as %p', (text, value) => {
    expect(parseAmount(text)).toBe(value);
  });

  it('uses the file convention for the ambiguous thousands cases', () => {
    expect(parseAmount('1,234')).toBe(1234); // comma-delimited file: thousands separator
    expect(parseAmount('1,234', true)).toBe(1.234); // decimal-comma file: decimal separator
    expect(parseAmount('1.234')).toBe(1.234);
    expect(parseAmount('1.234', true)).toBe(1234);
    expect(parseAmount('1.234,50', true)).toBe(1234.5);
    expect(parseAmount('1.234,50')).toBe(1234.5); // both separators: the last one is decimal either way
    expect(parseAmount('12.50', true)).toBe(12.5);
  });

  it("reads text of no known convention ('unknown'): a lone separator before three digits groups thousands", () => {
    expect(parseAmount('1.234', 'unknown')).toBe(1234);
    expect(parseAmount('1,234', 'unknown')).toBe(1234);
    expect(parseAmount('1.234,56', 'unknown')).toBe(1234.56);
    expect(parseAmount('12,5', 'unknown')).toBe(12.5);
    expect(parseAmount('12.3456', 'unknown')).toBe(12.3456);
    expect(parseAmount('€ 1.234', 'unknown')).toBe(1234);
  });

  it('returns null for empty cells and NaN for garbage', () => {
    expect(parseAmount('')).toBeNull();
    expect(parseAmount('   ')).toBeNull();
    expect(parseAmount('-')).toBeNull();
    for (const bad of ['abc', '12abc', '1.2.3,4,5', '1,2.3,4', '$', '12%', 'N/A', '--5']) expect(parseAmount(bad)).toBeNaN();
  });

  it('names the file, row and column when a numeric cell holds garbage', () => {
    expect(readAmountCell('1,5', true, 'a.csv', 3, 'Qty')).toBe(1.5);
    expect(() => readAmountCell('twelve', false, 'invoices.csv', 7, 'Unit Price')).toThrow(
      new CsvFormatError('The file "invoices.csv", row 7, column "Unit Price": "twelve" is not a number.', 'invoices.csv'),
    );
  });
});

describe('reading files', () => {
  it('detects the delimiter outside quotes', () => {
    expect(detectDelimiter('a,b,c')).toBe(',');
    expect(detectDelimiter('a;b;c')).toBe(';');
    expect(detectDelimiter('"x,y";b;c')).toBe(';');
    expect(detectDelimiter('a\tb')).toBe('\t');
    expect(detectDelimiter('a|b|c')).toBe('|');
    expect(detectDelimiter('single')).toBe(',');
  });

  it('reads a BOM, quoted fields, CRLF and semicolons', async () => {
    const text = '\ufeffPO Number;Description;Qty;Unit Price\r\nPO-1;"Bolts; steel, 10mm";2;1.234,50\r\n\r\nPO-2;"Say ""hi""\r\nthere";1;5\r\n';
    const table = await readCsv({ name: 'po.csv', data: Buffer.from(text, 'utf8') });
    expect(table.delimiter).toBe(';');
    expect(table.decimalComma).toBe(true);
    expect(table.headers).toEqual(['PO Number', 'Description', 'Qty', 'Unit Price']);
    expect(table.rows).toEqual([
      ['PO-1', 'Bolts; steel, 10mm', '2', '1.234,50'],
      ['PO-2', 'Say "hi"\r\nthere', '1', '5'],
    ]);
    expect(table.rowNumbers).toEqual([2, 4]); // the blank line 3 still counts
  });

  it('normalises headers and names blank ones', async () => {
    const table = await readCsv({ name: 'x.csv', data: '  PO   Number ,,Total\n1,2,3\n' });
    expect(table.headers).toEqual(['PO Number', 'Column 2', 'Total']);
    expect(normaliseHeader(' Unit Price (€) ')).toBe('unit price');
    expect(normaliseHeader('Qté')).toBe('qte');
  });

  it('decodes Windows-1252 and UTF-16 files', () => {
    expect(decodeText(Uint8Array.from([0x43, 0x61, 0x66, 0xe9]))).toBe('Café');
    expect(decodeText(Uint8Array.from([0xff, 0xfe, 0x41, 0x00, 0x3b, 0x00, 0x42, 0x00]))).toBe('A;B');
  });

  it('streams a Node readable in batches, with multi-byte characters split across chunks', async () => {
    const bytes = Buffer.from('Key,Name\n1,Café\n2,Zoë\n', 'utf8');
    const chunks = Array.from(bytes).map((b) => Buffer.from([b])); // one byte per chunk
    const seen: string[][] = [];
    const info = await streamCsv({ name: 's.csv', data: Readable.from(chunks) }, { onRows: (rows) => seen.push(...rows) });
    expect(info.headers).toEqual(['Key', 'Name']);
    expect(info.rowCount).toBe(2);
    expect(seen).toEqual([
      ['1', 'Café'],
      ['2', 'Zoë'],
    ]);
  });

  it('reads text larger than one parse piece: quoted line breaks, CRLF and rows cut at every piece boundary', async () => {
    // ~20 bytes a row, so 64 KB pieces cut rows, quoted fields and CRLF pairs at many places
    const lines = ['Key,Note,Amount'];
    for (let i = 1; i <= 20000; i++) lines.push(i % 7 === 0 ? `K${i},"a, ""q""\r\nb",${i}.5` : `K${i},n${i},"1,${String(i % 1000).padStart(3, '0')}.25"`);
    const text = lines.join('\r\n') + '\r\n';
    expect(text.length).toBeGreaterThan(5 * 64 * 1024);
    for (const data of [text, Buffer.from(text, 'utf8')]) {
      const table = await readCsv({ name: 'big.csv', data });
      expect(table.rows.length).toBe(20000);
      expect(table.rows[6]).toEqual(['K7', 'a, "q"\r\nb', '7.5']);
      expect(table.rows[19999]).toEqual(['K20000', 'n20000', '1,000.25']);
      expect(table.rowNumbers[19999]).toBe(20001);
      expect(table.rows.every((r, i) => r.length === 3 && r[0] === `K${i + 1}`)).toBe(true);
    }
  });

  it('names the right row of a malformed field far into a big file', async () => {
    const lines = ['a,b'];
    for (let i = 1; i <= 12000; i++) lines.push(`${i},x`);
    lines.push('12001,"unclosed', '12002,y');
    await expect(readCsv({ name: 'late.csv', data: lines.join('\n') + '\n' })).rejects.toThrow(
      'The file "late.csv" is malformed at row 12002: a quoted field is not closed',
    );
  });

  it('gives a clear error for an empty file and an unclosed quote', async () => {
    await expect(readCsv({ name: 'empty.csv', data: '' })).rejects.toThrow('The file "empty.csv" is empty: it has no header row.');
    await expect(readCsv({ name: 'empty.csv', data: '\n\n' })).rejects.toThrow(CsvFormatError);
    await expect(readCsv({ name: 'bad.csv', data: 'a,b\n1,2\n3,"unclosed\n4,5\n' })).rejects.toThrow(
      'The file "bad.csv" is malformed at row 3: a quoted field is not closed (a " is missing).',
    );
  });

  it('rejects when a row handler throws, without an unhandled error', async () => {
    await expect(
      streamCsv(
        { name: 'x.csv', data: Readable.from([Buffer.from('a\n1\n2\n')]) },
        {
          onRows() {
            throw new Error('stop here');
          },
        },
      ),
    ).rejects.toThrow('stop here');
  });
});

describe('columns', () => {
  it('finds the value columns by synonyms, each column used once', () => {
    const map = detectColumns(['PO Number', 'Supplier Name', 'Supplier Email', 'Item Description', 'Qty', 'Unit Cost (USD)', 'Extended Amount'], [0]);
    expect(Object.fromEntries(Object.entries(map).map(([k, v]) => [k, v!.header]))).toEqual({
      vendor: 'Supplier Name',
      vendorEmail: 'Supplier Email',
      description: 'Item Description',
      quantity: 'Qty',
      unitPrice: 'Unit Cost (USD)',
      total: 'Extended Amount',
    });
    const other = detectColumns(['id', 'Total Quantity', 'Price', 'Total']);
    expect(other.quantity?.header).toBe('Total Quantity');
    expect(other.total?.header).toBe('Total');
    expect(other.unitPrice?.header).toBe('Price');
  });

  it('picks a shared key column, else an order reference on the invoice', () => {
    expect(detectKeyPair(['Invoice No', 'PO Number', 'Qty'], ['po_number', 'Qty'], 'i.csv', 'p.csv')).toEqual({
      invoiceKey: 'PO Number',
      purchaseOrderKey: 'po_number',
    });
    expect(detectKeyPair(['Invoice Number', 'Order Ref', 'Total'], ['Purchase Order', 'Total'], 'i.csv', 'p.csv')).toEqual({
      invoiceKey: 'Order Ref',
      purchaseOrderKey: 'Purchase Order',
    });
    expect(detectKey(['Line', 'Invoice Number', 'PO'], 'i.csv')).toBe('Invoice Number');
    expect(() => detectKeyPair(['Qty', 'Total'], ['PO', 'Total'], 'inv.csv', 'p.csv')).toThrow(
      /The file "inv.csv" has no column that looks like a key .* its columns are: Qty, Total/,
    );
  });

  it('finds a configured column trimmed and case-insensitively, or names the file and its columns', () => {
    expect(findColumn(['PO Number', 'Total'], '  po number ', 'i.csv', 'invoice key')).toBe(0);
    expect(findColumn(['PO_Number', 'Total'], 'PO Number', 'i.csv', 'invoice key')).toBe(0);
    expect(() => findColumn(['PO Number', 'Total'], 'Invoice ID', 'i.csv', 'invoice key')).toThrow(
      'The file "i.csv" has no column "Invoice ID" (chosen as the invoice key); its columns are: PO Number, Total.',
    );
  });
});
