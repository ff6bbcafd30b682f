import catalogueCore from '../../../plugins/catalogue-core/server';
import invoiceExtraction from '../../../plugins/invoice-extraction/server';
import documentExtraction from '../../../plugins/document-extraction/server';
import { createConnectorsPlugin, type SandboxProviders } from '../../../plugins/connectors/server';
import { loadPdfjs } from '../../../src/server/ai/pdf/pdfjs';
import { SPREADSHEET_MIME } from '../../../plugins/connectors/google-api';
import { classic, type Layout } from '../../support/invoices/layouts';
import type { InvoiceData, InvoiceLine } from '../../support/invoices/random-invoice';
import { renderInvoiceData } from '../../support/invoices/render';
import type { TestServer, TestUser } from '../../support/server';
import { connect, widgetToken } from '../connections/connect-flow';
import { actionServer, createUser, fileBody, recordOf, runThroughWebhook, stepOutput, waitForJob, type Rec } from '../engine-actions/support';
import { startRecipe } from '../automation/support';
import { AutomationActions, type ActionContext, type ActionDefinition, type TriggerPayload } from '../../../src/server/automation';
import { ledgerOf } from '../../../src/server/automation/side-effects';
import { isTypedAction, stepContextOf } from '../../../src/server/automation/steps';
import { Connections } from '../../../src/server/connections';
import * as T from '../../../src/server/tokens';

export { fileBody, recordOf, runThroughWebhook, stepOutput, waitForJob, type Rec };
/** The running sandbox providers (their state is read back by the tests). */
export type GoogleSandbox = SandboxProviders;

/**
 * A server with the catalogue, the connectors (sandbox providers on), both extraction plugins
 * and a user who connected Google Sheets and Xero through the sandbox's OAuth pages.
 */
export async function dataServer(account: string): Promise<{ server: TestServer; user: TestUser; sandbox: () => GoogleSandbox }> {
  await loadPdfjs();
  const connectors = createConnectorsPlugin();
  const server = await actionServer([catalogueCore, connectors, invoiceExtraction, documentExtraction], { env: { SANDBOX_PROVIDERS: 'true' } });
  const user = await createUser(server);
  const token = await widgetToken(server, user);
  for (const provider of ['google_sheets', 'xero']) await connect(server, token, provider, account);
  return { server, user, sandbox: () => connectors.sandbox()! };
}

/** A line with its amount as quantity × unit price, to the cent. */
export const line = (description: string, quantity: number, unitPrice: number): InvoiceLine => ({
  description,
  quantity,
  unitPrice,
  amount: Math.round(quantity * unitPrice * 100) / 100,
});

/** Invoice data with the given lines and totals; the rest fixed unless given. */
export function invoiceData(extra: Partial<InvoiceData> & Pick<InvoiceData, 'lines' | 'subtotal' | 'tax' | 'total' | 'taxRate'>): InvoiceData {
  return {
    invoiceNumber: 'INV-1005',
    invoiceDate: '2026-03-02',
    dueDate: '2026-04-01',
    vendorName: 'Granite Works Ltd',
    vendorAddress: ['12 Mill Lane', 'Bristol 10452', 'United Kingdom'],
    vendorContact: 'billing@works.example  +44 117 496 0000',
    customerName: 'Harbor Field Group',
    customerAddress: ['8 King Street', 'Dover 20331', 'United Kingdom'],
    poNumber: 'PO-4411',
    currency: 'GBP',
    paymentTerms: 'Net 30',
    ...extra,
  };
}

/** GBP 1,700 + 340 VAT = 2,040, tax-exclusive lines with quantities. */
export const GBP_EXCLUSIVE = invoiceData({
  lines: [line('Consulting services', 10, 150), line('Design workshop', 1, 200)],
  subtotal: 1700,
  tax: 340,
  total: 2040,
  taxRate: 0.2,
});

/** Another supplier in euros, no PO number, three lines whose per-line 5% tax rounds to 11.87 while the invoice says 11.86. */
export const EUR_MULTI_LINE = invoiceData({
  invoiceNumber: 'F-2207',
  invoiceDate: '2026-05-14',
  dueDate: '2026-06-13',
  vendorName: 'Cedar Labs BV',
  currency: 'EUR',
  poNumber: undefined,
  lines: [line('Support hours', 3, 33.33), line('Training session', 7, 12.5), line('USB-C cable 2m', 25, 1.99)],
  subtotal: 237.24,
  tax: 11.86,
  total: 249.1,
  taxRate: 0.05,
});

/** The context the engine gives a step of a job (its idempotency key is the job's and the step's). */
export function stepContext(
  server: TestServer,
  user: TestUser,
  rec: Rec,
  opts: { jobId: string; attempt?: number; stepIndex?: number; data?: Record<string, unknown>; source?: TriggerPayload['source'] },
): ActionContext {
  const stepIndex = opts.stepIndex ?? 2;
  return {
    userId: user.id,
    managedUserId: user.workatoId,
    recipeId: rec.recipe_id,
    combinationId: rec.combination,
    jobId: opts.jobId,
    stepIndex,
    attempt: opts.attempt ?? 1,
    idempotencyKey: `${opts.jobId}:${stepIndex}`,
    params: {},
    trigger: { source: opts.source ?? 'webhook', data: opts.data ?? {}, files: [] },
    files: server.container.get(T.FileStore),
    text: server.container.get(T.TextGenerator),
    mail: { send: async () => undefined },
    ledger: ledgerOf(server.db),
    records: { save: async () => ({ id: 1, created: true }) },
    log: { info: () => undefined, warn: () => undefined },
    signal: new AbortController().signal,
    progress: () => undefined,
  };
}

/** A contributed step kind by its key ('xero:create_draft_bill'). */
export function stepKind(server: TestServer, key: string): ActionDefinition {
  const definition = server.container.get(T.Contributions).of(AutomationActions).get(key) as ActionDefinition;
  if (!isTypedAction(definition)) return definition;
  // a typed step (defineAction) runs as the engine runs it: its declared connection resolved, then runTyped
  return {
    ...definition,
    run: async (input, ctx) =>
      definition.runTyped(input, await stepContextOf(definition, input, ctx, { connections: server.container.get(Connections) }, definition.services)),
  };
}

/** ISO dates and plain 1,234.56 amounts (the render seed that gives them). */
const PLAIN_FORMATS_SEED = 6;

/** A text-layer PDF of the invoice in the classic layout (or the given one). */
export function invoicePdf(data: InvoiceData, layout: Layout = classic): Promise<Uint8Array> {
  return renderInvoiceData(data, layout, 'helvetica', PLAIN_FORMATS_SEED);
}

/** A Sheet the user made in their Google account (a spreadsheet and its Drive file), with rows already in it. */
export function userSheet(sandbox: GoogleSandbox, account: string, title: string, rows: string[][] = []): string {
  const id = `sheet_${title.toLowerCase().replace(/[^a-z0-9]+/g, '_')}_${Date.now().toString(36)}`;
  sandbox.state.change(() => {
    const acc = sandbox.state.account(account);
    acc.spreadsheets.push({ spreadsheetId: id, title, rows: rows.map((r) => [...r]) });
    acc.files.push({ id, name: title, mimeType: SPREADSHEET_MIME, parents: ['root'], createdTime: new Date().toISOString(), size: 0 });
  });
  return id;
}

/** Chooses the recipe's Sheet through the setup screen's picker route, as the user does. */
export async function chooseSheet(server: TestServer, user: TestUser, recipeId: number, sheetId: string): Promise<void> {
  const res = await server.call('PUT', `/api/plugins/connectors/recipes/${recipeId}/targets`, { token: user.access, body: { sheet_id: sheetId } });
  if (res.status !== 200) throw new Error(`choose sheet: ${res.status} ${JSON.stringify(res.body)}`);
}

/** The user's record of a combination, started (Start in the product). */
export async function started(server: TestServer, user: TestUser, combinationId: number): Promise<Rec> {
  const rec = await recordOf(server, user, combinationId);
  const res = await startRecipe(server, user, rec.recipe_id);
  if (res.status !== 200) throw new Error(`start: ${res.status} ${JSON.stringify(res.body)}`);
  return rec;
}

/** A value as the Sheet holds it after RAW input: numbers as their text, a missing value as an empty cell. */
export function asCell(v: unknown): string {
  return v === null || v === undefined ? '' : String(v);
}
