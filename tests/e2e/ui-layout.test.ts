import { ARTIFACTS, createVerifiedUser, logInThroughUi, startE2EApp, type E2EApp } from './support/app';
import { seriousAxeFindings, sidewaysOverflow, type AxeFinding } from './support/axe';
import { PUBLIC_ROUTES, SIGNED_IN_ROUTES, WIDTHS, type RouteCase } from './support/routes';

jest.setTimeout(900_000);

/** A 135-character name with a 40-character word: it must wrap, not widen the page. */
const LONG_NAME = `Maximiliana ${'Wolfeschlegelsteinhausenbergerdorffvoralt'} ${'Alexandra Constantina Bartholomea '.repeat(3)}`.slice(0, 135).trim();

/** Opens a route and waits until its data has arrived (no spinner, the page's own text shown). */
async function open(app: E2EApp, route: RouteCase) {
  const { page } = app;
  await page.goto(route.path, { waitUntil: 'networkidle' });
  if (route.ready) await page.getByText(route.ready, { exact: true }).first().waitFor({ timeout: 20_000 });
  await page.waitForFunction(() => !document.querySelector('.fui-Spinner'), undefined, { timeout: 20_000 }).catch(() => undefined);
}

interface Problem {
  route: string;
  width?: number;
  scrollWidth?: number;
  axe?: AxeFinding[];
}

/** Checks one route at every width (sideways scroll) and once with axe-core; returns what failed. */
async function check(app: E2EApp, route: RouteCase, label: string): Promise<Problem[]> {
  const problems: Problem[] = [];
  await app.page.setViewportSize({ width: 1366, height: 900 });
  await open(app, route);
  const axe = await seriousAxeFindings(app.page);
  if (axe.length) problems.push({ route: `${label} ${route.path}`, axe });
  for (const width of WIDTHS) {
    await app.page.setViewportSize({ width, height: width < 800 ? 844 : 900 });
    await app.page.waitForTimeout(150);
    const { scrollWidth, innerWidth } = await sidewaysOverflow(app.page);
    if (scrollWidth > innerWidth) problems.push({ route: `${label} ${route.path}`, width, scrollWidth });
    if (width < 800) {
      const phoneAxe = await seriousAxeFindings(app.page);
      if (phoneAxe.length) problems.push({ route: `${label} ${route.path} @${width}`, axe: phoneAxe });
    }
  }
  await app.page.setViewportSize({ width: 1366, height: 900 });
  return problems;
}

/**
 * Issue 8, items 2 and 7: no page scrolls sideways at 320, 390 or 1366 px, and axe-core finds
 * nothing serious or critical, on every route of the spec's table, logged out and logged in.
 */
describe('every route fits a phone and passes axe-core', () => {
  let app: E2EApp;
  const email = `long.name.${Date.now()}@example.com`;
  beforeAll(async () => {
    app = await startE2EApp();
    await createVerifiedUser(app, { name: LONG_NAME, email, password: 'cobol-Rules-1959' });
  });
  afterAll(() => app?.close());

  it('logged out: public routes', async () => {
    const problems: Problem[] = [];
    for (const route of PUBLIC_ROUTES) problems.push(...(await check(app, route, 'logged out')));
    expect(problems).toEqual([]);
  });

  it('logged in: every route, with a 135-character name in the greeting', async () => {
    await logInThroughUi(app, email, 'cobol-Rules-1959');
    const problems: Problem[] = [];
    for (const route of SIGNED_IN_ROUTES) problems.push(...(await check(app, route, 'logged in')));
    expect(problems).toEqual([]);
  });

  it('with the setup modal open on a setup screen: no sideways scroll, nothing serious for axe', async () => {
    const { page } = app;
    await page.goto('/home', { waitUntil: 'networkidle' });
    if (new URL(page.url()).pathname === '/login') await logInThroughUi(app, email, 'cobol-Rules-1959');
    const problems: Problem[] = [];
    for (const width of [1366, ...WIDTHS.filter((w) => w < 1366)]) {
      await page.setViewportSize({ width, height: width < 800 ? 844 : 900 });
      await open(app, { path: '/solutions/combinations/workflow/1' });
      await page.getByRole('button', { name: 'Setup Connections for Workflows' }).first().click();
      const dialog = page.getByRole('alertdialog', { name: 'Setup Connections for Workflows' });
      await dialog.waitFor({ timeout: 20_000 });
      await page.waitForTimeout(300); // the surface's open animation
      const axe = await seriousAxeFindings(page);
      if (axe.length) problems.push({ route: `setup modal @${width}`, axe });
      const { scrollWidth, innerWidth } = await sidewaysOverflow(page);
      if (scrollWidth > innerWidth) problems.push({ route: 'setup modal', width, scrollWidth });
      if (width === 390) await app.screenshot('ui-setup-modal-390');
      // Done closes it
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'hidden' });
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    expect(problems).toEqual([]);
  });

  it('screenshots at 390 px: /home, a combination screen and My Account', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 390, height: 844 });
    await open(app, { path: '/home', ready: 'Recommended Combinations' });
    await app.screenshot('ui-home-390');
    await open(app, { path: '/solutions/combinations/workflow/10', ready: 'Cost estimator' });
    await app.screenshot('ui-combination-390');
    // scrolled to the end, the Feedback button covers neither the slider nor the text of the card
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForTimeout(150);
    const feedback = (await page.getByRole('button', { name: 'Feedback' }).boundingBox())!;
    const slider = (await page.getByRole('slider').first().boundingBox())!;
    const overlaps = (a: typeof slider, b: typeof slider) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlaps(feedback, slider)).toBe(false);
    await page.screenshot({ path: `${ARTIFACTS}/ui-combination-390-bottom.png` });
    await open(app, { path: '/my-account', ready: 'My Account' });
    // the five tabs wrap instead of scrolling sideways: every one is inside the screen
    for (const tab of await page.getByRole('tab').all()) {
      const box = (await tab.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await app.screenshot('ui-my-account-390');
    await page.setViewportSize({ width: 1366, height: 900 });
  });
});
