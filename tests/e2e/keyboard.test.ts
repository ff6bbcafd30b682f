import { createVerifiedUser, startE2EApp, type E2EApp } from './support/app';

jest.setTimeout(120_000);

/** The first journey by keyboard alone: no mouse, as a keyboard or screen-reader user would. */
describe('keyboard only', () => {
  let app: E2EApp;
  beforeAll(async () => {
    app = await startE2EApp();
    await createVerifiedUser(app, { name: 'Keyla Board', email: 'keys@example.com', password: 'typing-Only-42' });
  });
  afterAll(() => app?.close());

  it('logs in with Tab and Enter, then reaches Solutions and a solution from the navigation', async () => {
    const { page } = app;
    await page.goto('/login');
    await page.getByLabel('Email').waitFor();
    // the e-mail field has the focus when the page opens
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('email');
    await page.keyboard.type('keys@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('typing-Only-42');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/home');
    await page.getByText('Welcome Keyla Board').waitFor();
    await page.getByRole('button', { name: 'Recommended Combinations' }).waitFor();

    // Tab until the Solutions link of the navigation has the focus, then Enter
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      const text = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
      if (text === 'Solutions') break;
    }
    await page.keyboard.press('Enter');
    await page.waitForURL('**/solutions');
    await page.getByRole('heading', { name: 'Finance' }).waitFor();
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('Tab');
      const href = await page.evaluate(() => (document.activeElement as HTMLAnchorElement | null)?.getAttribute('href') ?? '');
      if (href === '/solution/1') break;
    }
    await page.keyboard.press('Enter');
    await page.waitForURL('**/solution/1');
    await page.getByText('Invoice Data Extraction', { exact: true }).first().waitFor();
  });

  it('gives each earlier breadcrumb one tab stop, a link (no button nested in a link)', async () => {
    const { page } = app;
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await crumbs.getByRole('link', { name: 'Solutions' }).waitFor();
    expect(await crumbs.locator('a button, button a').count()).toBe(0);
    await crumbs.getByRole('link', { name: 'Solutions' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL('**/solutions');
    expect(await crumbs.innerText()).not.toContain('Finance');
  });
});
