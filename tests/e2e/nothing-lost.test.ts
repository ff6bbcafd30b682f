import net from 'node:net';
import { callApi, createVerifiedUser, logInThroughUi, startE2EApp, type E2EApp } from './support/app';
import { until as waitUntil } from '../server/automation/support';

jest.setTimeout(300_000);

/**
 * Issue 19 in Debian's Chromium with the sandbox providers: files put in combination 1's watched
 * folder while it is stopped are neither run unasked nor lost. On Start the setup screen says
 * "2 files arrived while stopped" with their names; 'Process them' runs one job each. A file put
 * in the folder setup made, before the first Start, is offered the same way ("1 file is already
 * in the folder") and 'Skip' runs nothing. And a
 * trigger that cannot listen (the inbound mail port taken) reads 'Not working' on combination
 * 8's tiles instead of 'connected', and on the monitoring tab of its workflow, with the reason.
 */
const until = (what: string, check: () => Promise<boolean>, timeoutMs: number) => waitUntil(what, check, timeoutMs);

interface Job {
  status: string;
  trigger_summary: string;
}

describe('files that arrive while stopped, and a trigger that cannot listen', () => {
  let app: E2EApp;
  let blocker: net.Server;
  let sandboxUrl = '';
  const email = `ada.${Date.now()}@example.com`;
  const googleAccount = 'ada.drive@example.com';

  beforeAll(async () => {
    // the port the inbound mail listener wants is taken: the e-mail trigger cannot listen
    blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as net.AddressInfo).port;
    app = await startE2EApp({ SANDBOX_PROVIDERS: 'true', DRIVE_POLL_INTERVAL_MS: '1000', INBOUND_SMTP_PORT: String(port) });
    await createVerifiedUser(app, { name: 'Ada Lovelace', email, password: 'analytical-Engine-1843' });
    await logInThroughUi(app, email, 'analytical-Engine-1843');
  });
  afterAll(async () => {
    await app?.close();
    await new Promise((r) => blocker?.close(r));
  });

  /** A call from the page; the screen may reload itself meanwhile (the setup call after a connection): tried again then. */
  const apiGet = async <T>(path: string): Promise<T> => {
    for (let i = 0; ; i++) {
      try {
        return await callApi<T>(app, 'GET', path);
      } catch (e) {
        if (i >= 20 || !/Execution context was destroyed|navigation/i.test(String(e))) throw e;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };
  let managedUserId = 0;
  const workatoId = async (): Promise<number> => {
    // the page may be reloading itself (the setup call after a connection): read again then
    for (let i = 0; !managedUserId; i++) {
      try {
        return (managedUserId = await app.page.evaluate(() => Number(localStorage.getItem('workatoId'))));
      } catch (e) {
        if (i >= 20 || !/Execution context was destroyed|navigation/i.test(String(e))) throw e;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    return managedUserId;
  };
  const recipeIdOf = async (combination: number) =>
    (
      await apiGet<{ workato_recipes: Array<{ recipe_id: number; combination: number }> }>(`/api/platform/userByWorkatoRecipe/${await workatoId()}/`)
    ).workato_recipes.find((r) => r.combination === combination)!.recipe_id;
  const jobsOf = async (recipeId: number) => (await apiGet<{ jobs: Job[] }>(`/api/automation/recipes/${recipeId}/jobs`)).jobs;

  /** Connect in the Connections tab's widget: the sandbox consent page in the popup, as a user answers it. */
  async function connect(product: string): Promise<void> {
    const { page } = app;
    await page.getByRole('tab', { name: 'Connections', exact: true }).click();
    await page.getByRole('tabpanel', { name: 'Connections', exact: true }).getByRole('tab', { name: product }).click();
    const frame = page.frameLocator(`iframe[title="${product} connection"]`);
    const [popup] = await Promise.all([page.waitForEvent('popup'), frame.getByRole('button', { name: 'Connect' }).click()]);
    await popup.waitForLoadState();
    sandboxUrl = new URL(popup.url()).origin;
    await popup.getByLabel('Account').fill(googleAccount);
    await Promise.all([popup.waitForEvent('close', { timeout: 30_000 }), popup.getByRole('button', { name: 'Allow' }).click()]);
    const provider = product.toLowerCase().replace(/ /g, '_');
    await until(
      `${product} to be connected`,
      async () => {
        const list = await apiGet<{ result?: Array<{ provider: string; authorization_status: string | null }> }>(
          `/api/platform/proxy?url=api/managed_users/${await workatoId()}/connections`,
        );
        return (list.result ?? []).some((c) => c.provider === provider && c.authorization_status === 'success');
      },
      30_000,
    );
  }

  async function dropIn(folder: string, name: string): Promise<void> {
    const res = await fetch(`${sandboxUrl}/sandbox/drop?${new URLSearchParams({ account: googleAccount, folder, name, type: 'application/pdf' })}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.from('%PDF-1.4\n%%EOF\n'),
    });
    expect(res.status).toBe(200);
  }

  it('combination 1: a file already in the folder at the first Start is offered and skipped; two files added while stopped wait; on Start the screen names them and Process them runs one job each', async () => {
    const { page } = app;
    await page.goto('/solutions/combinations/workflow/1');
    await page.getByText('First, connect your connectors.').waitFor({ timeout: 30_000 });
    await connect('Google Drive');
    // Drive authorises the combination: the screen sends the setup call and reloads, then names Sheets
    await page.getByRole('tab', { name: 'Workflow', exact: true }).click();
    await page.getByRole('heading', { name: 'Connect Google Sheets to start' }).waitFor({ timeout: 120_000 });
    await connect('Google Sheets');
    await page.getByRole('tab', { name: 'Workflow', exact: true }).click();
    const start = page.getByRole('button', { name: 'Start Workflow' });
    const stop = page.getByRole('button', { name: 'Stop Workflow' });
    await start.waitFor({ timeout: 120_000 });
    const recipeId = await recipeIdOf(1);
    // setup made the folder; an invoice lands in it before the first Start
    let folderId = '';
    await until(
      'the folder setup made',
      async () => !!(folderId = (await apiGet<{ folder: { id: string } | null }>(`/api/plugins/connectors/recipes/${recipeId}/targets`)).folder?.id ?? ''),
      60_000,
    );
    await dropIn(folderId, 'january-invoice.pdf');
    await start.click();
    await stop.waitFor({ timeout: 30_000 });
    await until(
      'the trigger to watch',
      async () => (await apiGet<{ trigger: { watching: boolean } }>(`/api/plugins/connectors/recipes/${recipeId}/targets`)).trigger.watching,
      30_000,
    );
    // the first Start offers it instead of running it; Skip: it never runs
    const already = page.getByTestId('waiting-files');
    await already.getByText('1 file is already in the folder').waitFor({ timeout: 30_000 });
    expect(await already.textContent()).toContain('january-invoice.pdf. Process them now, or skip them for good.');
    await app.screenshot('already-in-folder-on-first-start');
    expect(await jobsOf(recipeId)).toEqual([]);
    await already.getByRole('button', { name: 'Skip' }).click();
    await already.waitFor({ state: 'detached', timeout: 30_000 });
    expect((await apiGet<{ count: number }>(`/api/automation/recipes/${recipeId}/waiting`)).count).toBe(0);

    // stopped: two invoices land in the folder
    await stop.click();
    await start.waitFor({ timeout: 30_000 });
    await page.getByText(/files added to a watched folder wait, and on Start you choose whether to process or skip them/).waitFor();
    await new Promise((r) => setTimeout(r, 1500));
    const { folder } = await apiGet<{ folder: { id: string } }>(`/api/plugins/connectors/recipes/${recipeId}/targets`);
    await dropIn(folder.id, 'march-invoice.pdf');
    await new Promise((r) => setTimeout(r, 50));
    await dropIn(folder.id, 'april-invoice.pdf');
    await new Promise((r) => setTimeout(r, 3000));
    expect(await jobsOf(recipeId)).toEqual([]);
    expect(await page.getByTestId('waiting-files').count()).toBe(0);

    // Start: the screen asks; nothing has run
    await start.click();
    const bar = page.getByTestId('waiting-files');
    await bar.getByText('2 files arrived while stopped').waitFor({ timeout: 30_000 });
    expect(await bar.textContent()).toContain('march-invoice.pdf, april-invoice.pdf. Process them now, or skip them for good.');
    await app.screenshot('waiting-files-on-start');
    expect(await jobsOf(recipeId)).toEqual([]);

    // Process them: one job each, and the question is gone
    await bar.getByRole('button', { name: 'Process them' }).click();
    await bar.waitFor({ state: 'detached', timeout: 30_000 });
    await until('two jobs', async () => (await jobsOf(recipeId)).length === 2, 30_000);
    const summaries = (await jobsOf(recipeId)).map((j) => j.trigger_summary).sort();
    expect(summaries).toEqual([
      expect.stringMatching(/^New file "april-invoice\.pdf" in Google Drive/),
      expect.stringMatching(/^New file "march-invoice\.pdf" in Google Drive/),
    ]);
    await page.getByRole('tab', { name: 'jobs' }).click();
    await page
      .getByRole('list', { name: 'Jobs' })
      .getByText(/New file "march-invoice\.pdf" in Google Drive/)
      .first()
      .waitFor({ timeout: 30_000 });
    expect((await apiGet<{ count: number }>(`/api/automation/recipes/${recipeId}/waiting`)).count).toBe(0);
  });

  it("combination 8 with the mail port taken: its e-mail tiles read Not working, and so does its workflow's monitoring tab", async () => {
    const { page } = app;
    await page.goto('/solutions/combinations/workflow/8');
    const nav = page.getByRole('navigation', { name: 'Workflow steps' });
    await nav
      .getByRole('button', { name: /New e-mail with attachments/ })
      .getByText('Not working', { exact: true })
      .waitFor({ timeout: 60_000 });
    await nav
      .getByRole('button', { name: /^Email/ })
      .getByText('Not working', { exact: true })
      .waitFor();
    expect(await nav.getByRole('button', { name: /Google Sheets/ }).textContent()).toBe('Google Sheetsconnected');
    const message = page.getByTestId('trigger-health');
    expect(await message.textContent()).toMatch(/^The trigger is not working: The server cannot receive e-mail: /);
    await app.screenshot('trigger-not-working-tiles');

    await page.getByRole('button', { name: 'Start Workflow' }).click();
    await page.getByRole('button', { name: 'Stop Workflow' }).waitFor({ timeout: 30_000 });
    const { workflow_id: workflowId } = await apiGet<{ workflow_id: number }>('/api/platform/combination/8/');
    await page.goto(`/monitoring/workflow/${workflowId}`);
    const list = page.getByTestId('trigger-health-list');
    await list.waitFor({ timeout: 30_000 });
    const item = list.getByRole('listitem').filter({ hasText: 'E-mailed Invoices to Google Sheets' });
    expect(await item.textContent()).toMatch(/^E-mailed Invoices to Google Sheets Not working: The server cannot receive e-mail: /);
    await app.screenshot('trigger-not-working-monitoring');

    // the home dashboard: once the combination has run (an invoice through Run Workflow on 10004),
    // its active card says the same, with the reason
    await page.goto('/workflow/10004?combination=8');
    await page.getByLabel('Invoice file').setInputFiles({ name: 'inv-8.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') });
    await page.getByRole('button', { name: 'Run Workflow' }).click();
    await page
      .getByTestId('run-result')
      .getByText(/^The workflow ran( and failed)?$/)
      .waitFor({ timeout: 90_000 });
    await page.goto('/home');
    const card = page.locator('[data-combination-id="8"]').first();
    const line = card.getByTestId('trigger-not-working');
    await line.waitFor({ timeout: 30_000 });
    const health = await apiGet<{ recipes: Array<{ combination_id: number; working: boolean; reason: string }> }>('/api/automation/trigger-health');
    const eight = health.recipes.find((r) => r.combination_id === 8)!;
    expect(eight.working).toBe(false);
    expect(eight.reason).toMatch(/^The server cannot receive e-mail: /);
    expect(await line.textContent()).toBe(`Not working: ${eight.reason}`);
    expect(await page.locator('[data-testid="trigger-not-working"]').count()).toBe(1);
    await app.screenshot('trigger-not-working-home');
  });
});
