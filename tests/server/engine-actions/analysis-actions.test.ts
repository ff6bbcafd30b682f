import catalogueCore from '../../../plugins/catalogue-core/server';
import emotionAnalysis from '../../../plugins/emotion-analysis/server';
import documentSearch from '../../../plugins/document-search/server';
import invoiceReconciliation from '../../../plugins/invoice-reconciliation/server';
import financialAnalysis from '../../../plugins/financial-analysis/server';
import { renderInvoicePdf } from '../../support/invoices/render';
import { STATEMENT_CSV as STATEMENT } from '../../support/finance/statement';
import type { TestServer } from '../../support/server';
import { actionServer, createUser, fileBody, readyRecipe, recordOf, runThroughWebhook, stepOutput, webhookPath } from './support';
import { loadPdfjs } from '../../../src/server/ai/pdf/pdfjs';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

jest.setTimeout(60_000);

const b64 = (s: string | Uint8Array) => Buffer.from(s).toString('base64');
const PO =
  'PO Number,Vendor,Vendor Email,Description,Qty,Unit Price,Total\nPO-1,Acme Ltd,ar@acme.example,Bolts,10,2.50,25.00\nPO-2,Acme Ltd,,Nuts,4,1.00,4.00\nPO-3,Globex,,Paper,1,5.00,5.00\n';
const INV =
  'Invoice Number,PO Number,Vendor,Description,Qty,Unit Price,Total\nI-1,PO-1,Acme Ltd,Bolts,12,2.50,30.00\nI-2,PO-2,Acme Ltd,Nuts,4,1.00,4.00\nI-3,PO-8,Globex,Toner,1,"1,250.00","1,250.00"\n';
const SETTINGS =
  "{'INVOICE_PRIMARY_KEY': 'PO Number', 'PURCHASE_ORDER_PRIMARY_KEY': 'PO Number', 'EMAIL_TONE_OF_VOICE_MATCHED': 'friendly', 'EMAIL_TONE_OF_VOICE_NOT_MATCHED': 'humorous', 'GENERATE_EMAIL_FOR_NOT_MATCHED': True, 'GENERATE_EMAIL_FOR_MATCHED': True, 'GENERATE_INTERNAL_MEMO_FOR_NOT_MATCHED': False}";

describe('engine steps of the analysis plugins, run through a recipe webhook', () => {
  let server: TestServer;

  beforeAll(async () => {
    // pdfjs loaded in the test's own flow, not first from the queue loop (see extraction-actions)
    await loadPdfjs();
    server = await actionServer([catalogueCore, connectorDeclarations, emotionAnalysis, documentSearch, invoiceReconciliation, financialAnalysis]);
  });
  afterAll(() => server.close());

  it('Emotion Analysis from Text Basic (combination 7): text → flowmatic_ai:analyse_emotions', async () => {
    const { user, rec } = await readyRecipe(server, 7);
    const { job, steps } = await runThroughWebhook(server, user, rec, {
      text: 'I am so happy with the new release. The delay made me furious. The meeting is on Tuesday.',
    });
    expect(job.status).toBe('succeeded');
    expect(steps.map((s) => `${s.provider}:${s.action}`)).toEqual(['manual_upload:text_submitted', 'flowmatic_ai:analyse_emotions']);
    const out = await stepOutput(server, job.id, 1);
    expect(out.sentences.map((s: any) => s.emotion)).toEqual(['joy', 'anger', 'neutral']);
    expect(out.counts).toEqual({ joy: 1, anger: 1, neutral: 1 });
    expect(out.rows[0]).toEqual([1, 'I am so happy with the new release.', 'joy']);
    // a .txt file works too; no text at all fails at once
    const file = await runThroughWebhook(server, user, rec, fileBody('call.txt', Buffer.from('What a wonderful surprise!')));
    expect(file.job.status).toBe('succeeded');
    // no text at all: the webhook refuses the call naming what it needs, and runs nothing
    const none = await server.call('POST', webhookPath(rec), { body: { note: 1 } });
    expect([none.status, none.body.message]).toEqual([
      400,
      'The request needs a text: the text to analyse, or a file: binary, a .txt file encoded in base64, instead of the text, or a file part of a multipart form.',
    ]);
  });

  it('Google Drive Documents to Search (combination 5): its flowmatic_ai:index_document step indexes the file the run brings', async () => {
    const user = await createUser(server);
    const rec = await recordOf(server, user, 5);
    // the Drive trigger polls; a webhook call runs the recipe with a posted file instead of the download
    await server.db.updateTable('user_recipes').set({ running: true }).where('id', '=', rec.recipe_id).execute();
    const invoice = await renderInvoicePdf({ seed: 3, layout: 'classic', font: 'helvetica' });
    const res = await server.call('POST', new URL(rec.workato_webhook).pathname, { body: fileBody('supplier-invoice.pdf', invoice.pdf) });
    expect(res.status).toBe(409); // google_drive:download_file comes with the connectors plugin, not loaded here
    expect(res.body.message).toBe('Connector not found. This workflow needs google_drive:download_file, which is not installed.');
    const view = await server.call('GET', `/api/automation/recipes/${rec.recipe_id}`, { token: user.access });
    expect(view.body.recipe.steps.map((s: any) => [`${s.provider}:${s.action}`, s.installed])).toEqual([
      ['google_drive:new_file_in_folder', false],
      ['google_drive:download_file', false],
      ['flowmatic_ai:index_document', true],
    ]);
  });

  it('Invoice Reconciliation (combination 10): two CSVs → flowmatic_ai:reconcile_invoices → e-mail, with the saved config', async () => {
    const { user, rec } = await readyRecipe(server, 10);
    const body = { email: 'ap@example.com', file1_name: 'invoices.csv', file1_binary: b64(INV), file2_name: 'purchase-orders.csv', file2_binary: b64(PO) };
    const { job, steps } = await runThroughWebhook(server, user, rec, body);
    expect(job.status).toBe('succeeded');
    expect(steps.map((s) => `${s.provider}:${s.action}`)).toEqual([
      'manual_upload:files_uploaded',
      'flowmatic_ai:reconcile_invoices',
      'manual_email:send_email',
    ]);
    const out = await stepOutput(server, job.id, 1);
    expect(out.config).toBe('detected');
    expect(out.metadata).toMatchObject({
      mode: 'reconciliation',
      invoice_file: 'invoices.csv',
      purchase_order_file: 'purchase-orders.csv',
      invoice_rows: 3,
      matched_rows: 2,
    });
    expect(out.discrepancy_count).toBeGreaterThan(0);
    expect(out.to).toBe('ap@example.com');
    const mail = await server.mailer.waitFor('ap@example.com');
    expect(mail.subject).toBe(out.subject);
    expect(mail.subject).toMatch(/^Reconciliation of invoices\.csv: \d+ discrepanc/);
    // the saved config is used: files given the other way round are still told apart by name
    const saved = await server.call('POST', '/api/platform/invoiceReconciliationConfig', {
      token: user.access,
      body: { combination_id: 10, config_json: SETTINGS },
    });
    expect(saved.body).toMatchObject({ status: 'success' });
    const again = await runThroughWebhook(server, user, rec, {
      email: 'ap@example.com',
      file1_name: 'po.csv',
      file1_binary: b64(PO),
      file2_name: 'invoices.csv',
      file2_binary: b64(INV),
    });
    expect(again.job.status).toBe('succeeded');
    const out2 = await stepOutput(server, again.job.id, 1);
    expect(out2.config).toBe('saved config');
    expect(out2.metadata).toMatchObject({ invoice_file: 'invoices.csv', purchase_order_file: 'po.csv', invoice_key: 'PO Number' });
    expect(out2.emails.some((e: any) => e.type === 'vendor_matched')).toBe(true);
  });

  it('reports a reconciliation input problem at once', async () => {
    const { user, rec } = await readyRecipe(server, 10);
    const { job, steps } = await runThroughWebhook(server, user, rec, fileBody('notes.txt', Buffer.from('hello')));
    expect(job.status).toBe('failed');
    expect(steps[1]).toMatchObject({
      attempts: 1,
      error: 'This step compares CSV files, but the run brought only "notes.txt": upload the invoices CSV (and the purchase orders CSV).',
    });
  });

  it('Financial Analysis (combination 11): statement → flowmatic_ai:analyse_financials → e-mail, for the saved focus area', async () => {
    const { user, rec } = await readyRecipe(server, 11);
    await server.call('POST', '/api/platform/financialAnalysisConfig', {
      token: user.access,
      body: { combination_id: 11, config_json: "{'SELECTED_FOCUS_AREA': 'cash-flow-management'}" },
    });
    const { job, steps } = await runThroughWebhook(server, user, rec, fileBody('accounts.csv', Buffer.from(STATEMENT), { email: 'cfo@example.com' }));
    expect(job.status).toBe('succeeded');
    expect(steps.map((s) => `${s.provider}:${s.action}`)).toEqual([
      'manual_upload:file_uploaded',
      'flowmatic_ai:analyse_financials',
      'manual_email:send_email',
    ]);
    const out = await stepOutput(server, job.id, 1);
    expect(out).toMatchObject({
      to: 'cfo@example.com',
      subject: 'Financial analysis of accounts.csv: cash flow management',
      focus_area_source: 'saved config',
    });
    expect(out.report.focus_area).toBe('cash-flow-management');
    expect(out.report.periods).toEqual(['FY2023', 'FY2024']);
    expect(out.text).toContain(out.report.summary);
    const mail = await server.mailer.waitFor('cfo@example.com');
    expect(mail.text).toBe(out.text);
  });
});
