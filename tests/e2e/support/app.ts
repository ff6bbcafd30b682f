import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildServer, type BuiltServer } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import { discoverServerPlugins } from '../../../src/server/plugin-loader';
import { launchChromium } from '../../support/browser';
import { SmtpSink } from '../../support/smtp-sink';

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
  const config = loadConfig({ DATA_DIR: dataDir, CLIENT_DIR: clientDir, SMTP_URL: smtpUrl, PORT: '0', AUTH_RATE_LIMIT: '1000', LOG_LEVEL: 'warn', ...env }, repo);
  const server = await buildServer({ config, plugins: await discoverServerPlugins(path.join(repo, 'plugins')), logger: false });
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  // the product links to PUBLIC_URL; point it at the real port now that it is known
  (config as { publicUrl: string }).publicUrl = address;
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
      await smtp.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (errors.length) throw new Error(`Uncaught errors in the page:\n${errors.join('\n')}`);
    },
  };
}
