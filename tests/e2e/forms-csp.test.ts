import { createVerifiedUser, logInThroughUi, startE2EApp, type E2EApp } from './support/app';

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

  it('validates the account form and a plugin’s config form (loaded by its schema id)', async () => {
    const { page } = app;
    await logInThroughUi(app, email, password);
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
