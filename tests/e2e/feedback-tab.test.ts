import { createVerifiedUser, logInThroughUi, startE2EApp, type E2EApp } from './support/app';

jest.setTimeout(600_000);

/** What the page shows under the Feedback tab: text and controls inside the page's main column. */
const CONTENT =
  'main a, main button, main input, main select, main textarea, main [role="slider"], main [role="tab"], main h1, main h2, main h3, main p, main li, main td, main th, main label, main dt, main dd';

/**
 * Issue 25: the Feedback tab never covers content, from a phone to a laptop (320–1366 px). On
 * every width, on pages with cards, forms, tabs and tables, scrolled to the top, the middle and
 * the end, no visible text or control of the page's main column lies under the tab.
 */
describe('the Feedback tab covers no content at 320–1366 px', () => {
  let app: E2EApp;
  const email = `feedback.tab.${Date.now()}@example.com`;
  const password = 'cobol-Rules-1959';
  beforeAll(async () => {
    app = await startE2EApp();
    await createVerifiedUser(app, { name: 'Grace Hopper', email, password });
    await logInThroughUi(app, email, password);
  });
  afterAll(() => app?.close());

  it('lies over no text or control on the home page, a combination screen, a workflow page and My Account', async () => {
    const { page } = app;
    const covered: Array<{ path: string; width: number; at: string; element: string }> = [];
    const routes = [
      { path: '/home', ready: 'Recommended Combinations' },
      { path: '/solutions/combinations/workflow/10', ready: 'Cost estimator' },
      { path: '/workflow/10004', ready: 'Invoice file' },
      { path: '/my-account', ready: 'My Account' },
    ];
    for (const width of [320, 390, 768, 769, 1024, 1366]) {
      await page.setViewportSize({ width, height: width <= 768 ? 844 : 900 });
      for (const route of routes) {
        await page.goto(route.path, { waitUntil: 'networkidle' });
        await page.getByText(route.ready, { exact: true }).first().waitFor({ timeout: 20_000 });
        for (const at of ['top', 'middle', 'end'] as const) {
          const found = await page.evaluate(
            ({ at, selector }) => {
              const max = document.documentElement.scrollHeight - window.innerHeight;
              window.scrollTo(0, at === 'top' ? 0 : at === 'middle' ? Math.round(max / 2) : max);
              const tab = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Feedback');
              if (!tab) return ['no Feedback tab'];
              const t = tab.getBoundingClientRect();
              const hits: string[] = [];
              for (const el of document.querySelectorAll<HTMLElement>(selector)) {
                if (el === tab || el.contains(tab) || tab.contains(el)) continue;
                const style = getComputedStyle(el);
                if (style.visibility === 'hidden' || style.display === 'none') continue;
                for (const r of el.getClientRects()) {
                  if (r.width === 0 || r.height === 0) continue;
                  const overlaps = r.left < t.right - 1 && t.left < r.right - 1 && r.top < t.bottom - 1 && t.top < r.bottom - 1;
                  // only what is on screen can be covered
                  const onScreen = r.bottom > 0 && r.top < window.innerHeight;
                  if (overlaps && onScreen) {
                    hits.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`);
                    break;
                  }
                }
              }
              return hits;
            },
            { at, selector: CONTENT },
          );
          for (const element of found) covered.push({ path: route.path, width, at, element });
        }
      }
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    expect(covered).toEqual([]);
  });
});
