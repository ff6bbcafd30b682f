import nodemailer from 'nodemailer';
import type { Page } from 'playwright-core';
import path from 'node:path';
import { ARTIFACTS, callApi, createVerifiedUser, freePort, logInThroughUi, startE2EApp, type E2EApp } from './support/app';
import { renderInvoicePdf, type GeneratedInvoice } from '../support/invoices/render';

jest.setTimeout(300_000);

/**
 * Issue 11 in Debian's Chromium with the sandbox providers (nothing to sign up for): combination 1
 * (Google Drive invoices → Flowmatic AI → Google Sheets) connected in the widget of the setup
 * screen's Connections tab, started, fed a generated invoice PDF dropped into its Drive folder,
 * run by the Drive trigger to a row in the sheet; its card turns Connected with 'Use Now' and the
 * home counter moves by 2. Then combination 9 as seeded (e-mail trigger → Xero): Xero connected
 * in the 'Setup Connections for Workflows' modal, an invoice e-mailed to the recipe becomes a
 * draft bill in the sandbox Xero.
 */
async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('connections: combination 1 and combination 9 end to end with the sandbox providers', () => {
  let app: E2EApp;
  let smtpPort: number;
  let invoice: GeneratedInvoice;
  /** the sandbox providers' address, learnt from the consent page the popup opens */
  let sandboxUrl = '';
  const email = `grace.${Date.now()}@example.com`;
  const googleAccount = 'grace.drive@example.com';
  const xeroOrg = 'Hopper Trading Ltd';

  beforeAll(async () => {
    smtpPort = await freePort();
    invoice = await renderInvoicePdf({ seed: 21, layout: 'classic', font: 'helvetica' });
    app = await startE2EApp({ SANDBOX_PROVIDERS: 'true', DRIVE_POLL_INTERVAL_MS: '2000', INBOUND_SMTP_PORT: String(smtpPort) });
    await createVerifiedUser(app, { name: 'Grace Hopper', email, password: 'compiler-A0-1952' });
    await logInThroughUi(app, email, 'compiler-A0-1952');
  });
  afterAll(() => app?.close());

  const apiGet = <T>(path: string): Promise<T> => callApi<T>(app, 'GET', path);
  const workatoId = () => app.page.evaluate(() => Number(localStorage.getItem('workatoId')));
  const recordOf = async (combination: number) =>
    (
      await apiGet<{ workato_recipes: Array<{ recipe_id: number; combination: number; status: string }> }>(
        `/api/platform/userByWorkatoRecipe/${await workatoId()}/`,
      )
    ).workato_recipes.find((r) => r.combination === combination)!;

  async function activeConnections(): Promise<number> {
    const { page } = app;
    await page.goto('/home');
    const counter = page.getByRole('group', { name: 'Active Connections' });
    await until('the counter to load', async () => /\d/.test((await counter.textContent()) ?? ''), 30_000);
    return Number(/(\d+)/.exec((await counter.textContent()) ?? '')![1]);
  }

  /** Presses Connect in an embedded widget and answers the sandbox consent page in the popup. */
  async function connectIn(frameTitle: string, account: string): Promise<void> {
    const { page } = app;
    const frame = page.frameLocator(`iframe[title="${frameTitle}"]`);
    const [popup] = await Promise.all([page.waitForEvent('popup'), frame.getByRole('button', { name: 'Connect' }).click()]);
    await popup.waitForLoadState();
    sandboxUrl = new URL(popup.url()).origin;
    await popup.getByLabel(/Account|Organisation/).fill(account);
    const reloaded = page.waitForEvent('framenavigated', { predicate: (f) => f === page.mainFrame(), timeout: 30_000 });
    reloaded.catch(() => undefined);
    await Promise.all([popup.waitForEvent('close', { timeout: 30_000 }), popup.getByRole('button', { name: 'Allow' }).click()]);
    // the widget shows the account; or, when this connection authorises the combination, the
    // screen reads the connections at once, sends the setup call and reloads (spec section 4)
    await Promise.race([frame.getByTestId('connection-status').getByText(`as ${account}`).waitFor({ timeout: 30_000 }), reloaded]);
    await until(
      `the ${frameTitle} to be connected`,
      async () => {
        const provider = frameTitle
          .replace(/ connection$/, '')
          .toLowerCase()
          .replace(/ /g, '_');
        const list = await apiGet<{ result?: Array<{ provider: string; authorization_status: string | null }> }>(
          `/api/platform/proxy?url=api/managed_users/${await workatoId()}/connections`,
        );
        return (list.result ?? []).some((c) => c.provider === provider && c.authorization_status === 'success');
      },
      30_000,
    );
  }

  async function sandboxPage(): Promise<Page> {
    const page = await app.context.newPage();
    await page.goto(sandboxUrl);
    return page;
  }

  it('combination 1: connect Drive and Sheets in the Connections tab, start, a file in the folder becomes a row', async () => {
    const { page } = app;
    expect(await activeConnections()).toBe(0);
    await page.goto('/solutions/combinations/workflow/1');
    await page.getByText('First, connect your connectors.').waitFor({ timeout: 30_000 });
    await page.getByRole('tab', { name: 'Connections', exact: true }).click();
    const pane = page.getByRole('tabpanel', { name: 'Connections', exact: true });
    await pane.getByRole('tab', { name: 'Google Drive' }).click();
    await connectIn('Google Drive connection', googleAccount);
    await app.screenshot('connections-drive-connected');

    // Drive is enough to authorise combination 1: the screen sees it (its 10 s poll), sends the
    // setup call (the starter recipe makes the folder named after the combination) and reloads;
    // nothing starts, and its steps still need Sheets: the screen says so instead of a Start
    await page.getByRole('tab', { name: 'Workflow', exact: true }).click();
    const startOrStop = page.getByRole('button', { name: /^(Start|Stop) Workflow$/ });
    await page
      .getByRole('heading', { name: 'Connect Google Sheets to start' })
      .waitFor({ timeout: 120_000 })
      .catch(async (e) => {
        await app.screenshot('debug-connections-setup');
        const all = await apiGet<any>(`/api/platform/userByWorkatoRecipe/${await workatoId()}/`);
        console.log(JSON.stringify(all.workato_recipes?.filter((r: any) => [0, 1].includes(r.combination))));
        for (const r of all.workato_recipes?.filter((r: any) => [0, 1].includes(r.combination)) ?? [])
          console.log(JSON.stringify(await apiGet<any>(`/api/automation/recipes/${r.recipe_id}/jobs`)));
        throw e;
      });

    // then Google Sheets, for the step that writes the row
    await page.getByRole('tab', { name: 'Connections', exact: true }).click();
    await pane.getByRole('tab', { name: 'Google Sheets' }).click();
    await connectIn('Google Sheets connection', googleAccount);
    // the widget tells the screen, which reads the connections again at once: no reload needed
    await page.getByRole('tab', { name: 'Workflow', exact: true }).click();
    const nav = page.getByRole('navigation', { name: 'Workflow steps' });
    await nav
      .getByRole('button', { name: /Google Sheets/ })
      .getByText('connected', { exact: true })
      .waitFor({ timeout: 60_000 });
    await startOrStop.click();
    await page.getByRole('button', { name: 'Stop Workflow' }).waitFor({ timeout: 30_000 });

    // the trigger's detail: the folder named after the combination, watched
    await nav.getByRole('button', { name: /New file in a Google Drive folder/ }).click();
    await page.getByTestId('target-folder').getByText('Google Drive Invoices to Google Sheets').waitFor({ timeout: 30_000 });
    await page
      .getByTestId('trigger-state')
      .getByText(/^Watching for new files every 2 s/)
      .waitFor({ timeout: 30_000 });
    await app.screenshot('connections-combination-1-running');

    // a generated invoice lands in the watched folder through the sandbox's drop API
    const rec = await recordOf(1);
    let targets = await apiGet<{ folder: { id: string }; sheet: { id: string } }>(`/api/plugins/connectors/recipes/${rec.recipe_id}/targets`);
    const drop = await fetch(
      `${sandboxUrl}/sandbox/drop?${new URLSearchParams({ account: googleAccount, folder: targets.folder.id, name: 'hopper-invoice.pdf', type: 'application/pdf' })}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: Buffer.from(invoice.pdf),
      },
    );
    expect(drop.status).toBe(200);

    // the job runs (download → invoice extractor → Sheets)
    await until(
      'the job to succeed',
      async () => {
        const list = await apiGet<{ jobs: Array<{ status: string; trigger_summary: string }> }>(`/api/automation/recipes/${rec.recipe_id}/jobs`);
        const job = list.jobs.find((j) => j.trigger_summary.includes('hopper-invoice.pdf'));
        if (job?.status === 'failed') throw new Error(`the job failed: ${JSON.stringify(job)}`);
        return job?.status === 'succeeded';
      },
      120_000,
    );
    await page.reload();
    await page.getByRole('tab', { name: 'jobs' }).click();
    const jobs = page.getByRole('list', { name: 'Jobs' });
    await jobs
      .getByText(/New file "hopper-invoice\.pdf" in Google Drive/)
      .first()
      .waitFor({ timeout: 30_000 });
    await jobs.getByText('Succeeded').first().waitFor({ timeout: 30_000 });
    await app.screenshot('connections-combination-1-job');

    // the sheet has the header and the invoice's row (read the targets again: when Sheets was
    // connected after the setup run, the trigger made the sheet at its first poll)
    targets = await apiGet<{ folder: { id: string }; sheet: { id: string } }>(`/api/plugins/connectors/recipes/${rec.recipe_id}/targets`);
    const sandbox = await sandboxPage();
    const sheet = sandbox.locator(`#sheet-${targets.sheet.id} + table`);
    await sheet.getByText('hopper-invoice.pdf').waitFor();
    expect(await sheet.textContent()).toContain(String(invoice.truth.invoice_number));
    await sandbox.screenshot({ path: path.join(ARTIFACTS, 'connections-sandbox-sheet.png'), fullPage: true });
    await sandbox.close();

    // the card: Connected, 'Use Now'; the home counter moved by 2
    await page.goto('/solutions/combinations/10004');
    const card = page.locator('[data-combination-id="1"]');
    await card.getByText('Connected').waitFor({ timeout: 30_000 });
    await card.getByText('Use Now').waitFor();
    await app.screenshot('connections-combination-1-card');
    expect(await activeConnections()).toBe(2);
    await app.screenshot('connections-home-counters');
  });

  it('combination 9 as seeded: Xero connected in the modal, an e-mailed invoice becomes a draft bill in Xero', async () => {
    const { page } = app;
    await page.goto('/solutions/combinations/workflow/9');
    await page.getByRole('heading', { name: 'Connect Source' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Setup Connections for Workflows' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Setup Connections for Workflows' });
    await dialog.getByRole('tab', { name: 'Xero' }).click();
    await connectIn('Xero connection', xeroOrg);
    await app.screenshot('connections-xero-modal');
    // connecting Xero authorised combination 9, so the screen may have reloaded (closing the modal)
    if (await dialog.isVisible()) {
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'detached' });
    }

    const startOrStop = page.getByRole('button', { name: /^(Start|Stop) Workflow$/ });
    await startOrStop.waitFor({ timeout: 90_000 });
    if ((await startOrStop.textContent())?.includes('Start')) await startOrStop.click();
    await page.getByRole('button', { name: 'Stop Workflow' }).waitFor({ timeout: 30_000 });

    const rec = await recordOf(9);
    // the recipe's secret address, as the setup screen shows it
    const { recipe } = await apiGet<{ recipe: { inbound_email: string } }>(`/api/automation/recipes/${rec.recipe_id}`);
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });
    await transport.sendMail({
      from: 'supplier@example.com',
      to: recipe.inbound_email,
      subject: `Invoice ${invoice.truth.invoice_number}`,
      text: 'Please find our invoice attached.',
      attachments: [{ filename: 'supplier-invoice.pdf', content: Buffer.from(invoice.pdf), contentType: 'application/pdf' }],
    });
    transport.close();
    await until(
      'the job to succeed',
      async () => {
        const list = await apiGet<{ jobs: Array<{ status: string; error: string | null }> }>(`/api/automation/recipes/${rec.recipe_id}/jobs`);
        if (list.jobs[0]?.status === 'failed') throw new Error(`the job failed: ${list.jobs[0].error}`);
        return list.jobs[0]?.status === 'succeeded';
      },
      120_000,
    );
    const sandbox = await sandboxPage();
    const bills = sandbox.locator(`section:has(h2:text-is("${xeroOrg}")) h3:has-text("Xero bills") + table`);
    await bills.getByText('ACCPAY').waitFor();
    const text = (await bills.textContent()) ?? '';
    expect(text).toContain('DRAFT');
    expect(text).toContain(String(invoice.truth.vendor_name));
    expect(text).toContain(String(invoice.truth.invoice_number));
    await sandbox.screenshot({ path: path.join(ARTIFACTS, 'connections-sandbox-xero-bill.png'), fullPage: true });
    await sandbox.close();
    expect(await activeConnections()).toBe(3);
  });
});
