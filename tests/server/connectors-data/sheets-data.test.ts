jest.mock('oauth4webapi', () => jest.requireActual('../connections/native-oauth4webapi').loadOAuth4WebApi());
import type { TestServer, TestUser } from '../../support/server';
import {
  asCell,
  chooseSheet,
  dataServer,
  EUR_MULTI_LINE,
  fileBody,
  GBP_EXCLUSIVE,
  invoicePdf,
  runThroughWebhook,
  started,
  stepOutput,
  userSheet,
  waitForJob,
  type GoogleSandbox,
} from './support';

jest.setTimeout(120_000);

const ACCOUNT = 'sheets-owner@example.com';
/** The declared column order of an invoice row (README "What works today"). */
const COLUMNS = [
  'file',
  'invoice_number',
  'invoice_date',
  'due_date',
  'vendor_name',
  'vendor_address',
  'customer_name',
  'customer_address',
  'po_number',
  'payment_terms',
  'currency',
  'subtotal',
  'tax',
  'total',
  'line_items',
  'warnings',
];
const NUMERIC = new Set(['subtotal', 'tax', 'total']);
const FIELDS = COLUMNS.slice(1, 14);

const gbp = GBP_EXCLUSIVE;
const eur = EUR_MULTI_LINE;

describe('Google Sheets rows: every cell under the column of its name, written as RAW input', () => {
  let server: TestServer;
  let user: TestUser;
  let sandbox: () => GoogleSandbox;
  let gbpPdf: Uint8Array;
  let eurPdf: Uint8Array;

  const sheetOf = (id: string) =>
    sandbox()
      .state.account(ACCOUNT)
      .spreadsheets.find((s) => s.spreadsheetId === id)!;

  /** The row an extraction output must give under a header: each field under its own column, '' under any other. */
  async function expectedRow(jobId: string, header: string[]): Promise<string[]> {
    const out = await stepOutput(server, jobId, 1);
    const byColumn: Record<string, string> = {
      file: out.name,
      line_items: out.lineItems.map((l: any) => `${l.quantity} × ${l.description} @ ${l.unit_price.toFixed(2)} = ${l.amount.toFixed(2)}`).join('\n'),
    };
    for (const f of FIELDS) byColumn[f] = asCell(out.fields[f]);
    const norm = (h: string) => h.toLowerCase().replace(/[^a-z0-9]+/g, '');
    const key = (h: string) => Object.keys(byColumn).find((k) => norm(k) === norm(h)) ?? (norm(h) === 'warnings' ? 'warnings' : undefined);
    // what is missing or uncertain: the step's own warnings, the extractor's first
    const reported: string[] = (await stepOutput(server, jobId, 2)).warnings;
    expect(reported.slice(0, out.warnings.length)).toEqual(out.warnings);
    return header.map((h) => (key(h) === 'warnings' ? reported.join('\n') : key(h) ? byColumn[key(h)!] : ''));
  }

  beforeAll(async () => {
    ({ server, user, sandbox } = await dataServer(ACCOUNT));
    [gbpPdf, eurPdf] = await Promise.all([invoicePdf(gbp), invoicePdf(eur)]);
  });
  afterAll(() => server.close());

  it('a retried step writes the declared header once, then rows with other fields land under the same columns', async () => {
    const sheetId = userSheet(sandbox(), ACCOUNT, 'Invoices 2026');
    const rec = await started(server, user, 8);
    await chooseSheet(server, user, rec.recipe_id, sheetId);
    // the Sheet is out of reach for the first run (removed, then restored): the Sheets step fails
    const acc = sandbox().state.account(ACCOUNT);
    const sheet = sheetOf(sheetId);
    sandbox().state.change(() => acc.spreadsheets.splice(acc.spreadsheets.indexOf(sheet), 1));
    const failed = await runThroughWebhook(server, user, rec, fileBody('invoice-1005.pdf', gbpPdf));
    expect(failed.job.status).toBe('failed');
    expect(failed.steps[2]).toMatchObject({ provider: 'google_sheets', action: 'append_row', status: 'failed' });
    sandbox().state.change(() => acc.spreadsheets.push(sheet));
    // retried: the Sheets step resumes from the checkpointed extraction (read back from the database)
    expect((await server.call('POST', `/api/automation/jobs/${failed.job.id}/retry`, { token: user.access })).status).toBe(200);
    const retried = await waitForJob(server, user, failed.job.id, ['succeeded', 'failed'], 30_000);
    expect(retried.job.status).toBe('succeeded');

    const second = await runThroughWebhook(server, user, rec, fileBody('f-2207.pdf', eurPdf), 30_000);
    expect(second.job.status).toBe('succeeded');

    const rows = sheetOf(sheetId).rows;
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual(COLUMNS);
    expect(rows[1]).toEqual(await expectedRow(failed.job.id, COLUMNS));
    expect(rows[2]).toEqual(await expectedRow(second.job.id, COLUMNS));
    // the values are the invoices' own, each under its column
    const at = (r: number, c: string) => rows[r][COLUMNS.indexOf(c)];
    expect([
      at(1, 'file'),
      at(1, 'invoice_number'),
      at(1, 'invoice_date'),
      at(1, 'due_date'),
      at(1, 'vendor_name'),
      at(1, 'po_number'),
      at(1, 'currency'),
      at(1, 'subtotal'),
      at(1, 'tax'),
      at(1, 'total'),
    ]).toEqual(['invoice-1005.pdf', 'INV-1005', '2026-03-02', '2026-04-01', 'Granite Works Ltd', 'PO-4411', 'GBP', '1700', '340', '2040']);
    expect(at(1, 'line_items')).toBe('10 × Consulting services @ 150.00 = 1500.00\n1 × Design workshop @ 200.00 = 200.00');
    expect([
      at(2, 'file'),
      at(2, 'invoice_number'),
      at(2, 'invoice_date'),
      at(2, 'vendor_name'),
      at(2, 'po_number'),
      at(2, 'currency'),
      at(2, 'subtotal'),
      at(2, 'tax'),
      at(2, 'total'),
    ]).toEqual(['f-2207.pdf', 'F-2207', '2026-05-14', 'Cedar Labs BV', '', 'EUR', '237.24', '11.86', '249.1']);
    // amounts are numbers in the Sheet, everything else text; nothing is a formula
    expect(sheetOf(sheetId).kinds![1]).toEqual(COLUMNS.map((c) => (NUMERIC.has(c) ? 'n' : 's')));
    // the step's output: the row as { header: value } and where it went
    const out = await stepOutput(server, second.job.id, 2);
    expect(out).toMatchObject({ appended: true, spreadsheet_id: sheetId, range: 'Sheet1!A3:P3' });
    expect(out.rows).toEqual([Object.fromEntries(COLUMNS.map((c) => [c, NUMERIC.has(c) ? Number(at(2, c)) : at(2, c)]))]);
  });

  it('keeps a header the user reordered and renamed, and adds the columns it lacks at its end', async () => {
    const userHeader = ['Total', 'Invoice Number', 'Notes', 'file', 'Vendor name'];
    const sheetId = userSheet(sandbox(), ACCOUNT, 'My own layout', [userHeader]);
    const rec = await started(server, user, 8);
    await chooseSheet(server, user, rec.recipe_id, sheetId);
    const { job } = await runThroughWebhook(server, user, rec, fileBody('invoice-1005.pdf', gbpPdf), 30_000);
    expect(job.status).toBe('succeeded');
    const rows = sheetOf(sheetId).rows;
    const header = [...userHeader, ...COLUMNS.filter((c) => !['total', 'invoice_number', 'file', 'vendor_name'].includes(c))];
    expect(rows[0]).toEqual(header);
    expect(rows[1]).toEqual(await expectedRow(job.id, header));
    expect(rows[1].slice(0, 5)).toEqual(['2040', 'INV-1005', '', 'invoice-1005.pdf', 'Granite Works Ltd']);
    expect(rows).toHaveLength(2);
  });

  it('a field new to the Sheet gets a new column at the end; rows written before stay as they were', async () => {
    const older = COLUMNS.filter((c) => c !== 'po_number' && c !== 'payment_terms');
    const oldRow = older.map((c) => (c === 'file' ? 'old.pdf' : c === 'total' ? '99' : ''));
    const sheetId = userSheet(sandbox(), ACCOUNT, 'Older sheet', [older, oldRow]);
    const rec = await started(server, user, 8);
    await chooseSheet(server, user, rec.recipe_id, sheetId);
    const { job } = await runThroughWebhook(server, user, rec, fileBody('invoice-1005.pdf', gbpPdf), 30_000);
    expect(job.status).toBe('succeeded');
    const rows = sheetOf(sheetId).rows;
    const header = [...older, 'po_number', 'payment_terms'];
    expect(rows[0]).toEqual(header);
    expect(rows[1]).toEqual(oldRow);
    expect(rows[2]).toEqual(await expectedRow(job.id, header));
    expect(rows[2].slice(-2)).toEqual(['PO-4411', 'Net 30']);
  });

  it('text that looks like a formula is stored as text; the same text written USER_ENTERED would be a formula', async () => {
    const sheetId = userSheet(sandbox(), ACCOUNT, 'Formula check');
    const rec = await started(server, user, 8);
    await chooseSheet(server, user, rec.recipe_id, sheetId);
    const name = '=HYPERLINK("evil.example","open").pdf';
    const { job } = await runThroughWebhook(server, user, rec, fileBody(name, gbpPdf), 30_000);
    expect(job.status).toBe('succeeded');
    const sheet = sheetOf(sheetId);
    expect(sheet.rows[1][0]).toBe(name);
    expect(sheet.kinds!.flat()).not.toContain('f');
    expect(sheet.kinds![1][0]).toBe('s');
    // the sandbox tells the two input options apart, as Sheets does
    const token = Object.entries(sandbox().state.read().access).find(
      ([, t]) => t.provider === 'google' && t.account === ACCOUNT && (t.expiresAt ?? 0) > Date.now(),
    )![0];
    const res = await fetch(`${sandbox().url}/google/v4/spreadsheets/${sheetId}/values/A1:append?valueInputOption=USER_ENTERED`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ values: [[name, '12.50', "'=1+1"]] }),
    });
    expect(res.status).toBe(200);
    expect(sheetOf(sheetId).kinds![2]).toEqual(['f', 'n', 's']);
    expect(sheetOf(sheetId).rows[2]).toEqual([name, '12.5', '=1+1']);
  });
});
