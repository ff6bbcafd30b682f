import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eInvoiceText, extractInvoiceFromDocument, fromEInvoice, readEInvoice, xmlDepth, type EInvoice } from '../../../../src/server/ai/extraction/e-invoice';
import { NOT_AN_E_INVOICE_MESSAGE, readEInvoiceFile, readEInvoiceFileTask } from '../../../../src/server/ai/extraction/e-invoice-file';
import { readDocument, sniffDocumentType } from '../../../../src/server/ai/extraction/read-document';
import type { OcrEngine } from '../../../../src/server/ai/ocr';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../../../fixtures/e-invoices', name));
const UBL = fixture('xrechnung-01.21a-ubl.xml');
const CII = fixture('xrechnung-01.21a-cii.xml');
// a real Belgian e-fff UBL invoice (OCA/edi's test file) that carries its own page as a PDF
const EFFF = fixture('efff-16117778-ubl-with-pdf.xml');
/** The PDF the e-fff file carries, in base64. */
const EFFF_PDF = /<cbc:EmbeddedDocumentBinaryObject\s+mimeCode="application\/pdf"\s*>([^<]+)</.exec(EFFF.toString('utf8'))![1].replace(/\s+/g, '');
/** A UBL invoice with a PDF attached as an additional document (base64), before its seller. */
const attachTo = (xml: string, base64: string, name: string) =>
  xml.replace(
    '<cac:AccountingSupplierParty>',
    `<cac:AdditionalDocumentReference><cbc:ID>${name}</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="${name}">${base64}</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference><cac:AccountingSupplierParty>`,
  );
/** KoSIT's 01.21a UBL with PDFs attached (base64, name), in order, before its first line. */
const withAttachment = (base64: string, name = 'anhang.pdf', ...more: [string, string][]) =>
  Buffer.from(more.reduce((xml, [b, n]) => attachTo(xml, b, n), attachTo(UBL.toString('utf8'), base64, name)));
const BROKEN_PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >>\ngarbage\n%%EOF').toString('base64');

/** A real invoice page of another invoice (famoser/pdf-generator's example, see the corpus README): an annex to these files. */
const OTHER_PDF = readFileSync(path.join(__dirname, '../../../fixtures/real-invoices/en-famoser-UZH-ZI-5.pdf')).toString('base64');
/** The e-fff invoice with another PDF attached before its own page. */
const EFFF_ANNEX_FIRST = Buffer.from(
  EFFF.toString('utf8').replace(
    '<cac:AdditionalDocumentReference>',
    `<cac:AdditionalDocumentReference><cbc:ID>Stundenzettel</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="stundenzettel.pdf">${OTHER_PDF}</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference><cac:AdditionalDocumentReference>`,
  ),
);

/** An OCR engine the XML path must never call. */
const noOcr: OcrEngine = {
  recognize: () => Promise.reject(new Error('an XML e-invoice has no page to recognise')),
  close: async () => undefined,
};

/** KoSIT's XRechnung business case 01.21a as the product shows it (the seller's VAT id differs between its UBL and CII files). */
const fields01_21a = (vendorVat: string) => ({
  invoice_number: { value: '18383', confidence: 0.99 },
  invoice_date: { value: '2020-11-27', confidence: 0.99 },
  due_date: { value: '2020-12-27', confidence: 0.99 },
  vendor_name: { value: 'Mustermann GmbH', confidence: 0.99 },
  vendor_address: { value: 'Musterstrasse 4, 60388 Frankfurt am Main', confidence: 0.99 },
  vendor_vat_id: { value: vendorVat, confidence: 0.99 },
  customer_name: { value: 'DB Station&Service AG RB Mitte', confidence: 0.99 },
  customer_address: { value: 'Musterweg 1, 10115 Berlin', confidence: 0.99 },
  customer_vat_id: { value: 'DE152138634', confidence: 0.99 },
  subtotal: { value: 233, confidence: 0.99 },
  tax: { value: 0, confidence: 0.99 },
  total: { value: 233, confidence: 0.99 },
  currency: { value: 'EUR', confidence: 0.99 },
  payment_terms: { value: '10 Tage 3% Skonto, 30 Tage netto', confidence: 0.99 },
});
const line01_21a = [{ description: 'Tür Instandsetzung', quantity: 4, unit_price: 52, amount: 208, confidence: 0.99 }];

describe('an XML e-invoice uploaded as the file itself', () => {
  it('reads KoSIT’s XRechnung UBL file as its data: every field and the line, certain, the 25.00 delivery charge taken into the sums', () => {
    const read = readEInvoiceFileTask({ bytes: UBL, name: 'rechnung.xml' });
    expect(read.format).toBe('XRechnung (UBL)');
    const result = fromEInvoice(read);
    expect(result).toEqual({
      fields: fields01_21a('DE123456789'),
      lineItems: line01_21a,
      warnings: [],
      eInvoice: { format: 'XRechnung (UBL)', attachment: 'rechnung.xml', standalone: true },
    });
  });

  it('reads the same invoice written as UN/CEFACT CII to the same values', () => {
    const result = fromEInvoice(readEInvoiceFileTask({ bytes: CII, name: 'rechnung-cii.xml' }));
    expect(result).toEqual({
      fields: fields01_21a('DE152338654'),
      lineItems: line01_21a,
      warnings: [],
      eInvoice: { format: 'XRechnung (CII)', attachment: 'rechnung-cii.xml', standalone: true },
    });
  });

  it('reads through readDocument in a bounded worker: no page, no OCR, the data as eInvoice', async () => {
    expect(sniffDocumentType(UBL)).toBe('xml');
    const read = await readDocument(UBL, 'xml', { ocr: noOcr, name: 'rechnung.xml' });
    expect(read).toMatchObject({ pages: [], ocrPages: [], timings: [], pageCount: 0 });
    expect(read.eInvoice).toEqual(readEInvoice(UBL.toString('utf8'), 'rechnung.xml'));
    // the product's reading of a document with no page is the data's
    expect(extractInvoiceFromDocument(read.pages, { text: '', read })).toEqual(fromEInvoice(read.eInvoice!));
    await expect(readDocument(Buffer.from('%PDF-1.7\n'), 'xml', { ocr: noOcr })).rejects.toThrow('The file was uploaded as XML but its content is PDF.');
  });

  it('writes the data out as text a search finds it by: number, dates, parties, line, totals, terms', () => {
    expect(eInvoiceText(readEInvoice(UBL.toString('utf8'), 'rechnung.xml')!).split('\n')).toEqual([
      'Invoice 18383 (XRechnung (UBL))',
      'Date: 2020-11-27',
      'Due: 2020-12-27',
      'Seller: Mustermann GmbH, Musterstrasse 4, 60388 Frankfurt am Main, VAT DE123456789',
      'Buyer: DB Station&Service AG RB Mitte, Musterweg 1, 10115 Berlin, VAT DE152138634',
      'Tür Instandsetzung, 4 × 52.00: 208.00 EUR',
      'Subtotal: 233.00 EUR',
      'Tax: 0.00 EUR',
      'Total: 233.00 EUR',
      'Terms: 10 Tage 3% Skonto, 30 Tage netto',
    ]);
  });

  it('refuses, with a sentence about the file: empty, over 2 MB, not UTF-8, XML of another kind, cut off', async () => {
    const refusal = (bytes: Uint8Array) =>
      readEInvoiceFile(bytes, 'x.xml').then(
        () => undefined,
        (e: Error & { reason?: string }) => ({ name: e.name, message: e.message, reason: e.reason }),
      );
    expect(await refusal(new Uint8Array())).toEqual({ name: 'DocumentReadError', message: 'The file is empty.', reason: 'empty' });
    const big = Buffer.concat([Buffer.from('<Invoice>'), Buffer.alloc(2 * 1024 * 1024, 0x20), Buffer.from('</Invoice>')]);
    expect(await refusal(big)).toEqual({
      name: 'DocumentReadError',
      message: 'This XML file is larger than 2 MB, more than an e-invoice is read at.',
      reason: 'too-large',
    });
    expect(await refusal(Buffer.from([0x3c, 0x49, 0x6e, 0x76, 0xe9, 0x3e]))).toEqual({
      name: 'DocumentReadError',
      message: 'This XML file is not UTF-8 text; save it again as UTF-8.',
      reason: 'unsupported',
    });
    expect(await refusal(Buffer.from('<?xml version="1.0"?><rss><channel><title>News</title></channel></rss>'))).toEqual({
      name: 'DocumentReadError',
      message: NOT_AN_E_INVOICE_MESSAGE,
      reason: 'unsupported',
    });
    expect(await refusal(UBL.subarray(0, 3000))).toEqual({ name: 'DocumentReadError', message: NOT_AN_E_INVOICE_MESSAGE, reason: 'unsupported' });
  });

  it('refuses XML nested deeper than any e-invoice before parsing it (a parser’s work on it grows far faster than its size), and bounds a flood of elements', async () => {
    // 200,000 levels in 1.4 MB: parsed, this took the 30 s budget; counted, it is refused at once
    const deep = Buffer.from(`<Invoice>${'<a>'.repeat(200_000)}${'</a>'.repeat(200_000)}</Invoice>`);
    await expect(readEInvoiceFile(deep, 'deep.xml')).rejects.toMatchObject({
      name: 'DocumentReadError',
      message: 'This XML file nests its elements more than 64 levels deep, far deeper than an e-invoice does.',
    });
    expect(xmlDepth(UBL.toString('utf8'))).toBe(6);
    expect(xmlDepth('<a><!-- <b><c> --><![CDATA[<d><e>]]><?pi <f>?><g/><h x="1"><i></i></h></a>')).toBe(3);
    // 200,000 empty elements in 2 MB: the worker's memory budget ends it with a sentence
    const wide = Buffer.from(`<Invoice>${'<a x="1"/>'.repeat(200_000)}</Invoice>`);
    await expect(readEInvoiceFile(wide, 'wide.xml')).rejects.toMatchObject({ name: 'DocumentReadError', reason: 'too-large' });
  });
});

describe('fromEInvoice: the file’s own sums, the only check it has', () => {
  const base: EInvoice = {
    format: 'UBL',
    attachment: 'f.xml',
    credit: false,
    sums: { lines: 150, allowances: 10, charges: 0 },
    fields: { invoice_number: 'F-1', subtotal: 140, tax: 28, total: 168, currency: 'EUR' },
    lineItems: [
      { description: 'Widget', quantity: 2, unit_price: 50, amount: 100 },
      { description: 'Service', quantity: 1, unit_price: 50, amount: 50 },
    ],
  };

  it('takes an allowance between the lines’ total and the subtotal: nothing to warn about', () => {
    const result = fromEInvoice(base);
    expect(result.warnings).toEqual([]);
    expect(Object.values(result.fields).every((f) => f!.confidence === 0.99 && !f!.needs_review)).toBe(true);
  });

  it('lines that do not add up to the total the file gives for them are not certain, and a sentence says so', () => {
    const result = fromEInvoice({ ...base, lineItems: base.lineItems.slice(0, 1) });
    expect(result.warnings).toEqual(["The e-invoice's lines add up to 100.00, but it gives 150.00 as their total: a line may be missing or wrong."]);
    expect(result.lineItems.map((l) => l.confidence)).toEqual([0.85]);
    expect(result.fields.total).toEqual({ value: 168, confidence: 0.99 });
  });

  it('a subtotal that is not the lines’ total less allowances, and a total that is not subtotal plus tax, ask for a look', () => {
    const result = fromEInvoice({ ...base, fields: { ...base.fields, subtotal: 145, total: 170 } });
    expect(result.warnings).toEqual([
      "The e-invoice's lines total 150.00, less 10.00 allowed, makes 140.00, but its subtotal is 145.00.",
      "Subtotal 145.00 + tax 28.00 = 173.00, but the e-invoice's total is 170.00.",
    ]);
    expect(result.fields.subtotal).toEqual({ value: 145, confidence: 0.55, needs_review: true });
    expect(result.fields.tax).toEqual({ value: 28, confidence: 0.55, needs_review: true });
    expect(result.fields.total).toEqual({ value: 170, confidence: 0.55, needs_review: true });
    expect(result.fields.invoice_number).toEqual({ value: 'F-1', confidence: 0.99 });
  });

  it('without a stated lines’ total, checks the lines against the subtotal only when nothing is allowed or charged', () => {
    const plain = { ...base, sums: {}, fields: { ...base.fields, subtotal: 150, total: 178 } };
    expect(fromEInvoice(plain).warnings).toEqual([]);
    expect(fromEInvoice({ ...plain, fields: { ...plain.fields, subtotal: 160, total: 188 } }).warnings).toEqual([
      "The e-invoice's lines add up to 150.00, but it gives 160.00 as their total: a line may be missing or wrong.",
    ]);
    expect(fromEInvoice({ ...plain, sums: { allowances: 5 }, fields: { ...plain.fields, subtotal: 145, total: 173 } }).warnings).toEqual([]);
  });

  it('shows a credit note’s amounts negative, and says it is one', () => {
    const result = fromEInvoice({ ...base, credit: true });
    expect([result.fields.subtotal!.value, result.fields.tax!.value, result.fields.total!.value]).toEqual([-140, -28, -168]);
    expect(result.lineItems.map((l) => [l.unit_price, l.amount])).toEqual([
      [50, -100],
      [50, -50],
    ]);
    expect(result.warnings).toEqual([]);
    expect(result.eInvoice).toEqual({ format: 'UBL', attachment: 'f.xml', standalone: true, credit_note: true });
  });
});

describe('an XML e-invoice that carries a PDF', () => {
  const read = (bytes: Buffer, name: string) => readDocument(bytes, 'xml', { ocr: noOcr, name });

  it('reads the PDF as its pages and compares them with the data: the e-fff invoice’s page agrees with every value', async () => {
    const doc = await read(EFFF, 'efff.xml');
    expect(doc).toMatchObject({ pageCount: 1, ocrPages: [], xmlPdf: { name: 'BE0505890632_160421_Inv_16117778.pdf' } });
    expect(doc.eInvoice).not.toHaveProperty('pdfs');
    const result = extractInvoiceFromDocument(doc.pages, { text: '', read: doc });
    expect(result.eInvoice).toEqual({
      format: 'UBL',
      attachment: 'efff.xml',
      standalone: true,
      pdf: { name: 'BE0505890632_160421_Inv_16117778.pdf', compared: true },
    });
    expect(result.warnings).toEqual([]);
    expect(Object.fromEntries(Object.entries(result.fields).map(([k, f]) => [k, [f!.value, f!.confidence]]))).toEqual({
      invoice_number: ['16117778', 0.99],
      invoice_date: ['2016-04-21', 0.99],
      due_date: ['2016-04-28', 0.99],
      vendor_name: ['Exact Belgium II BVBA', 0.99],
      vendor_address: ['Koningin Astridlaan 166, 1780 Wemmel', 0.99],
      vendor_vat_id: ['BE0505890632', 0.99],
      customer_name: ['AttOra', 0.99],
      customer_address: ['Hutsepotstraat 94, 9052 Gent', 0.99],
      customer_vat_id: ['BE0882555389', 0.99],
      po_number: ['59137222', 0.99],
      subtotal: [31, 0.99],
      tax: [6.51, 0.99],
      total: [37.51, 0.99],
      currency: ['EUR', 0.99],
      payment_terms: ['601611777874', 0.99],
    });
    expect(result.lineItems).toEqual([{ description: 'Exact voor Boekhouden Standaard', quantity: 1, unit_price: 31, amount: 31, confidence: 0.99 }]);
  });

  it('keeps the data’s value where the page is sure of another, marks it for a look and gives both', async () => {
    // the same file with its issue date changed in the data only: the page prints 21-04-2016
    const changed = Buffer.from(EFFF.toString('utf8').replace('<cbc:IssueDate>2016-04-21</cbc:IssueDate>', '<cbc:IssueDate>2016-04-12</cbc:IssueDate>'));
    const doc = await read(changed, 'efff.xml');
    const result = extractInvoiceFromDocument(doc.pages, { text: '', read: doc });
    expect(result.fields.invoice_date).toEqual({ value: '2016-04-12', confidence: 0.55, needs_review: true });
    expect(result.warnings).toEqual([
      'The PDF in the e-invoice (BE0505890632_160421_Inv_16117778.pdf) shows 2016-04-21 for the invoice date, but its data gives 2016-04-12: check which is right.',
    ]);
    expect(result.fields.total).toEqual({ value: 37.51, confidence: 0.99 });
  });

  it('does not compare a PDF that does not show the invoice’s number (an annex), nor one that cannot be read', async () => {
    // the e-fff invoice's page attached to KoSIT's invoice 18383: another invoice's page
    const annexed = await read(withAttachment(EFFF_PDF), 'rechnung.xml');
    const result = extractInvoiceFromDocument(annexed.pages, { text: '', read: annexed });
    expect(result.eInvoice!.pdf).toEqual({
      name: 'anhang.pdf',
      compared: false,
      why: "it does not show the invoice number 18383, so it is not this invoice's page (an annex, perhaps)",
    });
    expect(result.fields).toEqual(fields01_21a('DE123456789'));
    expect(result.warnings).toEqual([]);

    const broken = await read(withAttachment(BROKEN_PDF, 'kaputt.pdf'), 'rechnung.xml');
    expect(broken).toMatchObject({ pages: [], pageCount: 0, xmlPdf: { name: 'kaputt.pdf', error: expect.any(String) } });
    const unread = extractInvoiceFromDocument(broken.pages, { text: '', read: broken });
    expect(unread.eInvoice!.pdf).toEqual({ name: 'kaputt.pdf', compared: false, why: expect.stringMatching(/^it could not be read \(.+\)$/) });
    expect(unread.fields).toEqual(fields01_21a('DE123456789'));
  });

  it('leaves the PDFs out of a Factur-X PDF’s own attachment data (read only from an XML file)', () => {
    expect(readEInvoice(EFFF.toString('utf8'), 'factur-x.xml')).not.toHaveProperty('pdfs');
    expect(readEInvoice(EFFF.toString('utf8'), 'efff.xml', { withPdf: true })!.pdfs).toEqual([
      { name: 'BE0505890632_160421_Inv_16117778.pdf', base64: EFFF_PDF },
    ]);
    expect(readEInvoice(EFFF_ANNEX_FIRST.toString('utf8'), 'efff.xml', { withPdf: true })!.pdfs).toEqual([
      { name: 'stundenzettel.pdf', base64: OTHER_PDF },
      { name: 'BE0505890632_160421_Inv_16117778.pdf', base64: EFFF_PDF },
    ]);
    // at most four are kept, in the file's order
    const six = withAttachment(OTHER_PDF, 'a1.pdf', ...[2, 3, 4, 5, 6].map((i): [string, string] => [OTHER_PDF, `a${i}.pdf`]));
    expect(readEInvoice(six.toString('utf8'), 'r.xml', { withPdf: true })!.pdfs!.map((p) => p.name)).toEqual(['a1.pdf', 'a2.pdf', 'a3.pdf', 'a4.pdf']);
  });

  it('reads the PDF that shows the invoice’s number when the XML carries an annex before it', async () => {
    const doc = await read(EFFF_ANNEX_FIRST, 'efff.xml');
    expect(doc).toMatchObject({ pageCount: 1, ocrPages: [], xmlPdf: { name: 'BE0505890632_160421_Inv_16117778.pdf', carried: 2 } });
    // the same reading, field for field, as the file that carries only its page
    const alone = await read(EFFF, 'efff.xml');
    expect(extractInvoiceFromDocument(doc.pages, { text: '', read: doc })).toEqual(extractInvoiceFromDocument(alone.pages, { text: '', read: alone }));
  });

  it('names the first of several PDFs when none shows the invoice’s number, and says none does', async () => {
    const twoAnnexes = withAttachment(EFFF_PDF, 'anhang.pdf', [OTHER_PDF, 'anhang-2.pdf']);
    const doc = await read(twoAnnexes, 'rechnung.xml');
    expect(doc.xmlPdf).toEqual({ name: 'anhang.pdf', carried: 2 });
    const result = extractInvoiceFromDocument(doc.pages, { text: '', read: doc });
    expect(result.eInvoice!.pdf).toEqual({
      name: 'anhang.pdf',
      compared: false,
      why: "none of the 2 PDFs the e-invoice carries shows the invoice number 18383, so none is this invoice's page (annexes, perhaps)",
    });
    expect(result.fields).toEqual(fields01_21a('DE123456789'));

    // a broken PDF first, an annex after it: the broken one is named, and the other said not to show the number
    const brokenFirst = withAttachment(BROKEN_PDF, 'kaputt.pdf', [OTHER_PDF, 'anhang-2.pdf']);
    const broken = await read(brokenFirst, 'rechnung.xml');
    const unread = extractInvoiceFromDocument(broken.pages, { text: '', read: broken });
    expect(unread.eInvoice!.pdf).toEqual({
      name: 'kaputt.pdf',
      compared: false,
      why: expect.stringMatching(/^it could not be read \(.+\); the other PDF the e-invoice carries does not show the invoice number 18383$/),
    });
  });
});
