import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildServer, type BuiltServer } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import { openDatabase } from '../../../src/server/db/database';
import { pgliteTemplate } from '../../../src/server/testing/pglite-template';
import { discoverServerPlugins } from '../../../src/server/plugin-loader';
import { launchChromium } from '../../support/browser';
import { SmtpSink, linkIn } from '../../support/smtp-sink';

const repo = path.resolve(__dirname, '../../..');
export const ARTIFACTS = path.join(repo, 'tests', 'artifacts');

export interface E2EApp {
  url: string;
  server: BuiltServer;
  smtp: SmtpSink;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * The real product for a browser test: the built client (npm run build) and the API on one
 * port, an embedded database in a temp folder, mail over SMTP to a local listener, every
 * plugin under plugins/, and Debian's Chromium.
 */
export async function startE2EApp(env: Record<string, string> = {}): Promise<E2EApp> {
  const clientDir = path.join(repo, 'dist');
  if (!existsSync(path.join(clientDir, 'index.html'))) throw new Error('The client is not built: run `npm run build` before `npm run test:e2e`');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'flowmatic-e2e-'));
  const smtp = new SmtpSink();
  const smtpUrl = await smtp.start();
  // the product builds links (e-mails, recipe webhooks) from PUBLIC_URL at start-up: know the port first
  const port = await freePort();
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      CLIENT_DIR: clientDir,
      SMTP_URL: smtpUrl,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      INBOUND_SMTP_PORT: '0',
      AUTH_RATE_LIMIT: '1000',
      LOG_LEVEL: 'warn',
      ...env,
    },
    repo,
  );
  // a new embedded database in DATA_DIR, started from an initialised cluster (no initdb each time)
  const db = await openDatabase({ dataDir: config.dataDir, template: await pgliteTemplate() });
  const server = await buildServer({ config, db, plugins: await discoverServerPlugins(path.join(repo, 'plugins')), logger: false });
  const address = await server.app.listen({ port, host: '127.0.0.1' });
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, baseURL: address });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    url: address,
    server,
    smtp,
    browser,
    context,
    page,
    async screenshot(name) {
      const file = path.join(ARTIFACTS, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(`screenshot: ${path.relative(repo, file)}`);
      return file;
    },
    async close() {
      await browser.close().catch(() => undefined);
      await server.close();
      await db.destroy();
      await smtp.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (errors.length) throw new Error(`Uncaught errors in the page:\n${errors.join('\n')}`);
    },
  };
}

/** A verified user with its managed-user row, inserted directly (the account journey covers sign-up). */
export async function createVerifiedUser(app: E2EApp, fields: { name: string; email: string; password: string }): Promise<number> {
  const T = await import('../../../src/server/tokens');
  const db = app.server.container.get<import('../../../src/server/db/database').Db>(T.Db);
  const hasher = app.server.container.get<import('../../../src/server/auth/password').PasswordHasher>(T.PasswordHasher);
  const user = await db
    .insertInto('users')
    .values({
      name: fields.name,
      email: fields.email.toLowerCase(),
      password_hash: await hasher.hash(fields.password),
      role: 'bm',
      company_name: 'Acme Ltd',
      is_verified: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('managed_users')
    .values({ user_id: user.id, external_id: `e2e-${user.id}` })
    .execute();
  return user.id;
}

/**
 * Registers through the /register screen, verifies through the link in the real e-mail, and logs
 * in to /home: a new user's first steps, as they take them.
 */
export async function registerThroughUi(app: E2EApp, fields: { name: string; email: string; password: string; company: string }): Promise<void> {
  const { page } = app;
  await page.goto('/register');
  await page.getByLabel('Name', { exact: true }).fill(fields.name);
  await page.getByLabel('Company Email').fill(fields.email);
  await page.getByLabel('Your Role').selectOption({ label: 'Business Manager' });
  await page.getByLabel('Company Name').fill(fields.company);
  await page.getByLabel('Password', { exact: true }).fill(fields.password);
  await page.getByLabel('Confirm Password').fill(fields.password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/login?Register=true');
  const mail = await app.smtp.waitFor(fields.email, /verify/i);
  await page.goto(linkIn(mail, `${app.url}/login?`));
  await page.getByText('Account verified, please login.').waitFor();
  await logInThroughUi(app, fields.email, fields.password);
}

/** Logs in through the /login screen and waits for /home. */
export async function logInThroughUi(app: E2EApp, email: string, password: string): Promise<void> {
  const { page } = app;
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/home');
}

/**
 * Calls the API as the logged-in user, from the page (so the call carries the user's token);
 * resolves with the parsed reply.
 */
export function callApi<T>(app: E2EApp, method: string, path: string, body?: unknown): Promise<T> {
  return app.page.evaluate(
    async ({ m, p, b }) => {
      const auth = JSON.parse(localStorage.getItem('auth') ?? '{}');
      const res = await fetch(p, {
        method: m,
        headers: {
          Authorization: `Bearer ${auth.token}`,
          ...(b ? { 'Content-Type': 'application/json' } : {}),
        },
        body: b ? JSON.stringify(b) : undefined,
      });
      return res.json();
    },
    { m: method, p: path, b: body },
  ) as Promise<T>;
}

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
