import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DomainEvents } from '../../../src/core/event-bus';
import * as T from '../../../src/server/tokens';
import invoiceExtraction from '../../../plugins/invoice-extraction/server';
import documentExtraction from '../../../plugins/document-extraction/server';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { ScriptedOcr, uploadForm } from './support';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

// KoSIT's XRechnung business case 01.21a (tests/fixtures/e-invoices): a real public test invoice, as UBL
const UBL = readFileSync(path.join(__dirname, '../../fixtures/e-invoices/xrechnung-01.21a-ubl.xml'));

describe('an XML e-invoice uploaded on the invoice page (workflow 10004)', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  const ocr = new ScriptedOcr();
  const extracted: DomainEvents['document/text-extracted'][] = [];

  beforeAll(async () => {
    server = await startTestServer({
      plugins: [connectorDeclarations, invoiceExtraction, documentExtraction],
      overrides: (c) => c.rebind(T.Ocr).toConstantValue(ocr),
    });
    server.container
      .get(T.EventBus)
      .on('document/text-extracted')
      .subscribe((e) => extracted.push(e));
    alice = await createUser(server);
    bob = await createUser(server);
  });
  afterAll(() => server.close());

  const post = (url: string, user: TestUser | undefined, body: unknown) => server.call('POST', url, { token: user?.access, body });
  async function upload(user: TestUser, content: Buffer, name: string, workflow: string) {
    const form = uploadForm(content, name, workflow);
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/platform/uploadworkflowfile',
      payload: form.payload,
      headers: { 'content-type': form.contentType, authorization: `Bearer ${user.access}` },
    });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  }

  it('is taken by the upload and answered with every field and line of its data, certain, no OCR, and its text published for the search', async () => {
    const up = await upload(alice, UBL, 'rechnung-18383.xml', '10004');
    expect(up).toMatchObject({ status: 200 });
    const { key, bucket } = up.body;
    const res = await post('/api/service/extract_data/', alice, { key, bucket });
    expect(res.status).toBe(200);
    expect({ ...res.body, Job_ID: undefined }).toEqual({
      Status: 'SUCCEEDED',
      Job_ID: undefined,
      key,
      bucket,
      name: 'rechnung-18383.xml',
      pages: 0,
      pages_read: 0,
      ocr_pages: [],
      fields: [
        { name: 'invoice_number', value: '18383', confidence: 0.99 },
        { name: 'invoice_date', value: '2020-11-27', confidence: 0.99 },
        { name: 'due_date', value: '2020-12-27', confidence: 0.99 },
        { name: 'vendor_name', value: 'Mustermann GmbH', confidence: 0.99 },
        { name: 'vendor_address', value: 'Musterstrasse 4, 60388 Frankfurt am Main', confidence: 0.99 },
        { name: 'vendor_vat_id', value: 'DE123456789', confidence: 0.99 },
        { name: 'customer_name', value: 'DB Station&Service AG RB Mitte', confidence: 0.99 },
        { name: 'customer_address', value: 'Musterweg 1, 10115 Berlin', confidence: 0.99 },
        { name: 'customer_vat_id', value: 'DE152138634', confidence: 0.99 },
        { name: 'po_number', value: null, confidence: null },
        { name: 'subtotal', value: 233, confidence: 0.99 },
        { name: 'tax', value: 0, confidence: 0.99 },
        { name: 'total', value: 233, confidence: 0.99 },
        { name: 'currency', value: 'EUR', confidence: 0.99 },
        { name: 'payment_terms', value: '10 Tage 3% Skonto, 30 Tage netto', confidence: 0.99 },
      ],
      line_items: [{ description: 'Tür Instandsetzung', quantity: 4, unit_price: 52, amount: 208, confidence: 0.99 }],
      warnings: [],
      e_invoice: { format: 'XRechnung (UBL)', attachment: 'rechnung-18383.xml', standalone: true },
    });
    expect(ocr.calls).toBe(0);
    const event = extracted.find((e) => e.key === key);
    expect(event).toMatchObject({ owner: alice.id, bucket, name: 'rechnung-18383.xml' });
    expect(event!.text.split('\n')).toEqual(
      expect.arrayContaining(['Invoice 18383 (XRechnung (UBL))', 'Tür Instandsetzung, 4 × 52.00: 208.00 EUR', 'Total: 233.00 EUR']),
    );

    // no PDF carried, no page to preview: the preview call says so
    const preview = await server.app.inject({
      method: 'GET',
      url: `/api/plugins/invoice-extraction/preview?key=${encodeURIComponent(key)}&bucket=${bucket}`,
      headers: { authorization: `Bearer ${alice.access}` },
    });
    expect([preview.statusCode, JSON.parse(preview.body).message]).toEqual([
      415,
      'This XML e-invoice carries no PDF: it has no page to show, its data is the invoice.',
    ]);
    // another user's key is not found
    expect(await post('/api/service/extract_data/', bob, { key, bucket })).toMatchObject({ status: 404, body: { message: 'The file was not found.' } });
    // the document-fields workflow reads pages only
    expect(await post('/api/service/extract_data/', alice, { key, bucket, workflow: 10006 })).toMatchObject({
      status: 415,
      body: { message: 'This file cannot be read for extraction: upload a PDF, PNG or JPEG document.' },
    });
  });

  it('an e-invoice that carries its page as a PDF: compared with it, and the PDF is the preview', async () => {
    // a real Belgian e-fff UBL invoice from OCA/edi's tests (tests/fixtures/e-invoices)
    const efff = readFileSync(path.join(__dirname, '../../fixtures/e-invoices/efff-16117778-ubl-with-pdf.xml'));
    const up = await upload(alice, efff, 'efff-16117778.xml', '10004');
    expect(up).toMatchObject({ status: 200 });
    const res = await post('/api/service/extract_data/', alice, { key: up.body.key, bucket: up.body.bucket });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'efff-16117778.xml', pages: 1, pages_read: 1, ocr_pages: [], warnings: [] });
    expect(res.body.e_invoice).toEqual({
      format: 'UBL',
      attachment: 'efff-16117778.xml',
      standalone: true,
      pdf: { name: 'BE0505890632_160421_Inv_16117778.pdf', compared: true },
    });
    const fields = Object.fromEntries(res.body.fields.map((f: { name: string; value: unknown }) => [f.name, f.value]));
    expect([fields.invoice_number, fields.vendor_name, fields.customer_name, fields.subtotal, fields.tax, fields.total]).toEqual([
      '16117778',
      'Exact Belgium II BVBA',
      'AttOra',
      31,
      6.51,
      37.51,
    ]);
    const preview = await server.app.inject({
      method: 'GET',
      url: `/api/plugins/invoice-extraction/preview?key=${encodeURIComponent(up.body.key)}&bucket=${up.body.bucket}`,
      headers: { authorization: `Bearer ${alice.access}` },
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('image/png');
    expect(preview.rawPayload.subarray(1, 4).toString('latin1')).toBe('PNG');
    // the search finds it by the words of its data and of its page
    const event = extracted.find((e) => e.key === up.body.key);
    expect(event!.text).toContain('Invoice 16117778 (UBL)');
    expect(event!.text).toContain('Exact voor Boekhouden Standaard');
  });

  it('an e-invoice that carries an annex before its page: its page is compared, previewed and indexed, not the annex', async () => {
    const efff = readFileSync(path.join(__dirname, '../../fixtures/e-invoices/efff-16117778-ubl-with-pdf.xml'));
    // another real invoice page (famoser/pdf-generator's example, in the corpus) attached first
    const annex = readFileSync(path.join(__dirname, '../../fixtures/real-invoices/en-famoser-UZH-ZI-5.pdf')).toString('base64');
    const annexFirst = Buffer.from(
      efff
        .toString('utf8')
        .replace(
          '<cac:AdditionalDocumentReference>',
          `<cac:AdditionalDocumentReference><cbc:ID>1</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="timesheet.pdf">${annex}</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference><cac:AdditionalDocumentReference>`,
        ),
    );
    const previewOf = async (key: string, bucket: string) =>
      (
        await server.app.inject({
          method: 'GET',
          url: `/api/plugins/invoice-extraction/preview?key=${encodeURIComponent(key)}&bucket=${bucket}`,
          headers: { authorization: `Bearer ${alice.access}` },
        })
      ).rawPayload;
    const up = await upload(alice, annexFirst, 'efff-with-timesheet.xml', '10004');
    const plain = await upload(alice, efff, 'efff-16117778.xml', '10004');
    const res = await post('/api/service/extract_data/', alice, { key: up.body.key, bucket: up.body.bucket });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ pages: 1, pages_read: 1, ocr_pages: [], warnings: [] });
    expect(res.body.e_invoice.pdf).toEqual({ name: 'BE0505890632_160421_Inv_16117778.pdf', compared: true });
    // the preview is the invoice's own page, the very image of the file that carries only it
    expect((await previewOf(up.body.key, up.body.bucket)).equals(await previewOf(plain.body.key, plain.body.bucket))).toBe(true);
    // the search gets the data and the invoice's page: a word of its line, none of the annex's address
    const text = extracted.find((e) => e.key === up.body.key)!.text;
    expect(text).toContain('Exact voor Boekhouden Standaard');
    expect(text).not.toContain('Stampfenbachstrasse');
  });

  it('refuses other XML and an e-invoice cut off, with a sentence; the document page refuses XML at upload', async () => {
    const rss = Buffer.from('<?xml version="1.0"?><rss version="2.0"><channel><title>News</title></channel></rss>');
    expect(await upload(alice, rss, 'feed.xml', '10004')).toEqual({
      status: 415,
      body: {
        status: 'error',
        message:
          'The uploaded file is not a PDF, PNG, JPEG or XML e-invoice file (it is XML, but its root element <rss> is not a UBL Invoice or CreditNote, nor a Cross Industry Invoice).',
      },
    });
    expect(await upload(alice, UBL, 'rechnung.xml', '10006')).toEqual({
      status: 415,
      body: { status: 'error', message: 'The uploaded file is not a PDF, PNG or JPEG file (it is an XML e-invoice file).' },
    });
    // the start of an invoice, cut off in transit: stored (its root is an invoice's), then refused by the reader with no retry
    const cut = await upload(alice, UBL.subarray(0, 3000), 'cut.xml', '10004');
    expect(cut.status).toBe(200);
    const res = await post('/api/service/extract_data/', alice, { key: cut.body.key, bucket: cut.body.bucket });
    expect(res).toMatchObject({
      status: 422,
      body: {
        status: 'error',
        message:
          'The document could not be read: This XML file is not an e-invoice the reader knows: it reads UBL invoices and credit notes (Peppol, XRechnung) and UN/CEFACT Cross Industry Invoices (XRechnung, Factur-X, ZUGFeRD).',
      },
    });
  });
});
