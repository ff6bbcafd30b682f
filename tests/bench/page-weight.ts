/**
 * Page weight and load metrics (issue 7 'Speed', issue 8 item 8): for each route, the JS and
 * CSS the browser downloads on a cold first load (gzip bytes, as the server would send them
 * compressed), and LCP / CLS of /login and /home, measured in headless Chromium against the
 * local server with a fresh browser context (cold cache) and no throttling. Prints; asserts
 * nothing. Needs `npm run build` first. Run: `npx tsx tests/bench/page-weight.ts`
 * (CLIENT_DIR=/some/dir measures a build written elsewhere: `webpack --output-path /some/dir`).
 */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/browser';

const repo = path.resolve(__dirname, '../..');
/** the built client measured: dist/, or CLIENT_DIR */
const clientDir = process.env.CLIENT_DIR ? path.resolve(process.env.CLIENT_DIR) : path.join(repo, 'dist');

/** Routes measured logged out and (after the login) logged in: every kind of page, one of each. */
const PUBLIC = ['/welcome', '/teaser', '/login', '/register', '/reset-password', '/mia', '/hal', '/connections/widget'];
const SIGNED_IN = [
  '/home',
  '/solutions',
  '/solution/1',
  '/solutions/combinations/10004',
  // the setup screens: each plugin's combination view (reconciliation, financial analysis, the
  // trigger/connector view) and the basic view
  '/solutions/combinations/workflow/10',
  '/solutions/combinations/workflow/11',
  '/solutions/combinations/workflow/1',
  '/solutions/combinations/basic-workflow/2',
  // the workflow pages: each AI plugin's view
  '/workflow/10004',
  '/workflow/10006',
  '/workflow/10002',
  '/workflow/10011',
  '/monitoring/workflow/10004',
  '/my-account',
];

interface Load {
  route: string;
  jsGz: number;
  cssGz: number;
  files: number;
  /** each counted file and its gzip bytes, largest first */
  byFile: Array<[string, number]>;
  lcp?: number;
  cls?: number;
}

/** gzip size of a file of the built client, by its URL path. */
function gzipOf(urlPath: string): number {
  return gzipSync(readFileSync(path.join(clientDir, urlPath))).length;
}

/** Loads `route` in a new context (cold cache), sums the JS/CSS it fetched, reads LCP and CLS. */
async function measure(
  browser: Browser,
  base: string,
  route: string,
  storage?: Awaited<ReturnType<import('playwright-core').BrowserContext['storageState']>>,
): Promise<Load> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 900 }, storageState: storage });
  const page = await context.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { __lcp: number; __cls: number };
    w.__lcp = 0;
    w.__cls = 0;
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) w.__lcp = e.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((l) => {
      for (const e of l.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) if (!e.hadRecentInput) w.__cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const assets = new Set<string>();
  let lastAsset = Date.now();
  page.on('response', (r) => {
    const p = new URL(r.url()).pathname;
    if (/\.(js|css)$/.test(p) && p.startsWith('/assets/')) {
      assets.add(p);
      lastAsset = Date.now();
    }
  });
  await page.goto(route, { waitUntil: 'networkidle' });
  // on a busy machine the main chunk may run after 'networkidle' fired, so its lazy route chunks
  // come later: wait until no asset has arrived for 1.5 s (at most 20 s)
  const settleBy = Date.now() + 20_000;
  while (Date.now() - lastAsset < 1500 && Date.now() < settleBy) await page.waitForTimeout(250);
  const { lcp, cls } = await page.evaluate(() => {
    const w = window as unknown as { __lcp: number; __cls: number };
    return { lcp: w.__lcp, cls: w.__cls };
  });
  // the chart chunk loaded lazily on a page that shows a chart does not count (issue 7)
  const counted = [...assets].filter((a) => !/plotly/i.test(a));
  const load: Load = { route, jsGz: 0, cssGz: 0, files: counted.length, byFile: [], lcp, cls };
  for (const a of counted) {
    const gz = gzipOf(a);
    load.byFile.push([a, gz]);
    if (a.endsWith('.js')) load.jsGz += gz;
    else load.cssGz += gz;
  }
  load.byFile.sort((x, y) => y[1] - x[1]);
  await context.close();
  return load;
}

/** Prints first-load weight per route and LCP/CLS of /login and /home for a running server. */
export async function pageWeight(base: string, login: { email: string; password: string }): Promise<Load[]> {
  const browser = await launchChromium();
  const loads: Load[] = [];
  try {
    for (const r of PUBLIC) loads.push(await measure(browser, base, r));
    const ctx = await browser.newContext({ baseURL: base });
    const page = await ctx.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(login.email);
    await page.getByLabel('Password', { exact: true }).fill(login.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/home');
    const state = await ctx.storageState();
    await ctx.close();
    for (const r of SIGNED_IN) loads.push(await measure(browser, base, r, state));
  } finally {
    await browser.close();
  }
  console.log('\nFirst load per route (cold cache, gzip), goal ≤ 250 KB JS+CSS; LCP goal ≤ 1.5 s, CLS goal ≤ 0.05');
  for (const l of loads) {
    const kb = (l.jsGz + l.cssGz) / 1024;
    const extra = l.route === '/login' || l.route === '/home' ? `   LCP ${Math.round(l.lcp ?? 0)} ms   CLS ${(l.cls ?? 0).toFixed(3)}` : '';
    console.log(`${l.route.padEnd(40)} ${kb.toFixed(1).padStart(7)} KB  (${l.files} files)${kb > 250 ? '  over' : ''}${extra}`);
    // PAGE_WEIGHT_FILES=1 lists each route's files, to see what to split
    if (process.env.PAGE_WEIGHT_FILES) for (const [f, gz] of l.byFile) console.log(`    ${(gz / 1024).toFixed(1).padStart(7)} KB  ${f}`);
  }
  return loads;
}

async function main() {
  const { startE2EApp, createVerifiedUser } = await import('../e2e/support/app');
  const app = await startE2EApp({ CLIENT_DIR: clientDir });
  try {
    const login = { email: `bench.${Date.now()}@example.com`, password: 'cobol-Rules-1959' };
    await createVerifiedUser(app, { name: 'Bench User', ...login });
    await pageWeight(app.url, login);
  } finally {
    await app.close();
  }
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
