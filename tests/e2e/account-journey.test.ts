import { linkIn } from '../support/smtp-sink';
import { startE2EApp, type E2EApp } from './support/app';

jest.setTimeout(180_000);

/**
 * Issue 2's journey in Debian's Chromium: register, verify through the link of a real e-mail,
 * log in, land on /home with 'Welcome {Name}', edit the account, change the password, log out,
 * log in with the new password.
 */
describe('a new user registers, verifies, logs in, edits the account and changes the password', () => {
  let app: E2EApp;
  beforeAll(async () => {
    app = await startE2EApp();
  });
  afterAll(() => app?.close());

  const email = `ada.${Date.now()}@example.com`;
  const firstPassword = 'first-Password-123';
  const newPassword = 'second-Password-456';

  async function logIn(password: string) {
    const { page } = app;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('registers and is told to check the e-mail', async () => {
    const { page } = app;
    await page.goto('/register');
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await page.getByLabel('Company Email').fill(email);
    await page.getByLabel('Your Role').selectOption({ label: 'Business Manager' });
    await page.getByLabel('Company Name').fill('Analytical Engines Ltd');
    await page.getByLabel('Password', { exact: true }).fill(firstPassword);
    await page.getByLabel('Confirm Password').fill(firstPassword);
    await page.getByRole('checkbox').check();
    await app.screenshot('register-filled');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/login?Register=true');
    await page.getByText('Account Created - Check your email to verify your account.').waitFor();
  });

  it('cannot log in before verifying', async () => {
    await logIn(firstPassword);
    await app.page.getByText('Please verify your account, then login.').waitFor();
  });

  it('verifies through the link in the e-mail received over SMTP', async () => {
    const mail = await app.smtp.waitFor(email, /verify/i);
    const link = linkIn(mail, `${app.url}/login?`);
    const url = new URL(link);
    expect(url.searchParams.get('email')).toBe(email);
    expect(url.searchParams.get('token')).toBeTruthy();
    await app.page.goto(link);
    await app.page.getByText('Account verified, please login.').waitFor();
  });

  it('logs in and lands on /home with a welcome', async () => {
    await logIn(firstPassword);
    await app.page.waitForURL('**/home');
    await app.page.getByText('Welcome Ada Lovelace').waitFor();
    await app.screenshot('home-after-login');
  });

  it('edits the account details', async () => {
    const { page } = app;
    await page.getByRole('link', { name: /My account/ }).click();
    await page.waitForURL('**/my-account');
    const name = page.getByLabel('Name', { exact: true });
    await expect(name).toHaveValueSoon('Ada Lovelace');
    await name.fill('Ada King');
    await page.getByLabel('Currency').selectOption({ label: 'GBP' });
    await page.getByRole('button', { name: /^Save/ }).first().click();
    await page.getByText('Your details have been updated.').waitFor();
    await page.getByText('Welcome Ada King').waitFor();
    await app.screenshot('my-account-saved');
    await page.reload();
    await expect(page.getByLabel('Currency')).toHaveSelectedLabelSoon('GBP');
  });

  it('changes the password', async () => {
    const { page } = app;
    await page.getByRole('tab', { name: /password/i }).click();
    await page.getByLabel('Current password').fill(firstPassword);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/password has been (changed|updated)/i).waitFor();
    // older sessions are signed out; this one carries on with the tokens the server handed back
    await page
      .getByRole('link', { name: /Solutions/ })
      .first()
      .click();
    await page.waitForURL('**/solutions');
    await page.getByRole('heading', { name: 'Finance' }).waitFor();
  });

  it('logs out, is refused the old password and logs in with the new one', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('isAuth'))).toBeNull();
    await logIn(firstPassword);
    await page.getByText('Wrong email or password.').waitFor();
    await logIn(newPassword);
    await page.waitForURL('**/home');
    await page.getByText('Welcome Ada King').waitFor();
  });
});

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Matchers<R> {
      toHaveValueSoon(value: string): Promise<R>;
      toHaveSelectedLabelSoon(label: string): Promise<R>;
    }
  }
}

type Locator = import('playwright-core').Locator;

async function eventually(read: () => Promise<string>, want: string) {
  const deadline = Date.now() + 10_000;
  let last = '';
  while (Date.now() < deadline) {
    last = await read().catch(() => '');
    if (last === want) return { pass: true, message: () => `is ${want}` };
    await new Promise((r) => setTimeout(r, 100));
  }
  return { pass: false, message: () => `expected ${want}, last seen ${last}` };
}

expect.extend({
  toHaveValueSoon: (locator: Locator, value: string) => eventually(() => locator.inputValue(), value),
  toHaveSelectedLabelSoon: (locator: Locator, label: string) =>
    eventually(() => locator.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.text ?? ''), label),
});
