jest.mock('oauth4webapi', () => jest.requireActual('../connections/native-oauth4webapi').loadOAuth4WebApi());
import catalogueCore from '../../../plugins/catalogue-core/server';
import invoiceExtraction from '../../../plugins/invoice-extraction/server';
import documentExtraction from '../../../plugins/document-extraction/server';
import monitoringPlugin from '../../../plugins/monitoring/server';
import { createConnectorsPlugin } from '../../../plugins/connectors/server';
import { INVOICE_FIELD_ORDER } from '../../../plugins/invoice-extraction/invoice-reply';
import { contribute, defineServerPlugin, type ActionContext, type ActionDefinition } from '../../../src/server';
import { AutomationActions } from '../../../src/server/automation/kinds';
import { type CombinationSeed } from '../../../src/core/wire-types';
import { combinationRow } from '../../../src/server/catalogue/seed';
import { fieldLabel } from '../../../src/server/automation/summary';
import { loadPdfjs } from '../../../src/server/ai/pdf/pdfjs';
import { renderInvoicePdf, type GeneratedInvoice } from '../../support/invoices/render';
import { createUser, type TestServer, type TestUser } from '../../support/server';
import { actionServer, fileBody, stepOutput } from '../engine-actions/support';
import { C, dropInPlugin, probe, readyRecipe, recordOf, seedTestCombinations, sleep, startRecipe, testPlugin, waitForJob, webhookPath } from './support';

jest.setTimeout(90_000);

/** The Sheets and Xero steps' outputs as they return them (a row by header with its range; each bill with its totals). */
const SHEET_OUTPUT = {
  appended: true,
  spreadsheet_id: 'sheet_1',
  range: 'Sheet1!A2:E2',
  rows: [{ file: 'invoice-1001.pdf', invoice_number: 'INV-1001', total: 2040, currency: 'GBP', due_date: '' }],
  warnings: ['The due date was not found on invoice-1001.pdf: its cell is left empty.'],
};
const XERO_OUTPUT = {
  bills: [
    {
      file: 'invoice-1005.pdf',
      InvoiceID: 'b7f1c2d0-0000-4000-8000-000000000001',
      InvoiceNumber: 'INV-1005',
      Contact: 'Acme Supplies Ltd',
      Status: 'DRAFT',
      CurrencyCode: 'GBP',
      SubTotal: 1700,
      TotalTax: 340,
      Total: 2040,
      warnings: ['The due date was not found: the bill has none.'],
    },
  ],
  count: 1,
  warnings: ['The due date was not found: the bill has none.'],
};

const shapes = defineServerPlugin({
  id: 'output-shapes-test',
  contributes: [
    {
      provider: 'test',
      action: 'sheet_rows',
      name: 'Write the row',
      async run() {
        return SHEET_OUTPUT;
      },
    },
    {
      provider: 'test',
      action: 'xero_bills',
      name: 'Draft the bill',
      async run() {
        return XERO_OUTPUT;
      },
    },
    {
      provider: 'test',
      action: 'fails_first',
      name: 'Fails three times, then works',
      async run(_input: unknown, ctx: ActionContext) {
        if (probe.countTry(ctx.idempotencyKey) <= 3) throw new Error('the service is down');
        return { ok: true };
      },
    },
  ].map((a) => contribute(AutomationActions, a as ActionDefinition)),
});

const OUTPUTS = 9101;
const RETRIED = 9102;
const TEXT = 9103;

function combination(id: number, steps: CombinationSeed['recipe']['steps']): CombinationSeed {
  return {
    id,
    workflow_id: 9000,
    order: id - 9000,
    name: `Test combination ${id}`,
    sub_title: 'job output tests',
    icon: 'test',
    created_time: '2024-01-01T00:00:00Z',
    status: 'active',
    enabled: true,
    recommended: false,
    triggers: [],
    connectors: [],
    recipe: { name: `Test recipe ${id}`, description: 'x', steps },
  };
}

describe('what a job says it did, its counts, and what a webhook takes', () => {
  let server: TestServer;
  let invoice: GeneratedInvoice;

  beforeAll(async () => {
    await loadPdfjs();
    server = await actionServer(
      [catalogueCore, createConnectorsPlugin(), invoiceExtraction, documentExtraction, monitoringPlugin, testPlugin, dropInPlugin, shapes],
      { env: { SANDBOX_PROVIDERS: 'true' } },
    );
    await seedTestCombinations(server);
    const webhook = { kind: 'trigger', provider: 'webhook', action: 'webhook_received' } as const;
    for (const c of [
      combination(OUTPUTS, [
        webhook,
        { kind: 'action', provider: 'test', action: 'sheet_rows' },
        { kind: 'action', provider: 'test', action: 'xero_bills' },
        {
          kind: 'action',
          provider: 'email',
          action: 'send',
          params: { to: 'ap@example.com', subject: 'Bill {{bills.0.InvoiceNumber}} drafted', text: 'Done.' },
        },
      ]),
      combination(RETRIED, [webhook, { kind: 'action', provider: 'test', action: 'fails_first' }]),
      combination(TEXT, [
        { kind: 'trigger', provider: 'manual_upload', action: 'text_submitted' },
        { kind: 'action', provider: 'flowmatic', action: 'store_record' },
      ]),
    ]) {
      await server.db
        .insertInto('combinations')
        .values({ id: c.id, ...combinationRow(c, 'engine-test', false, new Date()) })
        .execute();
    }
    invoice = await renderInvoicePdf({ seed: 11, layout: 'classic', font: 'helvetica' });
  });
  afterAll(() => server.close());

  const jobView = (user: TestUser, jobId: string) => server.call('GET', `/api/automation/jobs/${jobId}`, { token: user.access });

  it('the basic Invoice Data Extraction shows every field read, by name, with its value, and flags the ones not found', async () => {
    const { user, rec } = await readyRecipe(server, 2);
    const res = await server.call('POST', webhookPath(rec), { body: fileBody('invoice-1001.pdf', invoice.pdf) });
    expect(res.status).toBe(200);
    const { job, steps } = await waitForJob(server, user, res.body.job_id, ['succeeded', 'failed'], 30_000);
    expect(job.status).toBe('succeeded');
    const out = await stepOutput(server, job.id, 1);
    const step = steps[1];
    // the full output, one click away
    expect(step.output).toEqual(out);
    expect(step.output_details).toHaveLength(1);
    const [group] = step.output_details;
    expect(group.title).toBe('Read from invoice-1001.pdf');
    const expected = INVOICE_FIELD_ORDER.map((name) => {
      const v = out.fields[name];
      if (v === null) return { label: fieldLabel(name), value: 'not found', state: 'missing' };
      return out.confidence[name] < 0.6 ? { label: fieldLabel(name), value: String(v), state: 'check' } : { label: fieldLabel(name), value: String(v) };
    });
    expect(group.items).toEqual([...expected, { label: 'Line items', value: String(invoice.data.lines.length) }]);
    // the values are the invoice's own
    const item = (label: string) => group.items.find((i: any) => i.label === label);
    expect(item('Invoice number').value).toBe(String(invoice.truth.invoice_number));
    expect(item('Vendor name').value).toBe(invoice.truth.vendor_name);
    expect(item('Total').value).toBe(String(invoice.truth.total));
    expect(group.notes ?? []).toEqual(out.warnings);
    expect(step.output_summary).toMatch(
      new RegExp(`^Read from invoice-1001\\.pdf: Invoice number ${String(invoice.truth.invoice_number).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, `),
    );
    expect(step.output_summary).not.toContain('undefined');
    expect(step.output_summary.length).toBeLessThanOrEqual(240);
    // the trigger step: the file it brought, with its size
    expect(steps[0].output_details[0].items).toEqual([
      { label: 'name', value: 'invoice-1001.pdf' },
      { label: 'File', value: `invoice-1001.pdf (${invoice.pdf.length.toLocaleString('en-GB')} bytes)` },
    ]);
  });

  it('a row written to a Sheet reads header: value, a Xero bill its number and totals, an e-mail its address and subject', async () => {
    const { user, rec } = await readyRecipe(server, OUTPUTS);
    const res = await server.call('POST', webhookPath(rec), { body: { note: 'go' } });
    const { job, steps } = await waitForJob(server, user, res.body.job_id);
    expect(job.status).toBe('succeeded');
    const view = (await jobView(user, job.id)).body.steps;
    expect(view[1].output_details).toEqual([
      {
        title: 'Row written to the Sheet, Sheet1!A2:E2',
        items: [
          { label: 'file', value: 'invoice-1001.pdf' },
          { label: 'invoice_number', value: 'INV-1001' },
          { label: 'total', value: '2040' },
          { label: 'currency', value: 'GBP' },
          { label: 'due_date', value: 'empty', state: 'missing' },
        ],
        notes: ['The due date was not found on invoice-1001.pdf: its cell is left empty.'],
      },
    ]);
    expect(view[1].output_summary).toBe(
      'Row written to the Sheet, Sheet1!A2:E2: file invoice-1001.pdf, invoice_number INV-1001, total 2040, currency GBP; missing: due_date',
    );
    expect(view[1].output).toEqual(SHEET_OUTPUT);
    expect(view[2].output_details).toEqual([
      {
        title: 'Xero bill INV-1005',
        items: [
          { label: 'Number', value: 'INV-1005' },
          { label: 'Supplier', value: 'Acme Supplies Ltd' },
          { label: 'From', value: 'invoice-1005.pdf' },
          { label: 'Subtotal', value: 'GBP 1700.00' },
          { label: 'Tax', value: 'GBP 340.00' },
          { label: 'Total', value: 'GBP 2040.00' },
          { label: 'Status', value: 'DRAFT' },
          { label: 'Xero id', value: 'b7f1c2d0-0000-4000-8000-000000000001' },
        ],
        notes: ['The due date was not found: the bill has none.'],
      },
    ]);
    expect(view[2].output_summary).toBe(
      'Xero bill INV-1005: Number INV-1005, Supplier Acme Supplies Ltd, From invoice-1005.pdf, Subtotal GBP 1700.00, Tax GBP 340.00, Total GBP 2040.00, Status DRAFT, Xero id b7f1c2d0-0000-4000-8000-000000000001',
    );
    expect(view[3].output_details).toEqual([
      {
        title: 'E-mail sent',
        items: [
          { label: 'To', value: 'ap@example.com' },
          { label: 'Subject', value: 'Bill INV-1005 drafted' },
        ],
      },
    ]);
    expect(view[3].output_summary).toBe('E-mail sent: To ap@example.com, Subject Bill INV-1005 drafted');
    expect(steps).toHaveLength(4);
  });

  it('a job that failed and was retried to success counts once, as succeeded, everywhere', async () => {
    const { user, rec } = await readyRecipe(server, RETRIED);
    const res = await server.call('POST', webhookPath(rec), { body: { n: 1 } });
    const failed = await waitForJob(server, user, res.body.job_id);
    expect(failed.job.status).toBe('failed');
    const counts = async () => (await server.call('GET', `/api/automation/recipes/${rec.recipe_id}`, { token: user.access })).body.recipe;
    expect(await counts()).toMatchObject({ job_succeeded_count: 0, job_failed_count: 1 });

    expect((await server.call('POST', `/api/automation/jobs/${res.body.job_id}/retry`, { token: user.access })).status).toBe(200);
    const done = await waitForJob(server, user, res.body.job_id);
    expect(done.job).toMatchObject({ status: 'succeeded', attempt: 2 });
    expect(await counts()).toMatchObject({ job_succeeded_count: 1, job_failed_count: 0 });
    // the provider's recipe and the user's record (the card state, the recipe card) say the same
    const provider = await server.call('GET', `/api/platform/proxy?url=api/managed_users/${user.workatoId}/recipes/${rec.recipe_id}`, { token: user.access });
    expect(provider.body).toMatchObject({ job_succeeded_count: 1, job_failed_count: 0 });
    expect(await recordOf(server, user, RETRIED)).toMatchObject({ job_succeeded_count: 1, job_failed_count: 0 });
    // the monitoring roll-up: today one run, succeeded
    const deadline = Date.now() + 10_000;
    let today: Record<string, number> = {};
    for (;;) {
      const m = await server.call('GET', '/api/platform/monitoringData?client_id=x&datasource=9000&period=1', { token: user.access });
      today = Object.fromEntries(m.body[m.body.length - 1].Type.map((t: any) => [t.type, t.value]));
      if (today.SUCCEEDED === 1 || Date.now() > deadline) break;
      await sleep(50);
    }
    expect(today).toMatchObject({ SUCCEEDED: 1, FAILED: 0, success_rate: 100 });

    // failing again after a retry still counts once, as failed
    const second = await server.call('POST', webhookPath(rec), { body: { n: 2 } });
    expect((await waitForJob(server, user, second.body.job_id)).job.status).toBe('failed');
    expect(await counts()).toMatchObject({ job_succeeded_count: 1, job_failed_count: 1 });
  });

  it('Run again is refused on a stopped recipe, with the reason', async () => {
    const { user, rec } = await readyRecipe(server, C.pipeline);
    const res = await server.call('POST', webhookPath(rec), { body: { name: 'Ada', order: { total: 1 } } });
    await waitForJob(server, user, res.body.job_id);
    expect((await startRecipe(server, user, rec.recipe_id, 'stop')).status).toBe(200);
    const again = await server.call('POST', `/api/automation/jobs/${res.body.job_id}/rerun`, { token: user.access });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This workflow is stopped, so it cannot run again: start it, then press Run again.');
    const jobs = await server.call('GET', `/api/automation/recipes/${rec.recipe_id}/jobs`, { token: user.access });
    expect(jobs.body.jobs).toHaveLength(1);
    await startRecipe(server, user, rec.recipe_id);
    const ok = await server.call('POST', `/api/automation/jobs/${res.body.job_id}/rerun`, { token: user.access });
    expect(ok.status).toBe(200);
  });

  describe("each webhook trigger's payload: documented on the recipe, and a wrong one refused naming the field", () => {
    let user: TestUser;
    beforeAll(async () => {
      user = await createUser(server);
    });

    async function running(combinationId: number) {
      const rec = await recordOf(server, user, combinationId);
      await server.db.updateTable('user_recipes').set({ running: true }).where('id', '=', rec.recipe_id).execute();
      return rec;
    }
    const post = (rec: { workato_webhook: string }, body: unknown) => server.call('POST', webhookPath(rec as any), { body });

    it('Google Drive (combination 1): file_id', async () => {
      const rec = await running(1);
      const recipe = (await server.call('GET', `/api/automation/recipes/${rec.recipe_id}`, { token: user.access })).body.recipe;
      expect(recipe.webhook_payload.schema.required).toEqual(['file_id']);
      expect(recipe.webhook_payload.example).toEqual({ file_id: '1AbCdEfGhIjKlMnOpQrStUvWxYz' });
      const missing = await post(rec, { id: 'abc' });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toBe("The request needs a file_id: the id of the Google Drive file to process (the long code in the file's address).");
      const wrong = await post(rec, { file_id: 42 });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toBe("The file_id must be text: the id of the Google Drive file to process (the long code in the file's address).");
      const bad = await post(rec, { file_id: 'not an id/..' });
      expect(bad.body.message).toBe("The file_id is not valid: the id of the Google Drive file to process (the long code in the file's address).");
      // a multipart form is checked too: a file is no file_id
      const boundary = '----payloadTest';
      const form = [
        `--${boundary}`,
        'Content-Disposition: form-data; name="file"; filename="a.pdf"',
        'Content-Type: application/pdf',
        '',
        '%PDF-1.7',
        `--${boundary}--`,
        '',
      ].join('\r\n');
      const multipart = await server.app.inject({
        method: 'POST',
        url: webhookPath(rec),
        payload: form,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      expect(multipart.statusCode).toBe(400);
      expect(multipart.json().message).toBe("The request needs a file_id: the id of the Google Drive file to process (the long code in the file's address).");
      expect((await server.call('GET', `/api/automation/recipes/${rec.recipe_id}/jobs`, { token: user.access })).body.jobs).toHaveLength(0);
    });

    it('a file upload (combination 2): name and binary', async () => {
      const rec = await running(2);
      const recipe = (await server.call('GET', `/api/automation/recipes/${rec.recipe_id}`, { token: user.access })).body.recipe;
      expect(recipe.webhook_payload.example).toEqual({ name: 'invoice-1001.pdf', binary: 'JVBERi0xLjcK...' });
      const wrong = await post(rec, { name: 7, binary: 'JVBERi0xLjcK' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toBe("The name must be text: the file's name with its extension.");
      const notBase64 = await post(rec, { name: 'a.pdf', binary: '%%%' });
      expect(notBase64.status).toBe(400);
      expect(notBase64.body.message).toBe('The binary must be a file encoded in base64.');
      // the document itself is required: JSON without it, or a form without a file part, is refused and runs nothing
      expect(recipe.webhook_payload.schema.required).toEqual(['binary']);
      const NEEDS_FILE =
        'The request needs a file: binary, the document in base64 (a PDF, PNG or JPEG; an invoice recipe also takes an XML e-invoice), or a file part of a multipart form.';
      for (const body of [{}, { name: 'a.pdf' }]) {
        const none = await post(rec, body);
        expect([none.status, none.body.message]).toEqual([400, NEEDS_FILE]);
      }
      const blank = await post(rec, { name: 'a.pdf', binary: '' });
      expect([blank.status, blank.body.message]).toEqual([
        400,
        'The binary is empty: the document in base64 (a PDF, PNG or JPEG; an invoice recipe also takes an XML e-invoice).',
      ]);
      const boundary = '----noFile';
      const form = [`--${boundary}`, 'Content-Disposition: form-data; name="name"', '', 'a.pdf', `--${boundary}--`, ''].join('\r\n');
      const noPart = await server.app.inject({
        method: 'POST',
        url: webhookPath(rec as any),
        payload: form,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      expect([noPart.statusCode, noPart.json().message]).toEqual([400, NEEDS_FILE]);
      expect((await server.call('GET', `/api/automation/recipes/${rec.recipe_id}/jobs`, { token: user.access })).body.jobs).toHaveLength(0);
      // a file part, or a base64 field of another name, is the document
      const withPart = [
        `--${boundary}`,
        'Content-Disposition: form-data; name="file"; filename="a.pdf"',
        'Content-Type: application/pdf',
        '',
        '%PDF-1.7',
        `--${boundary}--`,
        '',
      ].join('\r\n');
      expect(
        (
          await server.app.inject({
            method: 'POST',
            url: webhookPath(rec as any),
            payload: withPart,
            headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
          })
        ).statusCode,
      ).toBe(200);
      expect((await post(rec, { file_name: 'b.pdf', file_binary: 'JVBERi0xLjcK' })).status).toBe(200);
    });

    it('text submitted: text', async () => {
      const rec = await running(TEXT);
      const wrong = await post(rec, { text: { body: 'hi' } });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toBe('The text must be text: the text to analyse.');
      const empty = await post(rec, { text: '  ' });
      expect(empty.body.message).toBe('The text is empty: the text to analyse.');
      // the text, or a text file, is required
      const none = await post(rec, { name: 'notes.txt' });
      expect([none.status, none.body.message]).toEqual([
        400,
        'The request needs a text: the text to analyse, or a file: binary, a .txt file encoded in base64, instead of the text, or a file part of a multipart form.',
      ]);
      expect((await post(rec, {})).status).toBe(400);
      const recipe = (await server.call('GET', `/api/automation/recipes/${rec.recipe_id}`, { token: user.access })).body.recipe;
      expect(recipe.webhook_payload.example).toEqual({ text: 'I am so happy with the new release.' });
      expect((await post(rec, { text: 'Lovely.' })).status).toBe(200);
      expect((await post(rec, { name: 'notes.txt', binary: Buffer.from('Lovely.').toString('base64') })).status).toBe(200);
    });

    it('an e-mail (combination 8): from, subject, text and the attachment', async () => {
      const rec = await running(8);
      const wrong = await post(rec, { subject: ['a'], name: 'a.pdf', binary: 'JVBERi0xLjcK' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toBe("The subject must be text: the e-mail's subject.");
      const recipe = (await server.call('GET', `/api/automation/recipes/${rec.recipe_id}`, { token: user.access })).body.recipe;
      expect(Object.keys(recipe.webhook_payload.schema.properties)).toEqual(['from', 'subject', 'text', 'name', 'binary']);
      // an e-mail without its attachment is refused
      const bare = await post(rec, { from: 'accounts@supplier.example', subject: 'Invoice', text: 'Attached.' });
      expect([bare.status, bare.body.message]).toEqual([
        400,
        'The request needs a file: binary, the attachment in base64 (a PDF, PNG or JPEG; an invoice recipe also takes an XML e-invoice), or a file part of a multipart form.',
      ]);
      expect((await server.call('GET', `/api/automation/recipes/${rec.recipe_id}/jobs`, { token: user.access })).body.jobs).toHaveLength(0);
    });

    it('the remembered-webhook path checks the payload too', async () => {
      const rec = await running(1);
      // a call that fits runs (and fails later for want of a Drive connection); the next wrong one is still refused
      expect((await post(rec, { file_id: 'abc123' })).status).toBe(200);
      const wrong = await post(rec, {});
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toMatch(/^The request needs a file_id: /);
    });
  });
});

describe('fieldLabel', () => {
  it('writes a field name as a label, initialisms in capitals', () => {
    expect(fieldLabel('invoice_number')).toBe('Invoice number');
    expect(fieldLabel('po_number')).toBe('PO number');
    expect(fieldLabel('vendor_vat_id')).toBe('Vendor VAT ID');
    expect(fieldLabel('customerIban')).toBe('Customer IBAN');
    expect(fieldLabel('identity')).toBe('Identity');
  });
});
