jest.mock('oauth4webapi', () => jest.requireActual('../connections/native-oauth4webapi').loadOAuth4WebApi());
import catalogueCore from '../../../plugins/catalogue-core/server';
import invoiceExtraction from '../../../plugins/invoice-extraction/server';
import documentExtraction from '../../../plugins/document-extraction/server';
import documentSearch from '../../../plugins/document-search/server';
import emotionAnalysis from '../../../plugins/emotion-analysis/server';
import { createConnectorsPlugin } from '../../../plugins/connectors/server';
import { renderInvoicePdf, type GeneratedInvoice } from '../../support/invoices/render';
import type { TestServer, TestUser } from '../../support/server';
import { connect, widgetToken } from '../connections/connect-flow';
import { stepContext, stepKind } from '../connectors-data/support';
import { actionServer, createUser, fileBody, recordOf, runThroughWebhook, stepOutput, waitForJob, type Rec } from './support';
import { loadPdfjs } from '../../../src/server/ai/pdf/pdfjs';

jest.setTimeout(90_000);

const ACCOUNT = 'alice@example.com';

describe('connector steps (Google Drive, Google Sheets, Xero) against the sandbox providers', () => {
  let server: TestServer;
  const connectors = createConnectorsPlugin();
  const sandbox = () => connectors.sandbox()!;
  let alice: TestUser;
  let invoice: GeneratedInvoice;
  let sheetSeq = 0;

  /** A new empty sandbox spreadsheet of alice's. */
  function newSheet(): string {
    const id = `sheet_test_${++sheetSeq}`;
    sandbox().state.change(() =>
      sandbox()
        .state.account(ACCOUNT)
        .spreadsheets.push({ spreadsheetId: id, title: `Test ${sheetSeq}`, rows: [] }),
    );
    return id;
  }
  const rowsOf = (id: string) =>
    sandbox()
      .state.account(ACCOUNT)
      .spreadsheets.find((s) => s.spreadsheetId === id)!.rows;

  /** Alice's record of a combination, marked running (its Drive trigger polls; a webhook call runs it here), with a Sheet chosen. */
  async function runningRecipe(combinationId: number, sheetId?: string): Promise<Rec> {
    const rec = await recordOf(server, alice, combinationId);
    await server.db
      .updateTable('user_recipes')
      .set({ running: true, sheet_id: sheetId ?? null })
      .where('id', '=', rec.recipe_id)
      .execute();
    return rec;
  }

  function dropInDrive(name: string, mimeType: string, bytes: Uint8Array): string {
    return sandbox().addFile(ACCOUNT, { name, mimeType, parents: ['folder_invoices'] }, Buffer.from(bytes)).id;
  }

  beforeAll(async () => {
    // pdfjs loaded in the test's own flow, not first from the queue loop (see extraction-actions)
    await loadPdfjs();
    server = await actionServer([catalogueCore, connectors, invoiceExtraction, documentExtraction, documentSearch, emotionAnalysis], {
      env: { SANDBOX_PROVIDERS: 'true' },
    });
    alice = await createUser(server);
    const token = await widgetToken(server, alice);
    for (const provider of ['google_drive', 'google_sheets', 'xero']) await connect(server, token, provider, ACCOUNT);
    invoice = await renderInvoicePdf({ seed: 21, layout: 'classic', font: 'helvetica' });
  });
  afterAll(() => server.close());

  it('Google Drive Invoices to Google Sheets (combination 1): download → extract → one row, headers first', async () => {
    const sheet = newSheet();
    const rec = await runningRecipe(1, sheet);
    const fileId = dropInDrive('drive-invoice.pdf', 'application/pdf', invoice.pdf);
    const { job, steps } = await runThroughWebhook(server, alice, rec, { file_id: fileId });
    expect(job.error).toBeNull();
    expect(steps.map((s) => [`${s.provider}:${s.action}`, s.status])).toEqual([
      ['google_drive:new_file_in_folder', 'succeeded'],
      ['google_drive:download_file', 'succeeded'],
      ['flowmatic_ai:extract_invoice_fields', 'succeeded'],
      ['google_sheets:append_row', 'succeeded'],
    ]);
    const download = await stepOutput(server, job.id, 1);
    expect(download).toMatchObject({ file_id: fileId, name: 'drive-invoice.pdf', files: [{ bucket: 'automation', kind: 'pdf', name: 'drive-invoice.pdf' }] });
    const rows = rowsOf(sheet);
    expect(rows).toHaveLength(2);
    expect(rows[0].slice(0, 3)).toEqual(['file', 'invoice_number', 'invoice_date']);
    expect(rows[1][0]).toBe('drive-invoice.pdf');
    expect(rows[1][1]).toBe(String(invoice.truth.invoice_number));
    expect(rows[1]).toContain(String(invoice.truth.total));
    expect(await stepOutput(server, job.id, 3)).toMatchObject({
      appended: true,
      spreadsheet_id: sheet,
      range: `Sheet1!A2:P2`,
      rows: [{ file: 'drive-invoice.pdf', invoice_number: invoice.truth.invoice_number }],
    });
    // a second invoice adds one row, no second header
    const again = await runThroughWebhook(server, alice, rec, { file_id: dropInDrive('second.pdf', 'application/pdf', invoice.pdf) });
    expect(again.job.status).toBe('succeeded');
    expect(rowsOf(sheet)).toHaveLength(3);
  });

  it('the Sheets step fails at once with no Sheet chosen; retrying the job after choosing one resumes there and writes once', async () => {
    const sheet = newSheet();
    const rec = await runningRecipe(8);
    const { job, steps } = await runThroughWebhook(server, alice, rec, fileBody('mailed.pdf', invoice.pdf));
    expect(job.status).toBe('failed');
    expect(steps[2]).toMatchObject({ provider: 'google_sheets', action: 'append_row', status: 'failed', attempts: 1 });
    expect(steps[2].error).toBe(
      "No Google Sheet is chosen for this workflow. Choose one in its setup, or send the Sheet's id in the webhook call, then try again.",
    );
    await server.db.updateTable('user_recipes').set({ sheet_id: sheet }).where('id', '=', rec.recipe_id).execute();
    const retried = await server.call('POST', `/api/automation/jobs/${job.id}/retry`, { token: alice.access });
    expect(retried.status).toBe(200);
    const done = await waitForJob(server, alice, job.id, ['succeeded', 'failed'], 20_000);
    expect(done.job.status).toBe('succeeded');
    // resumed at the failed step: the extraction was not run again
    expect(done.steps[1].completed_at).toBe(steps[1].completed_at);
    expect(done.steps[2]).toMatchObject({ status: 'succeeded', error: null });
    expect(rowsOf(sheet)).toHaveLength(2);
  });

  describe('a step run again with the same idempotency key (a retry after a lost answer or a restart)', () => {
    const definition = (key: string) => stepKind(server, key);
    const ctxFor = (rec: Rec, key: string, attempt: number) => stepContext(server, alice, rec, { jobId: key, attempt });
    const extraction = {
      name: 'x.pdf',
      fields: {
        invoice_number: 'INV-77',
        invoice_date: '2024-03-01',
        due_date: '2024-03-31',
        vendor_name: 'Idem Supplies Ltd',
        subtotal: 100,
        tax: 20,
        total: 120,
        currency: 'GBP',
        po_number: 'PO-9',
      },
      lineItems: [{ description: 'Widgets', quantity: 4, unit_price: 25, amount: 100, confidence: 1 }],
      warnings: [],
    };

    it('google_sheets:append_row writes one row whatever the tries', async () => {
      const sheet = newSheet();
      const rec = await runningRecipe(8, sheet);
      const first = await definition('google_sheets:append_row').run(extraction, ctxFor(rec, '00000000-0000-4000-8000-000000000001', 1));
      const second = await definition('google_sheets:append_row').run(extraction, ctxFor(rec, '00000000-0000-4000-8000-000000000001', 2));
      expect(first).toMatchObject({ appended: true, range: 'Sheet1!A2:P2', rows: [{ file: 'x.pdf', invoice_number: 'INV-77', total: 120 }] });
      expect(second).toMatchObject({ appended: false, already_appended: true });
      expect(rowsOf(sheet)).toHaveLength(2); // header + one row
      expect(rowsOf(sheet)[1].slice(0, 2)).toEqual(['x.pdf', 'INV-77']);
    });

    it('xero:create_draft_bill creates one bill (Idempotency-Key) and one contact', async () => {
      const rec = await runningRecipe(9);
      const ctx = (attempt: number) => ctxFor(rec, '00000000-0000-4000-8000-000000000002', attempt);
      const a = await definition('xero:create_draft_bill').run(extraction, ctx(1));
      const b = await definition('xero:create_draft_bill').run(extraction, ctx(2));
      expect(b).toEqual(a);
      const acc = sandbox().state.account(ACCOUNT);
      const bills = acc.invoices.filter((i) => i.InvoiceNumber === 'INV-77');
      expect(bills).toHaveLength(1);
      expect(bills[0]).toMatchObject({
        Type: 'ACCPAY',
        Status: 'DRAFT',
        Date: '2024-03-01',
        DueDate: '2024-03-31',
        CurrencyCode: 'GBP',
        LineAmountTypes: 'Exclusive',
        SubTotal: 100,
        TotalTax: 20,
        Total: 120,
      });
      expect(bills[0].Contact.Name).toBe('Idem Supplies Ltd');
      expect(acc.contacts.filter((c) => c.Name === 'Idem Supplies Ltd')).toHaveLength(1);
    });
  });

  it('E-mailed Invoices to Xero (combination 9): extract → draft bill, through the webhook', async () => {
    const rec = await runningRecipe(9);
    const { job, steps } = await runThroughWebhook(server, alice, rec, fileBody('bill.pdf', invoice.pdf));
    expect(job.error).toBeNull();
    expect(steps.map((s) => `${s.provider}:${s.action}`)).toEqual([
      'manual_email:email_received',
      'flowmatic_ai:extract_invoice_fields',
      'xero:create_draft_bill',
    ]);
    const out = await stepOutput(server, job.id, 2);
    expect(out.bills).toEqual([
      expect.objectContaining({
        Status: 'DRAFT',
        Contact: invoice.truth.vendor_name,
        InvoiceNumber: invoice.truth.invoice_number,
        Total: invoice.truth.total,
        TotalTax: invoice.truth.tax,
      }),
    ]);
    const bill = sandbox()
      .state.account(ACCOUNT)
      .invoices.find((i) => i.InvoiceID === out.bills[0].InvoiceID)!;
    expect(bill.Type).toBe('ACCPAY');
    expect(bill.LineItems.length).toBe(invoice.data.lines.length);
  });

  it('Drive documents to Search (combination 5) and to Sheets (combination 4); Drive text to emotions in Sheets (combination 6)', async () => {
    const search = await runThroughWebhook(server, alice, await runningRecipe(5), { file_id: dropInDrive('searchable.pdf', 'application/pdf', invoice.pdf) });
    expect(search.job.error).toBeNull();
    expect(await stepOutput(server, search.job.id, 2)).toMatchObject({ count: 1, indexed: [{ document: 'searchable.pdf' }] });
    const hits = await server.call('POST', '/api/nlp-document-store/query', { token: alice.access, body: { query: String(invoice.truth.vendor_name) } });
    expect(hits.body.results.map((r: any) => r.document)).toContain('searchable.pdf');

    const docSheet = newSheet();
    const docs = await runThroughWebhook(server, alice, await runningRecipe(4, docSheet), { file_id: dropInDrive('form.pdf', 'application/pdf', invoice.pdf) });
    expect(docs.job.error).toBeNull();
    // a column per label the document gave, each value under its label
    const docOut = await stepOutput(server, docs.job.id, 2);
    const [docHeader, docRow] = rowsOf(docSheet);
    expect(docHeader[0]).toBe('file');
    expect([...docHeader].sort()).toEqual(['file', ...Object.keys(docOut.values)].sort());
    expect(docRow[0]).toBe('form.pdf');
    for (const [label, value] of Object.entries(docOut.values)) expect(docRow[docHeader.indexOf(label)]).toBe(String(value ?? ''));

    const emoSheet = newSheet();
    const emo = await runThroughWebhook(server, alice, await runningRecipe(6, emoSheet), {
      file_id: dropInDrive('feedback.txt', 'text/plain', Buffer.from('I love this product. The support made me angry.')),
    });
    expect(emo.job.error).toBeNull();
    expect(emo.steps.map((s) => `${s.provider}:${s.action}`)).toEqual([
      'google_drive:new_file_in_folder',
      'google_drive:download_file',
      'flowmatic_ai:analyse_emotions',
      'google_sheets:append_rows',
    ]);
    expect(rowsOf(emoSheet)).toEqual([
      ['1', 'I love this product.', 'joy'],
      ['2', 'The support made me angry.', 'anger'],
    ]);
  });

  it('fails the connector step at once when the provider is not connected, saying what to do', async () => {
    const bob = await createUser(server);
    const rec = await recordOf(server, bob, 1);
    await server.db.updateTable('user_recipes').set({ running: true }).where('id', '=', rec.recipe_id).execute();
    const { job, steps } = await runThroughWebhook(server, bob, rec, { file_id: 'file_abc' });
    expect(job.status).toBe('failed');
    expect(steps[1]).toMatchObject({ attempts: 1, error: 'Google Drive is not connected: connect it in the connections tab, then try again.' });
    const missing = await runThroughWebhook(server, alice, await runningRecipe(1, newSheet()), { file_id: 'file_doesnotexist' });
    expect(missing.steps[1]).toMatchObject({ status: 'failed', attempts: 1, error: 'Google Drive refused the request (HTTP 404): File not found..' });
  });
});
