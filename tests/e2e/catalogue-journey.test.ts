import { createVerifiedUser, logInThroughUi, startE2EApp, type E2EApp } from './support/app';
import { seriousAxeFindings } from './support/axe';

jest.setTimeout(180_000);

/**
 * Issue 3's journey in Debian's Chromium: a logged-in user browses Solutions → Finance → a
 * workflow → its combinations, votes on a coming-soon card and sees the vote persist after a
 * reload, searches workflows, and opens an unknown workflow id and an unknown route.
 */
describe('a logged-in user browses the catalogue and votes', () => {
  let app: E2EApp;
  const email = `grace.${Date.now()}@example.com`;
  beforeAll(async () => {
    app = await startE2EApp();
    await createVerifiedUser(app, { name: 'Grace Hopper', email, password: 'cobol-Rules-1959' });
    await logInThroughUi(app, email, 'cobol-Rules-1959');
  });
  afterAll(() => app?.close());

  it('shows the home dashboard with its counters and lists', async () => {
    const { page } = app;
    await page.getByText('Welcome Grace Hopper').waitFor();
    await page.getByText('Your new home page', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Recommended Combinations' }).waitFor();
    await page.getByRole('button', { name: 'Active Combinations' }).waitFor();
    await page.getByText('Combinations Available', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Google Drive Invoices to Google Sheets' }).first().waitFor();
    await app.screenshot('home-dashboard');
  });

  it('browses Solutions → Finance → Invoice Data Extraction → its combinations', async () => {
    const { page } = app;
    await page
      .getByRole('link', { name: /Solutions/ })
      .first()
      .click();
    await page.waitForURL('**/solutions');
    await page.getByText('Finance', { exact: true }).first().waitFor();
    await page.getByText('Customer Experience', { exact: true }).first().waitFor();
    await app.screenshot('solutions');
    await page
      .getByRole('link', { name: /Finance/ })
      .first()
      .click();
    await page.waitForURL('**/solution/1');
    await page.getByText('Invoice Data Extraction', { exact: true }).first().waitFor();
    await page
      .getByRole('link', { name: /Invoice Data Extraction/ })
      .first()
      .click();
    await page.waitForURL('**/solutions/combinations/10004');
    await page.getByRole('heading', { name: 'Google Drive Invoices to Google Sheets' }).waitFor();
    // '(basic)' is removed from the displayed name
    await page.locator('[data-combination-id="2"]').getByRole('heading', { name: 'Invoice Data Extraction', exact: true }).waitFor();
    expect(await page.getByText('(basic)').count()).toBe(0);
    // the breadcrumb trail followed the way here
    const crumbs = await page.getByRole('navigation', { name: 'Breadcrumb' }).innerText();
    expect(crumbs).toMatch(/Home[\s\S]*Solutions[\s\S]*Finance[\s\S]*Invoice Data Extraction/);
    await app.screenshot('combinations-10004');
  });

  it("reaches a workflow's own page from its card: 'Open' beside the card's link to its combinations", async () => {
    const { page } = app;
    await page.goto('/solution/1');
    const open = page.getByRole('link', { name: 'Open Invoice Data Extraction' });
    await open.waitFor();
    // the card itself still leads to the combinations; 'Open' leads to the workflow page
    expect(await page.locator('a[data-workflow-id="10004"]').getAttribute('href')).toBe('/solutions/combinations/10004');
    await open.click();
    await page.waitForURL('**/workflow/10004');
    await page.getByRole('heading', { name: 'Invoice Data Extraction' }).first().waitFor();
    // the plugin's own view, loaded: its upload form
    await page.getByRole('button', { name: 'Upload Invoice' }).waitFor();
    expect(await page.getByText('Sorry, no content available').count()).toBe(0);
    await app.screenshot('workflow-from-card');
    // axe finds nothing serious on the cards with their 'Open' links and on the page reached, at 320 and 1366 px
    for (const width of [320, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/solution/1');
      await page.getByRole('link', { name: 'Open Invoice Data Extraction' }).waitFor();
      expect({ page: 'solution', width, findings: await seriousAxeFindings(page) }).toEqual({ page: 'solution', width, findings: [] });
      await page.goto('/workflow/10004');
      await page.getByRole('button', { name: 'Upload Invoice' }).waitFor();
      expect({ page: 'workflow', width, findings: await seriousAxeFindings(page) }).toEqual({ page: 'workflow', width, findings: [] });
    }
  });

  it('votes on a coming-soon combination and the vote survives a reload', async () => {
    const { page } = app;
    await page.goto('/solutions/combinations/10005');
    const vote = page.getByRole('button', { name: 'Vote to get this combination sooner' }).first();
    await vote.waitFor();
    const card = page.locator('[data-combination-id]').filter({ has: vote }).first();
    const id = await card.getAttribute('data-combination-id');
    const likes = async () => Number((await page.locator(`[data-combination-id="${id}"] [data-testid="likes"]`).innerText()).replace(/\D+/g, ''));
    const before = await likes();
    await vote.click();
    await page.locator(`[data-combination-id="${id}"]`).getByText('Thanks for your vote').waitFor();
    expect(await likes()).toBe(before + 1);
    await page.reload();
    await page.locator(`[data-combination-id="${id}"]`).getByText('Thanks for your vote').waitFor();
    expect(await likes()).toBe(before + 1);
    expect(await page.locator(`[data-combination-id="${id}"]`).getByRole('button', { name: 'Vote to get this combination sooner' }).count()).toBe(0);
  });

  it('searches the workflows of a solution', async () => {
    const { page } = app;
    await page.goto('/solution/1');
    const search = page
      .getByRole('searchbox')
      .or(page.getByPlaceholder(/search/i))
      .first();
    await search.fill('recon');
    await page.getByText('Invoice Reconciliation', { exact: true }).first().waitFor();
    await page.waitForFunction(() => !document.body.innerText.includes('Financial Analysis'));
    await search.fill('zzzz');
    await page.getByText('Sorry nothing matched your search').waitFor();
    await search.fill('');
    await page.getByText('Financial Analysis', { exact: true }).first().waitFor();
  });

  it("opens an unknown workflow id: 'Oops, nothing found here sorry.'", async () => {
    await app.page.goto('/workflow/999999');
    await app.page.getByText('Oops, nothing found here sorry.').waitFor();
  });

  it('opens an unknown route: the 404 page with Back to Home', async () => {
    const { page } = app;
    await page.goto('/this/does/not/exist');
    await page.getByText('Page not found').waitFor();
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL('**/solutions');
  });
});
