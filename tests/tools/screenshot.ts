/**
 * Takes a screenshot of a page: `tsx tests/tools/screenshot.ts <url> <out.png> [width] [height]`.
 * With LOGIN_EMAIL and LOGIN_PASSWORD set, logs in through /login first.
 */
import { launchChromium } from '../support/browser';

async function main() {
  const [url, out, w = '1366', h = '900'] = process.argv.slice(2);
  if (!url || !out) throw new Error('usage: screenshot.ts <url> <out.png> [width] [height]');
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: Number(w), height: Number(h) } });
    if (process.env.LOGIN_EMAIL && process.env.LOGIN_PASSWORD) {
      const origin = new URL(url).origin;
      await page.goto(`${origin}/login`);
      await page.getByLabel('Email').fill(process.env.LOGIN_EMAIL);
      await page.getByLabel('Password', { exact: true }).fill(process.env.LOGIN_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL('**/home');
    }
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.waitForTimeout(Number(process.env.SETTLE_MS ?? 500));
    await page.screenshot({ path: out, fullPage: true });
  } finally {
    await browser.close();
  }
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
