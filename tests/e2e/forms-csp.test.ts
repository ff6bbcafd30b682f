import { linkIn } from '../support/smtp-sink';
import { createVerifiedUser, logInThroughUi, startE2EApp, type E2EApp } from './support/app';
import { seriousAxeFindings, sidewaysOverflow } from './support/axe';

jest.setTimeout(180_000);

/**
 * The forms validate under the product's Content-Security-Policy, which has no 'unsafe-eval':
 * their JSON-Schema validators are compiled at build time (npm run forms:validators), so no
 * form builds code in the browser. Each form is submitted with bad input, which runs its
 * validator (the readable message shows), and no CSP violation may be reported.
 */
describe('forms under a CSP without unsafe-eval', () => {
  let app: E2EApp;
  const violations: string[] = [];
  const email = `csp.${Date.now()}@example.com`;
  const password = 'cobol-Rules-1959';

  beforeAll(async () => {
    app = await startE2EApp();
    await createVerifiedUser(app, { name: 'Grace Hopper', email, password });
    app.page.on('console', (m) => {
      if (/Content Security Policy|unsafe-eval/i.test(m.text())) violations.push(m.text());
    });
    await app.context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`);
      });
    });
  });
  afterAll(() => app?.close());

  it('serves pages with a script-src that does not allow eval', async () => {
    const res = await app.page.goto('/login');
    const csp = (await res!.allHeaders())['content-security-policy'];
    expect(/script-src ([^;]*)/.exec(csp)![1]).toBe("'self'");
  });

  it('validates the login, register and reset forms in the browser', async () => {
    const { page } = app;
    await page.goto('/login');
    await page.getByLabel('Email').fill('ab');
    await page.getByLabel('Password', { exact: true }).fill('x');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Must be at least 3 characters long.').first().waitFor();

    await page.goto('/register');
    await page.getByLabel('Company Email').fill('not-an-address');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm Password').fill('short');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Please enter a valid email address.').first().waitFor();

    await page.goto('/reset-password');
    await page.getByLabel('Email').fill('nope');
    await page
      .getByRole('button', { name: /send|reset/i })
      .first()
      .click();
    await page.getByText('Please enter a valid email address.').first().waitFor();
    expect(violations).toEqual([]);
  });

  it('says at once that a used reset link is dead, before anything is typed, and offers a new one', async () => {
    const { page } = app;
    await page.goto('/reset-password');
    await page.getByLabel('Email').fill(email);
    await page
      .getByRole('button', { name: /send|reset/i })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    const link = linkIn(await app.smtp.waitFor(email, /reset/i), app.url + '/reset-password');
    // the link works once: a new password is set through the form
    await page.goto(link);
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('New password').fill('grace-Hopper-1906');
    await page.getByLabel('Confirm password').fill('grace-Hopper-1906');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.waitForURL('**/login');
    // opened again, the same link says so straight away: no password field to type into first
    await page.goto(link);
    await page.getByRole('heading', { name: 'This link can no longer be used' }).waitFor();
    await page.getByText('This password reset link has already been used. Ask for a new link and use the newest e-mail we send you.').waitFor();
    expect(await page.getByLabel('New password').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Update' }).count()).toBe(0);
    await app.screenshot('reset-link-dead');
    // axe finds nothing serious on it, on a phone and on a laptop, and it never scrolls sideways
    for (const width of [320, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      expect({ width, findings: await seriousAxeFindings(page) }).toEqual({ width, findings: [] });
      const o = await sidewaysOverflow(page);
      expect(o.scrollWidth).toBeLessThanOrEqual(o.innerWidth);
    }
    await page.getByRole('button', { name: 'Send me a new link' }).click();
    await page.getByRole('heading', { name: 'Forgot password?' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    expect(violations).toEqual([]);
  });

  it('validates the account form and a plugin’s config form (loaded by its schema id)', async () => {
    const { page } = app;
    await logInThroughUi(app, email, 'grace-Hopper-1906');
    await page.goto('/my-account');
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('');
    await page.getByRole('button', { name: /save/i }).first().click();
    await page
      .getByText(/required|Please complete/i)
      .first()
      .waitFor();

    await page.goto('/solutions/combinations/workflow/10');
    await page.getByRole('button', { name: 'Save config' }).waitFor();
    expect(violations).toEqual([]);
  });
});
