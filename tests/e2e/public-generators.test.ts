import { startE2EApp, type E2EApp } from './support/app';
import { startCompanySite, type CompanySite } from '../server/public-generators/support/company-site';

// Jest cannot load linkedom's ESM dependencies on Node 20 (the server runs in this process).
jest.mock('linkedom', () => jest.requireActual('../server/public-generators/support/native-linkedom').loadLinkedomNatively());

jest.setTimeout(180_000);

/**
 * Issue 14 in Debian's Chromium: /mia writes a press release from a loopback company site (the
 * server started with the test-only loopback allowance), shows it and e-mails it; /hal reads the
 * same site and writes a pitch in Yoda's voice. Screenshots go to tests/artifacts/.
 */
describe('the public generators /mia and /hal', () => {
  let app: E2EApp;
  let site: CompanySite;

  beforeAll(async () => {
    site = await startCompanySite();
    app = await startE2EApp({ NODE_ENV: 'test', WEB_FETCH_ALLOW_LOOPBACK: 'true' });
  });
  afterAll(async () => {
    await app?.close();
    await site?.close();
  });

  /** Nothing is wider than the window: no sideways scroll, and no element of the page sticks out. */
  const noSidewaysScroll = () =>
    app.page.evaluate(
      () =>
        document.documentElement.scrollWidth <= window.innerWidth &&
        Array.from(document.querySelectorAll('main *')).every((el) => el.getBoundingClientRect().right <= window.innerWidth + 0.5),
    );

  it("/mia: 'Please fill out all fields!' on an empty form, nothing sent", async () => {
    const { page } = app;
    await page.goto('/mia');
    await page.getByRole('heading', { name: 'Press release generator', level: 1 }).waitFor();
    let calls = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/platform/send_to_mia')) calls++;
    });
    await page.getByRole('button', { name: 'Write my press release' }).click();
    await page.getByText('Please fill out all fields!', { exact: true }).waitFor();
    expect(calls).toBe(0);
    await app.screenshot('mia-fill-all-fields');
  });

  it('/mia: writes the release from the site, shows title, two versions, logo and two images, and e-mails it', async () => {
    const { page } = app;
    await page.goto('/mia');
    await page.getByLabel('Company name').fill('Brightwater Analytics');
    await page.getByLabel('Email').fill('press@brightwater.example');
    // a slow site (1.5 s), so the loading view is there to see whatever the machine's speed
    await page.getByLabel('Website URL').fill(`${site.origin}/?delay=1500`);
    await page.getByLabel('Product name').fill('LeakFinder');
    await app.screenshot('mia-form');
    await page.getByRole('button', { name: 'Write my press release' }).click();
    await page.getByText('Mia is reading your website and writing your press release…').waitFor({ timeout: 10_000 });
    await app.screenshot('mia-loading');

    const title = page.getByRole('heading', { level: 2, name: /Brightwater Analytics Launches LeakFinder/ });
    await title.waitFor({ timeout: 60_000 });
    await page.getByRole('heading', { name: 'Version 1' }).waitFor();
    await page.getByRole('heading', { name: 'Version 2' }).waitFor();
    await page.getByText(/today announced the launch of LeakFinder/).waitFor();
    for (const name of [
      'Logo of Brightwater Analytics',
      /^Image 1 for the press release/,
      'Image 2 for the press release: LeakFinder by Brightwater Analytics',
    ]) {
      const img = page.getByRole('img', { name });
      await img.waitFor();
      await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await img.elementHandle());
    }
    await page.getByText('We sent a confirmation link to press@brightwater.example. Click it and the press release follows.').waitFor({ timeout: 20_000 });
    await app.screenshot('mia-result');

    // the address is not a verified account's: the release follows the confirmation link
    const confirmation = await app.smtp.waitFor('press@brightwater.example', /Confirm your e-mail address/);
    const link = /https?:\/\/\S+\/confirm\/[A-Za-z0-9_-]+/.exec(confirmation.text ?? '')![0];
    expect((await fetch(link)).status).toBe(200);
    const mail = await app.smtp.waitFor('press@brightwater.example', /Your press release from Mia/);
    expect(mail.subject).toMatch(/Brightwater Analytics Launches LeakFinder/);

    // mobile: nothing sticks out sideways at 320 px
    await page.setViewportSize({ width: 320, height: 800 });
    expect(await noSidewaysScroll()).toBe(true);
    await app.screenshot('mia-result-320px');
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it("/mia: a private address gets the server's sentence and a way to try again", async () => {
    const { page } = app;
    await page.goto('/mia');
    await page.getByLabel('Website URL').fill('http://10.0.0.1/');
    await page.getByRole('button', { name: 'Write my press release' }).click();
    await page.getByText('Mia could not write this press release.').waitFor();
    await app.screenshot('mia-error');
    await page.getByRole('button', { name: 'Try again' }).click();
    expect(await page.getByLabel('Website URL').inputValue()).toBe('http://10.0.0.1/');
  });

  it("/hal: 'Retrieving info on your website', 'Generating pitch', then the pitch; close reloads", async () => {
    const { page } = app;
    await page.goto('/hal');
    await page.getByRole('button', { name: 'Write my pitch' }).click();
    await page.getByText('Please enter your company name.').waitFor();
    await app.screenshot('hal-required-fields');

    await page.getByLabel('Company name').fill('Brightwater Analytics');
    await page.getByLabel('Website').fill(`${site.origin}/?delay=1000`);
    await page.getByLabel('Email').fill('sales@brightwater.example');
    await page.getByLabel('Voice').selectOption('Yoda');
    const seen: string[] = [];
    await page.exposeFunction('notePhase', (text: string) => seen.push(text));
    await page.evaluate(() => {
      const note = () => {
        const status = document.querySelector('[role="status"]')?.textContent ?? '';
        for (const t of ['Retrieving info on your website', 'Generating pitch'])
          if (status.includes(t)) (window as unknown as { notePhase(t: string): void }).notePhase(t);
      };
      new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('button', { name: 'Write my pitch' }).click();
    await page.getByText('Retrieving info on your website').waitFor({ timeout: 10_000 });
    await app.screenshot('hal-retrieving');
    await page.getByRole('heading', { name: 'Your pitch, in the voice of Yoda' }).waitFor({ timeout: 60_000 });
    expect(seen).toContain('Retrieving info on your website');
    expect(seen).toContain('Generating pitch');
    expect(await page.getByText(/Brightwater Analytics/).count()).toBeGreaterThan(0);
    await app.screenshot('hal-pitch');

    await page.setViewportSize({ width: 320, height: 800 });
    expect(await noSidewaysScroll()).toBe(true);
    await app.screenshot('hal-pitch-320px');
    await page.setViewportSize({ width: 1366, height: 900 });

    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Close' }).click()]);
    await page.getByRole('button', { name: 'Write my pitch' }).waitFor();
    expect(await page.getByLabel('Company name').inputValue()).toBe('');
  });
});
