import { PDFDocument } from 'pdf-lib';
import { extractInvoice } from '../../../../src/server/ai/extraction/invoice';
import { readDocument } from '../../../../src/server/ai/extraction/read-document';
import { renderInvoicePdf, type GeneratedInvoice } from '../../../support/invoices/render';
import { noOcr, page } from './helpers';

/** One PDF of the given PDFs' pages, in order (as a scanner or a mail merge joins invoices). */
async function joined(pdfs: Uint8Array[]): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  for (const bytes of pdfs) {
    const src = await PDFDocument.load(bytes);
    for (const p of await out.copyPages(src, src.getPageIndices())) out.addPage(p);
  }
  return out.save();
}

const fieldsOf = (inv: GeneratedInvoice) => ({
  invoice_number: inv.truth.invoice_number,
  invoice_date: inv.truth.invoice_date,
  total: inv.truth.total,
  subtotal: inv.truth.subtotal,
  tax: inv.truth.tax,
});

describe('a PDF holding several invoices', () => {
  it('reads the first invoice only, with its own lines, and says how many the PDF holds and which pages were read', async () => {
    const invoices = await Promise.all([31, 32, 33].map((seed) => renderInvoicePdf({ seed, layout: 'classic', font: 'helvetica' })));
    const doc = await readDocument(await joined(invoices.map((i) => i.pdf)), 'pdf', { ocr: noOcr });
    expect(doc.pages).toHaveLength(3);
    const result = extractInvoice(doc.pages);
    const [first] = invoices;
    expect({
      invoice_number: result.fields.invoice_number?.value,
      invoice_date: result.fields.invoice_date?.value,
      total: result.fields.total?.value,
      subtotal: result.fields.subtotal?.value,
      tax: result.fields.tax?.value,
    }).toEqual(fieldsOf(first));
    expect(result.lineItems.map((l) => [l.description, l.amount])).toEqual(first.data.lines.map((l) => [l.description, l.amount]));
    const numbers = invoices.map((i) => i.truth.invoice_number);
    expect(result.warnings[0]).toBe(
      `This PDF holds 3 invoices (${numbers[0]}, ${numbers[1]} and ${numbers[2]}): only the first, on page 1, was read. Upload the others as files of their own.`,
    );
  });

  it('keeps one invoice whole: its number on every page, its total on the last; a returns slip after it with a number of its own and no total', () => {
    const pages = [
      page([
        [40, 40, 'Invoice No: RE-1001'],
        [40, 60, 'Date: 2024-03-01'],
        [40, 100, 'Item A 100.00'],
      ]),
      page(
        [
          [40, 40, 'Invoice No: RE-1001'],
          [40, 100, 'Item B 50.00'],
          [40, 140, 'Total: 150.00 EUR'],
        ],
        2,
      ),
      page(
        [
          [40, 40, 'Returns slip'],
          [40, 60, 'Return No: RS-77'],
          [40, 100, 'Reason for return: ____'],
        ],
        3,
      ),
    ];
    const result = extractInvoice(pages);
    expect(result.fields.invoice_number?.value).toBe('RE-1001');
    expect(result.fields.total?.value).toBe(150);
    expect(result.warnings.some((w) => w.startsWith('This PDF holds'))).toBe(false);
  });

  it('parts invoices of more than one page each, naming the pages of the first', () => {
    const invoice = (number: string, total: string, from: number) => [
      page(
        [
          [40, 40, `Invoice No: ${number}`],
          [40, 60, 'Date: 2024-03-01'],
          [40, 100, 'Consulting 100.00'],
        ],
        from,
      ),
      page(
        [
          [40, 40, `Invoice No: ${number}`],
          [40, 140, `Total: ${total} EUR`],
        ],
        from + 1,
      ),
    ];
    const result = extractInvoice([...invoice('A-1', '100.00', 1), ...invoice('A-2', '250.00', 3)]);
    expect(result.fields.invoice_number?.value).toBe('A-1');
    expect(result.fields.total?.value).toBe(100);
    expect(result.warnings[0]).toBe(
      'This PDF holds 2 invoices (A-1 and A-2): only the first, on pages 1–2, was read. Upload the others as files of their own.',
    );
  });
});
