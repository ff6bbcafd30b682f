import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createVerifiedUser, logInThroughUi, startE2EApp, type E2EApp } from './support/app';
import { seriousAxeFindings, sidewaysOverflow } from './support/axe';

jest.setTimeout(180_000);

/**
 * Issue 10's text workflows in Debian's Chromium: emotion analysis (10002) from typed text, and
 * document search (10011): upload a text file, search it, and download it from the result.
 */
describe('emotion analysis and document search', () => {
  let app: E2EApp;
  const email = `ada.${Date.now()}@example.com`;
  const files = mkdtempSync(path.join(tmpdir(), 'flowmatic-e2e-files-'));

  beforeAll(async () => {
    app = await startE2EApp();
    await createVerifiedUser(app, { name: 'Ada Lovelace', email, password: 'analytical-Engine-1843' });
    await logInThroughUi(app, email, 'analytical-Engine-1843');
  });
  afterAll(() => app?.close());

  it('emotion analysis: refuses empty text, then lists each sentence with its emotion', async () => {
    const { page } = app;
    await page.goto('/workflow/10002');
    await page.getByRole('button', { name: 'Get Emotion' }).click();
    await page.getByText('Please enter some text to analyse.').waitFor();
    await app.screenshot('emotion-empty');
    await page
      .getByRole('textbox', { name: /Text to analyse/ })
      .fill(
        'I love the new invoice screen, it is wonderful! The delivery arrived on Tuesday. I am furious that my order was cancelled again. I am worried the payment will bounce.',
      );
    await page.getByRole('button', { name: 'Get Emotion' }).click();
    const items = page.getByRole('region', { name: 'Emotions' }).getByRole('listitem');
    await items.first().waitFor();
    expect(await items.count()).toBe(4);
    expect(await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-emotion')))).toEqual(['joy', 'neutral', 'anger', 'fear']);
    await app.screenshot('emotion-results');
  });

  it('document search: uploads a text file, finds it with marked words, and downloads it', async () => {
    const { page } = app;
    await page.goto('/workflow/10011');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Please enter a search query.').waitFor();

    const memo = path.join(files, 'supplier-memo.txt');
    writeFileSync(memo, 'Memo to finance. The supplier charged a late payment fee on the March invoices. Reconciliation of the ledger took two days.\n');
    await page.getByLabel('Document file').setInputFiles(memo);
    await page.getByRole('button', { name: 'Upload Document' }).click();
    await page.getByText('“supplier-memo.txt” is now searchable (21 words).').waitFor();

    // a wrong kind of file is refused with a readable message
    const binary = path.join(files, 'archive.txt');
    writeFileSync(binary, Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]));
    await page.getByLabel('Document file').setInputFiles(binary);
    await page.getByRole('button', { name: 'Upload Document' }).click();
    await page.getByText(/^The uploaded file is not a PDF, PNG, JPEG, text or XML e-invoice file/).waitFor();

    await page.getByRole('textbox', { name: /Search your documents/ }).fill('late payment reconc');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const result = page.getByRole('region', { name: 'Search results' }).getByRole('listitem').first();
    await result.getByRole('heading', { name: 'supplier-memo.txt' }).waitFor();
    expect(await result.locator('mark').allInnerTexts()).toEqual(['late', 'payment', 'Reconciliation']);
    await app.screenshot('search-results');
    // at a phone's width the results, the longer hint (XML e-invoices) and the refusal fit, and axe finds nothing serious
    await page.setViewportSize({ width: 320, height: 800 });
    expect(await sidewaysOverflow(page)).toEqual({ scrollWidth: 320, innerWidth: 320 });
    expect(await seriousAxeFindings(page)).toEqual([]);
    await app.screenshot('search-results-320');
    await page.setViewportSize({ width: 1366, height: 900 });

    const [download] = await Promise.all([page.waitForEvent('download'), result.getByRole('link', { name: /Download Document/ }).click()]);
    expect(download.suggestedFilename()).toBe('supplier-memo.txt');
    const saved = path.join(files, 'downloaded.txt');
    await download.saveAs(saved);
    expect(require('node:fs').readFileSync(saved, 'utf8')).toContain('late payment fee');

    await page.getByRole('textbox', { name: /Search your documents/ }).fill('zebra crossing');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Sorry nothing matched your search').waitFor();
    await app.screenshot('search-nothing');
  });
});
