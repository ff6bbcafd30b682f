import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { renderInvoicePdf } from '../support/invoices/render';
import { until } from '../server/automation/support';
import { callApi, createVerifiedUser, logInThroughUi, startE2EApp, type E2EApp } from './support/app';

jest.setTimeout(240_000);

const INV = 'Invoice Number,PO Number,Vendor,Qty,Unit Price,Total\nI-1,PO-1,Acme Ltd,12,2.50,30.00\n';
const PO = 'PO Number,Vendor,Qty,Unit Price,Total\nPO-1,Acme Ltd,10,2.50,25.00\n';
const STATEMENT = [
  'Line item,FY2024,FY2023',
  'Revenue,"1,200,000","1,000,000"',
  'Net income,120000,90000',
  'Total current assets,450000,400000',
  'Total current liabilities,300000,250000',
].join('\n');

/**
 * Every 'Run Workflow' button in Debian's Chromium shows what really happened (issue 19): a
 * stopped recipe says so and offers Start (nothing ran, no success), a Start the engine refuses
 * names the missing connection, and a run is followed on the page to its job's real end — the
 * same status the jobs API reports.
 */
describe('Run Workflow shows the real outcome', () => {
  let app: E2EApp;
  const email = `run.${Date.now()}@example.com`;
  const dir = mkdtempSync(path.join(tmpdir(), 'flowmatic-e2e-run-'));
  const write = (name: string, content: string | Uint8Array) => {
    const file = path.join(dir, name);
    writeFileSync(file, content);
    return file;
  };

  beforeAll(async () => {
    app = await startE2EApp({ INBOUND_SMTP_PORT: '0' });
    await createVerifiedUser(app, { name: 'Run Tester', email, password: 'honest-Buttons-2026' });
    await logInThroughUi(app, email, 'honest-Buttons-2026');
    // the harness sets PUBLIC_URL only after listening: aim the webhook addresses at the real server
    const T = await import('../../src/server/tokens');
    const db = app.server.container.get<import('../../src/server/db/database').Db>(T.Db);
    const { sql } = await import('kysely');
    await sql`update user_recipes set workato_webhook = replace(workato_webhook, 'http://localhost:0', ${app.url})`.execute(db);
  });
  afterAll(() => app?.close());

  const workatoId = () => app.page.evaluate(() => Number(localStorage.getItem('workatoId')));
  const recipeOf = async (combination: number) => {
    const { workato_recipes } = await callApi<{ workato_recipes: Array<{ recipe_id: number; combination: number }> }>(
      app,
      'GET',
      `/api/platform/userByWorkatoRecipe/${await workatoId()}/`,
    );
    return workato_recipes.find((r) => r.combination === combination)!.recipe_id;
  };
  const jobsOf = async (combination: number) =>
    (
      await callApi<{ jobs: Array<{ id: string; status: string; error: string | null }> }>(
        app,
        'GET',
        `/api/automation/recipes/${await recipeOf(combination)}/jobs`,
      )
    ).jobs;
  const running = async (combination: number) =>
    (await callApi<{ recipe: { running: boolean } }>(app, 'GET', `/api/automation/recipes/${await recipeOf(combination)}`)).recipe.running;

  /**
   * After a Run Workflow press on a stopped recipe: the page says so and nothing ran; 'Start
   * Workflow and run' starts it and runs again; the page's end is the one job's real status.
   */
  async function startFromStoppedAndRun(combination: number, shot: string): Promise<void> {
    const result = app.page.getByTestId('run-result');
    await result.getByText('Workflow Stopped').waitFor();
    expect(await jobsOf(combination)).toEqual([]);
    await result.getByRole('button', { name: 'Start Workflow and run' }).click();
    const shown = await endShown();
    await app.screenshot(shot);
    const jobs = await jobsOf(combination);
    expect(jobs).toHaveLength(1);
    expect(jobs[0].status).toBe(shown);
    expect(await running(combination)).toBe(true);
  }

  /** Waits for the run's end on the page; returns which one it showed. */
  async function endShown(): Promise<'succeeded' | 'failed'> {
    const result = app.page.getByTestId('run-result');
    await result.getByText(/^The workflow ran( and failed)?$/).waitFor({ timeout: 90_000 });
    return (await result.getByText('The workflow ran and failed').count()) ? 'failed' : 'succeeded';
  }

  it('10004 with combination 8 (its steps write to Google Sheets, not connected): stopped, and Start names the missing connection; no job', async () => {
    const { page } = app;
    const invoice = await renderInvoicePdf({ seed: 31, layout: 'classic', font: 'helvetica' });
    await page.goto('/workflow/10004?combination=8');
    await page.getByLabel('Invoice file').setInputFiles(write('inv-8.pdf', invoice.pdf));
    await page.getByRole('button', { name: 'Run Workflow' }).click();
    const result = page.getByTestId('run-result');
    await result.getByText('Workflow Stopped').waitFor();
    expect(await page.getByText('The invoice was sent to your workflow.').count()).toBe(0);
    await result.getByRole('button', { name: 'Start Workflow and run' }).click();
    await result.getByText('Connect Google Sheets to start this workflow.').waitFor();
    await app.screenshot('run-workflow-10004-not-connected');
    expect(await running(8)).toBe(false);
    expect(await jobsOf(8)).toEqual([]);
  });

  it("10004 with combination 2 (the basic upload recipe): stopped, Start runs it, and the page shows the job's real end", async () => {
    const { page } = app;
    const invoice = await renderInvoicePdf({ seed: 32, layout: 'classic', font: 'helvetica' });
    await page.goto('/workflow/10004?combination=2');
    await page.getByLabel('Invoice file').setInputFiles(write('inv-2.pdf', invoice.pdf));
    await page.getByRole('button', { name: 'Run Workflow' }).click();
    await startFromStoppedAndRun(2, 'run-workflow-10004-ran');
  });

  it("combination 2's own setup screen: a file through Run now runs the recipe, and the job shows the fields the extraction step produced", async () => {
    const { page } = app;
    const invoice = await renderInvoicePdf({ seed: 33, layout: 'classic', font: 'helvetica' });
    await page.goto('/solutions/combinations/basic-workflow/2');
    const form = page.getByRole('form', { name: 'Run the workflow' });
    await form.getByLabel('File to process').setInputFiles(write('inv-2-setup.pdf', invoice.pdf));
    const before = (await jobsOf(2)).length;
    await form.getByRole('button', { name: 'Run now' }).click();
    await page.waitForURL(/[?&]job=/);
    const jobId = new URL(page.url()).searchParams.get('job')!;
    const steps = page.getByRole('list', { name: 'Steps' });
    await until('the uploaded job to end', async () => ['succeeded', 'failed'].includes((await jobsOf(2)).find((j) => j.id === jobId)?.status ?? ''), 90_000);
    await steps.getByText('Succeeded', { exact: true }).nth(1).waitFor({ timeout: 30_000 });
    await app.screenshot('run-workflow-2-setup-upload');
    const jobs = await jobsOf(2);
    expect(jobs).toHaveLength(before + 1);
    expect(jobs.find((j) => j.id === jobId)?.status).toBe('succeeded');
    const detail = await callApi<{
      steps: Array<{
        index: number;
        output_details: Array<{ title: string; items: Array<{ label: string; value: string; state?: string }> }> | null;
        output: Record<string, any>;
      }>;
    }>(app, 'GET', `/api/automation/jobs/${jobId}`);
    // the extraction step read every field of the generated invoice right
    const truth = Object.fromEntries(Object.entries(invoice.truth).filter(([, v]) => v !== undefined));
    expect(detail.steps[1].output.fields).toEqual(truth);
    expect(detail.steps[1].output.warnings).toEqual([]);
    // and the job view on the setup screen shows each of them, label by label, as the jobs API has them
    const shown = await steps.evaluate((ol) =>
      Array.from(ol.querySelectorAll('dt')).map((dt) => [dt.textContent ?? '', dt.nextElementSibling?.textContent ?? '']),
    );
    const expected = detail.steps.flatMap((st) => (st.output_details ?? []).flatMap((g) => g.items.map((i) => [i.label, i.value])));
    expect(shown).toEqual(expected);
    expect(shown).toEqual(
      expect.arrayContaining([
        ['File', `inv-2-setup.pdf (${invoice.pdf.length.toLocaleString('en-GB')} bytes)`],
        ['Invoice number', String(truth.invoice_number)],
        ['Vendor name', String(truth.vendor_name)],
        ['Total', String(truth.total)],
        ['Currency', String(truth.currency)],
      ]),
    );
  });

  it('10 (reconciliation): stopped says so, Start runs it, the page shows the job that ran', async () => {
    const { page } = app;
    await page.goto('/solutions/combinations/workflow/10');
    await page.getByLabel('Invoice file (.csv)').setInputFiles(write('invoices.csv', INV));
    await page.getByLabel('Purchase-order file (.csv)').setInputFiles(write('orders.csv', PO));
    await page.getByRole('combobox', { name: /Invoice key column/ }).selectOption('PO Number');
    await page.getByRole('combobox', { name: /Purchase-order key column/ }).selectOption('PO Number');
    await page.getByRole('button', { name: 'Save config' }).click();
    await page.getByText('Config Saved').waitFor();
    await page.getByRole('button', { name: 'Run Workflow' }).click();
    await page.getByTestId('run-result').getByText('Workflow Stopped').waitFor();
    await app.screenshot('run-workflow-10-stopped');
    await startFromStoppedAndRun(10, 'run-workflow-10-ran');

    // the run's whole result, kept as a workbook, downloads from the page (45fb036)
    const [job] = await jobsOf(10);
    expect(job.status).toBe('succeeded');
    const detail = await callApi<{ steps: Array<{ index: number; output: Record<string, any> }> }>(app, 'GET', `/api/automation/jobs/${job.id}`);
    const out = detail.steps.find((st) => st.output && st.output.result_file)!.output;
    expect(out.result_file).toMatchObject({ bucket: 'automation', name: 'reconciliation-invoices.xlsx', kind: 'xlsx' });
    // below the result bar
    const button = page.getByRole('button', { name: 'Download reconciliation-invoices.xlsx' });
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toBe('reconciliation-invoices.xlsx');
    const file = await download.path();
    const bytes = readFileSync(file);
    expect(bytes.length).toBe(out.result_file.size);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as any);
    expect(book.worksheets.map((w) => w.name)).toEqual(['Summary', 'Discrepancies', 'Unmatched', 'E-mails']);
    const rows = (name: string) =>
      book
        .getWorksheet(name)!
        .getSheetValues()
        .slice(1)
        .map((r) => Array.from((r as unknown[]).slice(1), (c) => (c === undefined || c === null ? '' : String(c))));
    // 12 invoiced against 10 ordered at 2.50: quantity +2 and total +5, each a row with every cell
    const head = ['Kind', 'Key', 'Field', 'Vendor', 'Description', 'Invoice row', 'PO row', 'Invoice value', 'PO value', 'Expected value', 'Delta', 'Message'];
    expect(rows('Discrepancies')).toEqual([
      head,
      ['quantity', 'PO-1', 'quantity', 'Acme Ltd', '', '2', '2', '12', '10', '', '2', 'PO-1: invoiced quantity 12 differs from the ordered 10 by +2.'],
      ['total', 'PO-1', 'total', 'Acme Ltd', '', '2', '2', '30', '25', '', '5', 'PO-1: invoiced total 30 differs from the ordered 25 by +5.'],
    ]);
    expect(rows('Unmatched')).toEqual([['Side', 'Key', 'Row', 'Vendor', 'Description', 'Quantity', 'Unit price', 'Total', 'Reason']]);
    expect([out.discrepancy_count, out.unmatched_count]).toEqual([2, 0]);
    await app.screenshot('run-workflow-10-download');
  });

  it('11 (financial analysis): stopped says so, Start runs it, the page shows the job that ran', async () => {
    const { page } = app;
    await page.goto('/solutions/combinations/workflow/11');
    await page.getByRole('combobox', { name: /Focus area/ }).selectOption({ label: 'Cash-flow management' });
    await page.getByLabel('Financial statement', { exact: true }).setInputFiles(write('accounts.csv', STATEMENT));
    await page.getByRole('button', { name: 'Save config' }).click();
    await page.getByText('Config Saved').waitFor();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await startFromStoppedAndRun(11, 'run-workflow-11-ran');
  });
});
