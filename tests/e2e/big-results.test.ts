import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createVerifiedUser, logInThroughUi, startE2EApp, type E2EApp } from './support/app';

jest.setTimeout(600_000);

/**
 * Issue 25, big results: a 50,000 × 50,000-row reconciliation through the page. Every even
 * invoice bills one unit more than ordered (a quantity and a total discrepancy), every 25th
 * names a purchase order that does not exist: 48,000 discrepancies and 4,000 unmatched rows.
 * The results render a page at a time with no long task over 200 ms, the pages are the input's
 * rows, and the CSV download is built on the server and streamed.
 */
const N = 50_000;
const UNIT = 2;

interface Expected {
  kind: 'quantity' | 'total';
  key: string;
  vendor: string;
  description: string;
  invoice: number;
  order: number;
  delta: number;
  row: number;
}

function files() {
  const po = ['PO Number,Vendor,Description,Qty,Unit Price,Total'];
  const inv = ['Invoice Number,PO Number,Vendor,Description,Qty,Unit Price,Total'];
  const discrepancies: Expected[] = [];
  for (let i = 1; i <= N; i++) {
    const vendor = `Vendor ${i % 10}`;
    const qty = (i % 7) + 1;
    po.push(`PO-${i},${vendor},Item ${i},${qty},${UNIT}.00,${qty * UNIT}.00`);
    if (i % 25 === 0) {
      inv.push(`INV-${i},PO-X${i},${vendor},Item ${i},${qty},${UNIT}.00,${qty * UNIT}.00`);
    } else if (i % 2 === 0) {
      inv.push(`INV-${i},PO-${i},${vendor},Item ${i},${qty + 1},${UNIT}.00,${(qty + 1) * UNIT}.00`);
      const base = { key: `PO-${i}`, vendor, description: `Item ${i}`, row: i + 1 };
      discrepancies.push({ ...base, kind: 'quantity', invoice: qty + 1, order: qty, delta: 1 });
      discrepancies.push({ ...base, kind: 'total', invoice: (qty + 1) * UNIT, order: qty * UNIT, delta: UNIT });
    } else {
      inv.push(`INV-${i},PO-${i},${vendor},Item ${i},${qty},${UNIT}.00,${qty * UNIT}.00`);
    }
  }
  return { invoices: `${inv.join('\n')}\n`, orders: `${po.join('\n')}\n`, discrepancies };
}

const message = (d: Expected) => `${d.key}: invoiced ${d.kind} ${d.invoice} differs from the ordered ${d.order} by +${d.delta}.`;
/** A row as the Discrepancies table shows it: Key, Kind, Vendor, Description, Invoice, Purchase order, Delta, Invoice row, PO row, Message. */
const cells = (d: Expected) => [
  d.key,
  d.kind,
  d.vendor,
  d.description,
  String(d.invoice),
  String(d.order),
  String(d.delta),
  String(d.row),
  String(d.row),
  message(d),
];
/** The same row in the CSV download: Kind, Key, Field, Vendor, Description, Invoice row, PO row, Invoice value, PO value, Expected value, Delta, Message. */
const csvLine = (d: Expected) => [d.kind, d.key, d.kind, d.vendor, d.description, d.row, d.row, d.invoice, d.order, '', d.delta, message(d)].join(',');

describe('big results (issue 25)', () => {
  let app: E2EApp;
  const email = `big.${Date.now()}@example.com`;
  const dir = mkdtempSync(path.join(tmpdir(), 'flowmatic-e2e-big-'));
  const data = files();

  beforeAll(async () => {
    app = await startE2EApp();
    await createVerifiedUser(app, { name: 'Katherine Johnson', email, password: 'orbital-Mechanics-1962' });
    await logInThroughUi(app, email, 'orbital-Mechanics-1962');
  });
  afterAll(() => app?.close());

  it('a 50,000 × 50,000-row reconciliation renders a page at a time without a long task over 200 ms, and downloads from the server', async () => {
    const { page } = app;
    writeFileSync(path.join(dir, 'invoices.csv'), data.invoices);
    writeFileSync(path.join(dir, 'orders.csv'), data.orders);
    expect(data.discrepancies).toHaveLength(48_000);

    await page.goto('/solutions/combinations/workflow/10');
    await page.getByRole('button', { name: 'Save config' }).waitFor();
    await page.getByLabel('Invoice file (.csv)').setInputFiles(path.join(dir, 'invoices.csv'));
    await page.getByLabel('Purchase-order file (.csv)').setInputFiles(path.join(dir, 'orders.csv'));
    await page.getByText('invoices.csv: 7 columns').waitFor();
    await page.getByRole('combobox', { name: /Invoice key column/ }).selectOption('PO Number');
    await page.getByRole('combobox', { name: /Purchase-order key column/ }).selectOption('PO Number');
    await page.getByRole('button', { name: 'Save config' }).click();
    await page.getByText('Config Saved').waitFor();

    // every long task of the page from the click until the results have rendered and settled
    await page.evaluate(() => {
      const w = window as unknown as { longTasks: { start: number; duration: number }[] };
      w.longTasks = [];
      new PerformanceObserver((list) => list.getEntries().forEach((e) => w.longTasks.push({ start: e.startTime, duration: e.duration }))).observe({
        type: 'longtask',
      });
    });
    const table = page.getByRole('table', { name: 'Discrepancies table' });
    const pager = page.getByRole('navigation', { name: 'Discrepancies table pages' });
    /** Runs Test Configuration (the attempt-th time) and gives the long tasks after its reply came in, and before. */
    const testConfiguration = async (attempt: number) => {
      await page.evaluate(() => ((window as unknown as { longTasks: unknown[] }).longTasks.length = 0));
      const started = Date.now();
      await page.getByRole('button', { name: 'Test Configuration' }).click();
      await page.waitForFunction(
        (n) =>
          performance.getEntriesByType('resource').filter((e) => e.name.includes('/comparison?view=pages') && (e as PerformanceResourceTiming).responseEnd > 0)
            .length === n,
        attempt,
        { timeout: 300_000 },
      );
      await table.waitFor({ timeout: 60_000 });
      await pager.getByText('Rows 1–100 of 48,000 · page 1 of 480').waitFor();
      const rendered = Date.now() - started;
      await page.waitForTimeout(1500);
      const { tasks, replied } = await page.evaluate(() => ({
        tasks: (window as unknown as { longTasks: { start: number; duration: number }[] }).longTasks,
        replied: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => e.name.includes('/comparison?view=pages')).pop()!
          .responseEnd,
      }));
      // the results render once the reply is in: from then until they have settled
      const whileRendering = tasks.filter((t) => t.start >= replied).map((t) => Math.round(t.duration));
      const before = tasks.filter((t) => t.start < replied).map((t) => Math.round(t.duration));
      console.log(
        `50,000 × 50,000 rows, attempt ${attempt}: results on screen ${rendered} ms after Test Configuration; long tasks while the results render (ms): ${JSON.stringify(whileRendering)}; before the reply (reading and sending the files): ${JSON.stringify(before)}`,
      );
      return whileRendering;
    };
    // no task over 200 ms while the results render. A task's length is wall time, which other
    // processes on a loaded machine stretch (CI runs the integration tests beside): the best of up
    // to three runs is taken, so a render that needs a long task fails every time
    const attempts: number[][] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      attempts.push(await testConfiguration(attempt));
      if (attempts[attempts.length - 1].every((d) => d <= 200)) break;
    }
    // the tasks over 200 ms of each attempt: one attempt at least has none
    expect(attempts.map((whileRendering) => whileRendering.filter((d) => d > 200))).toContainEqual([]);

    const shown = () =>
      table.evaluate((t) => [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())));
    // the first page is the input's first 100 discrepancies, every cell
    expect(await shown()).toEqual(data.discrepancies.slice(0, 100).map(cells));
    expect(await page.locator('[aria-label="Summary"]').innerText()).toMatch(/Discrepancies\s+48,000/);
    await page.getByRole('navigation', { name: 'Unmatched records table pages' }).getByText('Rows 1–100 of 4,000 · page 1 of 40').waitFor();

    // another page, from the kept result
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('Rows 101–200 of 48,000 · page 2 of 480').waitFor();
    await page.waitForFunction(
      (key) => document.querySelector('table[aria-label="Discrepancies table"] tbody tr td')?.textContent === key,
      data.discrepancies[100].key,
    );
    expect(await shown()).toEqual(data.discrepancies.slice(100, 200).map(cells));
    await pager.getByRole('button', { name: 'Last page' }).click();
    await pager.getByText('Rows 47,901–48,000 of 48,000 · page 480 of 480').waitFor();
    await page.waitForFunction(
      (key) => document.querySelector('table[aria-label="Discrepancies table"] tbody tr td')?.textContent === key,
      data.discrepancies[47_900].key,
    );
    expect(await shown()).toEqual(data.discrepancies.slice(47_900).map(cells));
    await app.screenshot('big-results-last-page');

    // the CSV is built on the server and streamed through a short-lived link
    const asked = Date.now();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 120_000 }),
      page.getByRole('button', { name: 'Discrepancies CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('reconciliation-custom-config-discrepancies.csv');
    expect(download.url()).toMatch(/\/api\/files\/download\?token=/);
    const saved = path.join(dir, 'discrepancies.csv');
    await download.saveAs(saved);
    console.log(`Discrepancies CSV (48,000 rows) saved ${Date.now() - asked} ms after the click`);
    const lines = readFileSync(saved, 'utf8')
      .replace(/^\ufeff/, '')
      .split('\r\n');
    expect(lines).toHaveLength(48_001);
    expect(lines[0]).toBe('Kind,Key,Field,Vendor,Description,Invoice row,PO row,Invoice value,PO value,Expected value,Delta,Message');
    expect(lines[1]).toBe(csvLine(data.discrepancies[0]));
    expect(lines[1]).toBe('quantity,PO-2,quantity,Vendor 2,Item 2,3,3,4,3,,1,PO-2: invoiced quantity 4 differs from the ordered 3 by +1.');
    expect(lines[24_001]).toBe(csvLine(data.discrepancies[24_000]));
    expect(lines[48_000]).toBe(csvLine(data.discrepancies[47_999]));
  });
});
