import { readFileSync } from 'node:fs';
import path from 'node:path';
import { imageSize } from 'image-size';
import type { DomainEvents } from '../../../src/core/event-bus';
import { TesseractOcrPool } from '../../../src/server/ai/ocr/tesseract-pool';
import * as T from '../../../src/server/tokens';
import invoiceExtraction from '../../../plugins/invoice-extraction/server';
import documentExtraction from '../../../plugins/document-extraction/server';
import { viewOf } from '../../../src/server/ai/extraction/jobs/job-status';
import { renderInvoicePdf, type GeneratedInvoice } from '../../support/invoices/render';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { CORRUPT_PDF, pollUntilDone, ScriptedOcr, storeFile, textPng, uploadForm } from './support';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

const NOT_FOUND_FILE = { status: 404, body: { status: 'error', message: 'The file was not found.' } };
const NOT_FOUND_JOB = { status: 404, body: { status: 'error', message: 'No extraction job with this id was found for your account.' } };

describe('extraction routes (workflows 10004 and 10006)', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let invoice: GeneratedInvoice;
  let invoiceKey: { key: string; bucket: string };
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
    invoice = await renderInvoicePdf({ seed: 11, layout: 'classic', font: 'helvetica' });
    const stored = await storeFile(server, alice.id, invoice.pdf, 'acme-invoice.pdf');
    invoiceKey = { key: stored.key, bucket: stored.bucket };
  });
  afterAll(() => server.close());
  beforeEach(() => {
    ocr.fail = undefined;
    ocr.gate = undefined;
  });

  const post = (url: string, user: TestUser | undefined, body: unknown) => server.call('POST', url, { token: user?.access, body });

  describe('POST /api/service/extract_data/', () => {
    it('answers the fields of a generated text-layer invoice, its line items, no warnings, and publishes its text', async () => {
      const res = await post('/api/service/extract_data/', alice, invoiceKey);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        Status: 'SUCCEEDED',
        Job_ID: expect.any(String),
        ...invoiceKey,
        name: 'acme-invoice.pdf',
        pages: 1,
        pages_read: 1,
        ocr_pages: [],
        warnings: [],
      });
      const fields = Object.fromEntries(res.body.fields.map((f: { name: string; value: unknown }) => [f.name, f.value]));
      expect(res.body.fields.map((f: { name: string }) => f.name)).toEqual([
        'invoice_number',
        'invoice_date',
        'due_date',
        'vendor_name',
        'vendor_address',
        'customer_name',
        'customer_address',
        'po_number',
        'subtotal',
        'tax',
        'total',
        'currency',
        'payment_terms',
      ]);
      for (const name of ['invoice_number', 'invoice_date', 'due_date', 'total', 'subtotal', 'tax', 'currency'])
        expect(fields[name]).toEqual(invoice.truth[name]);
      for (const f of res.body.fields) if (f.value !== null) expect(f.confidence).toBeGreaterThan(0);
      expect(res.body.line_items).toHaveLength(invoice.data.lines.length);
      expect(res.body.line_items[0]).toEqual(
        expect.objectContaining({ description: expect.any(String), amount: expect.any(Number), confidence: expect.any(Number) }),
      );
      expect(ocr.calls).toBe(0);
      const event = extracted.find((e) => e.key === invoiceKey.key);
      expect(event).toMatchObject({ owner: alice.id, bucket: invoiceKey.bucket, name: 'acme-invoice.pdf' });
      expect(event!.text).toContain(String(invoice.truth.invoice_number));
    });

    it('answers a Factur-X PDF with the values of the e-invoice data it carries, checked against its page, and says so', async () => {
      // a real FNFE-MPE sample credit note (tests/fixtures/real-invoices, dev split): its XML gives amounts positive, its page negative
      const pdf = readFileSync(path.join(__dirname, '../../fixtures/real-invoices/fr-Avoir_FR_type381_BASIC.pdf'));
      const stored = await storeFile(server, alice.id, new Uint8Array(pdf), 'avoir.pdf');
      const res = await post('/api/service/extract_data/', alice, { key: stored.key, bucket: stored.bucket });
      expect(res.status).toBe(200);
      expect(res.body.e_invoice).toEqual({ format: 'Factur-X / ZUGFeRD (CII)', attachment: 'factur-x.xml' });
      const fields = Object.fromEntries(res.body.fields.map((f: { name: string; value: unknown }) => [f.name, f.value]));
      expect(fields).toEqual({
        invoice_number: 'AV-2017-0005',
        invoice_date: '2017-11-16',
        due_date: '2017-11-16',
        vendor_name: 'Au bon moulin',
        vendor_address: "1242 chemin de l'olive, 84340 Malaucène",
        vendor_vat_id: 'FR11999999998',
        customer_name: 'Ma jolie boutique',
        customer_address: '35 rue de la République, 69001 Lyon',
        customer_vat_id: 'FR19787878784',
        po_number: 'PO445',
        subtotal: -218.48,
        tax: -14.99,
        total: -233.47,
        currency: 'EUR',
        payment_terms: 'Paiement immédiat',
      });
      expect(res.body.line_items).toEqual([
        { description: "Nougat de l'Abbaye 250g", quantity: 5, unit_price: 4.1, amount: -20.48, confidence: 0.99 },
        { description: "Huile d'olive à l'ancienne", quantity: 10, unit_price: 19.8, amount: -198, confidence: 0.99 },
      ]);
      // the page prints 4,55 € less 10% a nougat: 5 × 4.10 is 20.50 against the 20.48 charged, and the page says so too
      expect(res.body.warnings).toEqual(['Line 1: 5 × 4.10 = 20.50, but its amount is -20.48.']);
    });

    it('with wait 0 answers 202 and a Job_ID at once; the status call reports progress until SUCCEEDED', async () => {
      const png = await storeFile(server, alice.id, textPng(['x']), 'scan.png');
      let release!: () => void;
      ocr.gate = new Promise((r) => (release = r));
      const started = await post('/api/service/extract_data/', alice, { key: png.key, bucket: png.bucket, wait: 0 });
      expect(started.status).toBe(202);
      expect(started.body).toMatchObject({ Status: 'IN_PROGRESS', Job_ID: expect.any(String), progress: expect.any(Number), message: expect.any(String) });
      // the job is held inside OCR: its status stays IN_PROGRESS with the reading stage's progress
      for (let i = 0; i < 50 && ocr.calls === 0; i++) await new Promise((r) => setTimeout(r, 50));
      const midway = await post('/api/plugins/invoice-extraction/status', alice, { jobId: started.body.Job_ID });
      expect(midway.body).toMatchObject({ Status: 'IN_PROGRESS', message: 'Reading the document' });
      expect(midway.body.progress).toBeGreaterThanOrEqual(5);
      expect(midway.body.progress).toBeLessThan(85);
      release();
      const seen = await pollUntilDone(() => post('/api/plugins/invoice-extraction/status', alice, { jobId: started.body.Job_ID }));
      const last = seen[seen.length - 1];
      expect(last.status).toBe(200);
      expect(last.body).toMatchObject({ Status: 'SUCCEEDED', ocr_pages: [1] });
      const progress = seen.filter((s) => s.body.Status === 'IN_PROGRESS').map((s) => s.body.progress);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(last.body.fields.find((f: { name: string }) => f.name === 'invoice_number').value).toBe('INV-4242');
      expect(last.body.fields.find((f: { name: string }) => f.name === 'total').value).toBe(99.5);
      expect(last.body.fields.find((f: { name: string }) => f.name === 'due_date')).toEqual({ name: 'due_date', value: null, confidence: null });
    });

    it("refuses another user's key (404, the same answer as a missing file) and anonymous callers (401)", async () => {
      expect(await post('/api/service/extract_data/', bob, invoiceKey)).toMatchObject(NOT_FOUND_FILE);
      expect(await post('/api/service/extract_data/', bob, { ...invoiceKey, key: 'no-such-key.pdf' })).toMatchObject(NOT_FOUND_FILE);
      expect((await post('/api/service/extract_data/', undefined, invoiceKey)).status).toBe(401);
    });

    it('says what is missing or wrong in the body', async () => {
      expect(await post('/api/service/extract_data/', alice, { bucket: 'uploads' })).toMatchObject({
        status: 400,
        body: { message: 'Upload an invoice first: key is missing.' },
      });
      expect(await post('/api/service/extract_data/', alice, { ...invoiceKey, wait: 600 })).toMatchObject({
        status: 400,
        body: { message: 'wait must be a whole number of seconds from 0 to 60.' },
      });
    });

    it('refuses a stored file that is not a document (415) and explains an unreadable PDF (422)', async () => {
      const csv = await storeFile(server, alice.id, Buffer.from('a,b\n1,2\n3,4\n'), 'table.csv');
      expect(await post('/api/service/extract_data/', alice, { key: csv.key, bucket: csv.bucket })).toMatchObject({
        status: 415,
        body: { message: 'This file cannot be read for extraction: upload a PDF, PNG or JPEG document, or an XML e-invoice.' },
      });
      expect(await post('/api/service/extract_data/', alice, { key: csv.key, bucket: csv.bucket, workflow: 10006 })).toMatchObject({
        status: 415,
        body: { message: 'This file cannot be read for extraction: upload a PDF, PNG or JPEG document.' },
      });
      const corrupt = await storeFile(server, alice.id, CORRUPT_PDF, 'broken.pdf');
      const res = await post('/api/service/extract_data/', alice, { key: corrupt.key, bucket: corrupt.bucket });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ status: 'error', Status: 'FAILED', message: expect.stringMatching(/^The document could not be read: /) });
    });

    it('reports an image the OCR engine cannot read as a failed extraction with its reason', async () => {
      const png = await storeFile(server, alice.id, textPng(['y']), 'blurred.png');
      ocr.fail = 'the image could not be decoded';
      const res = await post('/api/service/extract_data/', alice, { key: png.key, bucket: png.bucket });
      expect(res).toMatchObject({ status: 422, body: { message: 'The text of the document could not be recognised: the image could not be decoded' } });
    });

    it('answers document Fields for workflow 10006', async () => {
      const res = await post('/api/service/extract_data/', alice, { ...invoiceKey, workflow: 10006 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ Status: 'SUCCEEDED', ...invoiceKey, Job_ID: expect.stringMatching(/^document-extraction\.extract\//) });
      expect(res.body.Fields.length).toBeGreaterThan(3);
    });
  });

  describe('POST /api/plugins/invoice-extraction/status', () => {
    it("answers 404 for another user's job, an unknown id and a job of another kind", async () => {
      const started = await post('/api/service/extract_data/', alice, { ...invoiceKey, wait: 0 });
      expect(await post('/api/plugins/invoice-extraction/status', bob, { jobId: started.body.Job_ID })).toMatchObject(NOT_FOUND_JOB);
      expect(await post('/api/plugins/invoice-extraction/status', alice, { jobId: 'invoice-extraction.extract/nope' })).toMatchObject(NOT_FOUND_JOB);
      const doc = await post('/api/document-extraction/extract', alice, { timeout: 5, ...invoiceKey });
      expect(await post('/api/plugins/invoice-extraction/status', alice, { jobId: doc.body.Job_ID })).toMatchObject(NOT_FOUND_JOB);
    });
  });

  describe('GET /api/plugins/invoice-extraction/preview', () => {
    const preview = (user: TestUser | undefined, q: { key: string; bucket: string }) =>
      server.app.inject({
        method: 'GET',
        url: `/api/plugins/invoice-extraction/preview?key=${encodeURIComponent(q.key)}&bucket=${q.bucket}`,
        headers: user ? { authorization: `Bearer ${user.access}` } : {},
      });

    it("shows a PDF's first page as a PNG, and an image as itself, to its owner only", async () => {
      const res = await preview(alice, invoiceKey);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      const size = imageSize(res.rawPayload);
      expect(size.width).toBeGreaterThan(800);
      expect(size.height! / size.width!).toBeCloseTo(841.89 / 595.28, 1);
      const image = textPng(['preview']);
      const png = await storeFile(server, alice.id, image, 'photo.png');
      const own = await preview(alice, png);
      expect(own.statusCode).toBe(200);
      expect(own.rawPayload.equals(image)).toBe(true);
      const foreign = await preview(bob, invoiceKey);
      expect(foreign.statusCode).toBe(404);
      expect(JSON.parse(foreign.body)).toEqual({ status: 'error', message: 'The file was not found.' });
      expect((await preview(undefined, invoiceKey)).statusCode).toBe(401);
    });
  });

  describe('document extraction: extract, status, complete', () => {
    it('runs a job for the uploaded file: Job_ID, IN_PROGRESS with progress, SUCCEEDED, then Fields with label and result', async () => {
      const form = uploadForm(Buffer.from(invoice.pdf), 'delivery-note.pdf', '10006');
      const up = await server.app.inject({
        method: 'POST',
        url: '/api/platform/uploadworkflowfile',
        payload: form.payload,
        headers: { 'content-type': form.contentType, authorization: `Bearer ${alice.access}` },
      });
      expect(up.statusCode).toBe(200);
      const { key, bucket } = JSON.parse(up.body);
      const started = await post('/api/document-extraction/extract', alice, { timeout: 5, key, bucket });
      expect(started).toMatchObject({ status: 200, body: { Job_ID: expect.any(String), Status: 'IN_PROGRESS' } });
      const seen = await pollUntilDone(() => post('/api/document-extraction/status', alice, { jobId: started.body.Job_ID }));
      expect(seen[seen.length - 1]).toMatchObject({ status: 200, body: { Status: 'SUCCEEDED', progress: 100, Job_ID: started.body.Job_ID } });
      const done = await post('/api/document-extraction/complete', alice, { jobId: started.body.Job_ID });
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ Job_ID: started.body.Job_ID, Status: 'SUCCEEDED', key, bucket });
      expect(done.body.Fields).toEqual(expect.arrayContaining([{ label: expect.any(String), result: String(invoice.truth.invoice_number) }]));
      for (const f of done.body.Fields) expect(Object.keys(f).sort()).toEqual(['label', 'result']);
      expect(extracted.some((e) => e.key === key && e.owner === alice.id)).toBe(true);
    });

    it("refuses another user's key and job, and an unknown job, with 404", async () => {
      expect(await post('/api/document-extraction/extract', bob, { timeout: 5, ...invoiceKey })).toMatchObject(NOT_FOUND_FILE);
      const started = await post('/api/document-extraction/extract', alice, { timeout: 5, ...invoiceKey });
      expect(await post('/api/document-extraction/status', bob, { jobId: started.body.Job_ID })).toMatchObject(NOT_FOUND_JOB);
      expect(await post('/api/document-extraction/complete', bob, { jobId: started.body.Job_ID })).toMatchObject(NOT_FOUND_JOB);
      expect(await post('/api/document-extraction/status', alice, { jobId: 'mail.send/1' })).toMatchObject(NOT_FOUND_JOB);
    });

    it('validates the body: key and bucket required, timeout from 1 to 30 minutes, jobId required', async () => {
      expect(await post('/api/document-extraction/extract', alice, { timeout: 5, bucket: 'uploads' })).toMatchObject({
        status: 400,
        body: { message: 'Upload a document first: key is missing.' },
      });
      expect(await post('/api/document-extraction/extract', alice, { timeout: 0, ...invoiceKey })).toMatchObject({
        status: 400,
        body: { message: 'timeout must be a whole number of minutes from 1 to 30.' },
      });
      expect(await post('/api/document-extraction/status', alice, {})).toMatchObject({
        status: 400,
        body: { message: 'jobId is missing: give the Job_ID that extract returned.' },
      });
    });

    it('reports an unreadable document as FAILED with the reason; complete answers 422 with it', async () => {
      const corrupt = await storeFile(server, alice.id, CORRUPT_PDF, 'broken.pdf');
      const started = await post('/api/document-extraction/extract', alice, { timeout: 5, key: corrupt.key, bucket: corrupt.bucket });
      const seen = await pollUntilDone(() => post('/api/document-extraction/status', alice, { jobId: started.body.Job_ID }));
      const last = seen[seen.length - 1];
      expect(last.body).toMatchObject({ Status: 'FAILED', message: expect.stringMatching(/^The document could not be read: /) });
      expect(await post('/api/document-extraction/complete', alice, { jobId: started.body.Job_ID })).toMatchObject({
        status: 422,
        body: { Status: 'FAILED', message: last.body.message },
      });
    });

    it('complete answers 409 while the job is still running', async () => {
      const png = await storeFile(server, alice.id, textPng(['z']), 'slow.png');
      let release!: () => void;
      ocr.gate = new Promise((r) => (release = r));
      const started = await post('/api/document-extraction/extract', alice, { timeout: 5, key: png.key, bucket: png.bucket });
      const early = await post('/api/document-extraction/complete', alice, { jobId: started.body.Job_ID });
      expect(early).toMatchObject({
        status: 409,
        body: { Status: 'IN_PROGRESS', message: 'The extraction has not finished yet; ask for its status again in a few seconds.' },
      });
      release();
      await pollUntilDone(() => post('/api/document-extraction/status', alice, { jobId: started.body.Job_ID }));
    });

    it('reads a small image with the real OCR engine', async () => {
      ocr.real = new TesseractOcrPool({ workers: 1 });
      try {
        const png = await storeFile(server, alice.id, textPng(['Invoice No: INV-7781', 'Total: 120.00 USD']), 'photo.png');
        const started = await post('/api/document-extraction/extract', alice, { timeout: 5, key: png.key, bucket: png.bucket });
        await pollUntilDone(() => post('/api/document-extraction/status', alice, { jobId: started.body.Job_ID }), 60_000);
        const done = await post('/api/document-extraction/complete', alice, { jobId: started.body.Job_ID });
        expect(done.status).toBe(200);
        expect(done.body.Fields).toEqual(expect.arrayContaining([{ label: 'Invoice No', result: 'INV-7781' }]));
      } finally {
        await ocr.real.close();
        ocr.real = undefined;
      }
    }, 90_000);
  });

  it('a job still queued past its time limit is reported FAILED with the limit in the message', () => {
    const queuedAt = Date.now() - 6 * 60_000;
    const view = viewOf({
      id: 'document-extraction.extract/x',
      name: 'document-extraction.extract',
      data: { owner: 1, bucket: 'uploads', key: 'k', queuedAt, deadline: queuedAt + 5 * 60_000 },
      status: 'waiting',
      attemptsMade: 0,
      progress: 0,
    });
    expect(view).toMatchObject({
      Status: 'FAILED',
      message: 'The extraction took longer than its 5-minute limit and was stopped. Try a smaller or clearer document.',
    });
  });
});
