import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DomainEvents } from '../../../src/core/event-bus';
import * as T from '../../../src/server/tokens';
import catalogueCore from '../../../plugins/catalogue-core/server';
import invoiceExtraction from '../../../plugins/invoice-extraction/server';
import documentExtraction from '../../../plugins/document-extraction/server';
import { renderInvoicePdf, type GeneratedInvoice } from '../../support/invoices/render';
import type { TestServer } from '../../support/server';
import { loadPdfjs } from '../../../src/server/ai/pdf/pdfjs';
import { actionServer, createUser, fileBody, readyRecipe, runThroughWebhook, stepOutput, waitForJob, webhookPath } from './support';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

jest.setTimeout(60_000);

describe('engine steps of the extraction plugins, run through a recipe webhook', () => {
  let server: TestServer & { ocr: { calls?: number } };
  let invoice: GeneratedInvoice;
  const extracted: DomainEvents['document/text-extracted'][] = [];

  beforeAll(async () => {
    // load pdfjs here, in the test's own flow: under Jest's vm modules a first dynamic import made
    // from inside the queue's polling loop can fail to link ("reading 'identifier'") when other
    // test files ran in this worker before; the server under Node has no such limit
    await loadPdfjs();
    server = await actionServer([catalogueCore, connectorDeclarations, invoiceExtraction, documentExtraction]);
    server.container
      .get(T.EventBus)
      .on('document/text-extracted')
      .subscribe((e) => extracted.push(e));
    invoice = await renderInvoicePdf({ seed: 11, layout: 'classic', font: 'helvetica' });
  });
  afterAll(() => server.close());

  it('Invoice Data Extraction Basic (combination 2): upload → flowmatic_ai:extract_invoice_fields', async () => {
    const { user, rec } = await readyRecipe(server, 2);
    const { job, steps } = await runThroughWebhook(server, user, rec, fileBody('acme-invoice.pdf', invoice.pdf));
    expect(job).toMatchObject({ status: 'succeeded', error: null });
    expect(steps.map((s) => [`${s.provider}:${s.action}`, s.status])).toEqual([
      ['manual_upload:file_uploaded', 'succeeded'],
      ['flowmatic_ai:extract_invoice_fields', 'succeeded'],
    ]);
    expect(steps[1].name).toBe('Extract the invoice fields');
    const out = await stepOutput(server, job.id, 1);
    expect(out.count).toBe(1);
    expect(out.name).toBe('acme-invoice.pdf');
    expect(out.pages).toBe(1);
    expect(out.fields.invoice_number).toBe(invoice.truth.invoice_number);
    expect(out.fields.total).toBe(invoice.truth.total);
    expect(out.fields.vendor_name).toBe(invoice.truth.vendor_name);
    expect(out.confidence.total).toBeGreaterThan(0.5);
    expect(out.lineItems.length).toBe(invoice.data.lines.length);
    expect(Array.isArray(out.warnings)).toBe(true);
    expect(out.documents).toHaveLength(1);
    // the text went to the search index's event
    expect(extracted.some((e) => e.owner === user.id && e.name === 'acme-invoice.pdf' && e.text.includes(String(invoice.truth.invoice_number)))).toBe(true);
  });

  it('fails the step at once, with a readable message, for a file that is not a document', async () => {
    const { user, rec } = await readyRecipe(server, 2);
    const { job, steps } = await runThroughWebhook(server, user, rec, fileBody('orders.csv', Buffer.from('a,b\n1,2\n')));
    expect(job.status).toBe('failed');
    expect(steps[1]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(steps[1].error).toMatch(/cannot be read for extraction: upload a PDF, PNG or JPEG document, or an XML e-invoice\. Got "orders\.csv"/);
  });

  it('reads an XML e-invoice the webhook brought (an XRechnung, as a supplier sends it): every field and the line into the step output', async () => {
    const { user, rec } = await readyRecipe(server, 2);
    const xml = readFileSync(path.join(__dirname, '../../fixtures/e-invoices/xrechnung-01.21a-ubl.xml'));
    const { job, steps } = await runThroughWebhook(server, user, rec, fileBody('rechnung-18383.xml', xml));
    expect(job).toMatchObject({ status: 'succeeded', error: null });
    expect(steps[1]).toMatchObject({ status: 'succeeded' });
    const out = await stepOutput(server, job.id, 1);
    expect({ name: out.name, pages: out.pages, fields: out.fields, lineItems: out.lineItems, warnings: out.warnings }).toEqual({
      name: 'rechnung-18383.xml',
      pages: 0,
      fields: {
        invoice_number: '18383',
        invoice_date: '2020-11-27',
        due_date: '2020-12-27',
        vendor_name: 'Mustermann GmbH',
        vendor_address: 'Musterstrasse 4, 60388 Frankfurt am Main',
        customer_name: 'DB Station&Service AG RB Mitte',
        customer_address: 'Musterweg 1, 10115 Berlin',
        po_number: null,
        subtotal: 233,
        tax: 0,
        total: 233,
        currency: 'EUR',
        payment_terms: '10 Tage 3% Skonto, 30 Tage netto',
      },
      lineItems: [{ description: 'Tür Instandsetzung', quantity: 4, unit_price: 52, amount: 208, confidence: 0.99 }],
      warnings: [],
    });
  });

  it('a webhook call without the file is refused naming it; a run that brought none (text only, uploaded in the app) fails at once', async () => {
    const { user, rec } = await readyRecipe(server, 2);
    const refused = await server.call('POST', webhookPath(rec), { body: { note: 'no file' } });
    expect([refused.status, refused.body.message]).toEqual([
      400,
      'The request needs a file: binary, the document in base64 (a PDF, PNG or JPEG; an invoice recipe also takes an XML e-invoice), or a file part of a multipart form.',
    ]);
    const upload = await server.call('POST', `/api/automation/recipes/${rec.recipe_id}/uploads`, { token: user.access, body: { text: 'no file' } });
    const { job, steps } = await waitForJob(server, user, upload.body.job_id);
    expect(job.status).toBe('failed');
    expect(steps[1].error).toBe('This step reads a document, but the run brought no file: upload a PDF, PNG or JPEG document, or an XML e-invoice.');
  });

  it('Document Data Extraction Basic (combination 3): upload → flowmatic_ai:extract_document_fields', async () => {
    const user = await createUser(server);
    const { rec } = await readyRecipe(server, 3, user);
    const { job, steps } = await runThroughWebhook(server, user, rec, fileBody('document.pdf', invoice.pdf));
    expect(job.status).toBe('succeeded');
    expect(steps.map((s) => `${s.provider}:${s.action}`)).toEqual(['manual_upload:file_uploaded', 'flowmatic_ai:extract_document_fields']);
    const out = await stepOutput(server, job.id, 1);
    expect(out.name).toBe('document.pdf');
    expect(out.fields.length).toBeGreaterThan(2);
    for (const f of out.fields) expect(Object.keys(f).sort()).toEqual(['label', 'result']);
    expect(Object.values(out.values)).toContain(out.fields[0].result);
  });
});
