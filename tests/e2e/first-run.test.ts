import { registerThroughUi, startE2EApp, type E2EApp } from './support/app';
import { seriousAxeFindings, sidewaysOverflow } from './support/axe';

jest.setTimeout(240_000);

/**
 * Issue 25's first run in Debian's Chromium: a new user registers and verifies through the real
 * e-mail, then, on the home page with nothing set up, presses "Try it with a sample invoice" and sees the real extraction of the invoice shipped with
 * the app (plugins/sample-data), field by field, without a file of their own.
 */
describe('first run with the sample invoice', () => {
  let app: E2EApp;
  const email = `ada.${Date.now()}@example.com`;
  const password = 'analytical-Engine-1843';

  beforeAll(async () => {
    app = await startE2EApp({ INBOUND_SMTP_PORT: '0' });
  });
  afterAll(() => app?.close());

  it('registers, verifies through the e-mail and logs in to the home page', async () => {
    await registerThroughUi(app, { name: 'Ada Lovelace', email, password, company: 'Analytical Engines Ltd' });
  });

  it('goes from the home page to the sample invoice read in full, in one click', async () => {
    const { page } = app;
    await page.goto('/home');
    const started = Date.now();
    await page.getByRole('link', { name: 'Try it with a sample invoice' }).click();
    const result = page.getByRole('region', { name: 'Extracted invoice' });
    await result.waitFor({ timeout: 60_000 });
    const seconds = (Date.now() - started) / 1000;
    console.log(`first run: home page click to the sample's fields in ${seconds.toFixed(1)} s`);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/workflow/10004');

    const value = (name: string) => result.locator(`[data-field="${name}"] > span`).first().textContent();
    expect(await value('invoice_number')).toBe('42');
    expect(await value('vendor_name')).toBe('Acme GmbH');
    expect(await value('vendor_vat_id')).toBe('DE123456789');
    expect(await value('customer_name')).toBe('Karl E. Coyote');
    expect(await value('currency')).toBe('EUR');
    const rows = await result
      .getByRole('table', { name: 'Line items' })
      .getByRole('row')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent)));
    expect(rows).toEqual([
      ['Description', 'Quantity', 'Unit price', 'Amount', 'Confidence'],
      ['Amboss 250 kg', '1', '1,000.00', '1,000.00', '100% sure'],
      ['Kette', '30', '10.00', '300.00', '100% sure'],
      ['Transport', '', '120.00', '120.00', '80% sure'],
    ]);
    await result.getByText('Subtotal 1420.00 + tax 269.80 = 1689.80, but the total is 1589.80.').waitFor();

    const preview = page.getByRole('img', { name: 'The uploaded invoice sample-invoice-acme-42.pdf, first page' });
    await preview.waitFor();
    await page.waitForFunction(() => ((document.querySelector('figure img') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0);
    expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(500);
    await app.screenshot('first-run-sample-invoice');

    // the button on the page itself runs it again, on a fresh copy
    await page.getByRole('button', { name: 'Try it with a sample invoice' }).click();
    await result.waitFor();
    expect(await value('total')).toMatch(/^1,589\.80 EUR/);
  });

  it('axe finds nothing serious on the home page (with the action) and the invoice page (with the result), at 320 and 1366 px, and neither scrolls sideways', async () => {
    const { page } = app;
    for (const width of [320, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/home');
      await page.getByRole('link', { name: 'Try it with a sample invoice' }).waitFor();
      expect({ page: 'home', width, findings: await seriousAxeFindings(page) }).toEqual({ page: 'home', width, findings: [] });
      let o = await sidewaysOverflow(page);
      expect(o.scrollWidth).toBeLessThanOrEqual(o.innerWidth);
      await page.getByRole('link', { name: 'Try it with a sample invoice' }).click();
      await page.getByRole('region', { name: 'Extracted invoice' }).waitFor({ timeout: 60_000 });
      expect({ page: 'invoice', width, findings: await seriousAxeFindings(page) }).toEqual({ page: 'invoice', width, findings: [] });
      o = await sidewaysOverflow(page);
      expect(o.scrollWidth).toBeLessThanOrEqual(o.innerWidth);
      if (width === 320) await app.screenshot('first-run-sample-invoice-320');
    }
  });
});
