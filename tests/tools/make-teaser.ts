/**
 * Makes the /teaser video from the product's own screens: `npm run teaser:make` (after
 * `npm run build`). Starts the real product (built client, embedded database, every plugin), walks
 * Debian's Chromium through the scenes of plugins/landing/teaser-scenes.ts (signed out, then
 * signed in as a fresh user) and screenshots each screen at 1280×720. Then, in the same Chromium,
 * draws the screenshots onto a canvas, each screen pushing the previous one out, and encodes the frames with WebCodecs'
 * VideoEncoder (VP9, a fixed quantizer per frame, a key frame as each still begins, so no trace
 * of the previous screen lingers); tests/tools/webm.ts muxes them into a WebM with its duration
 * and cue points. Frames are encoded as fast as Chromium can, not in real time.
 *
 * Writes plugins/landing/media/teaser.webm, teaser-poster.webp and teaser.en.vtt (the captions,
 * one cue per scene), and fails if the video is not under 2 MB. Nothing but Chromium is needed,
 * and the product never needs this script at run time: it serves the committed files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS, createVerifiedUser, startE2EApp } from '../e2e/support/app';
import { TEASER_SCENES, teaserCaptions } from '../../plugins/landing/teaser-scenes';
import { encodeTeaser, HEIGHT, WIDTH } from './teaser-encoder';
import { readWebm } from './webm';

const repo = path.resolve(__dirname, '../..');
const OUT = path.join(repo, 'plugins', 'landing', 'media');
/** "under 2 MB", read strictly: 2,000,000 bytes */
const TEASER_MAX_BYTES = 2_000_000;

const USER = { name: 'Alex Morgan', email: 'alex.morgan@northwind.example', password: 'Teaser-Journey-2026' };

/** Waits until the screen's data has arrived: no spinner, fonts loaded, the network quiet. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page
    .waitForFunction(() => !document.querySelector('.fui-Spinner'), undefined, {
      timeout: 20_000,
    })
    .catch(() => undefined);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForTimeout(400);
}

/** What each scene does on its screen before it is filmed (fills a form, runs a workflow). */
const ACTIONS: Record<string, (page: Page) => Promise<void>> = {
  '/register': async (page) => {
    await page.getByLabel('Name', { exact: true }).fill(USER.name);
    await page.getByLabel('Company Email').fill(USER.email);
    await page.getByLabel('Your Role').selectOption({ label: 'Business Manager' });
    await page.getByLabel('Company Name').fill('Northwind Traders');
    await page.getByLabel('Password', { exact: true }).fill(USER.password);
    await page.getByLabel('Confirm Password').fill(USER.password);
    await page.getByRole('checkbox').check();
  },
  '/login': async (page) => {
    await page.getByLabel('Email').fill(USER.email);
    await page.getByLabel('Password', { exact: true }).fill(USER.password);
  },
  '/home': async (page) => {
    await page.getByText(`Welcome ${USER.name}`).waitFor();
    // fold the introduction and the (still empty) active list, so the recommendations show
    for (const section of ['Your new home page', 'Active Combinations']) {
      const toggle = page.getByRole('button', { name: section });
      if ((await toggle.getAttribute('aria-expanded')) !== 'false') await toggle.click();
    }
  },
  '/solutions/combinations/workflow/8': async (page) => {
    await page.getByRole('heading', { name: 'Connect Source' }).waitFor();
  },
  '/workflow/10002': async (page) => {
    await page
      .getByRole('textbox', { name: /Text to analyse/ })
      .fill('I love the new invoice screen, it is wonderful! The delivery arrived on Tuesday. I am worried the payment will bounce.');
    await page.getByRole('button', { name: 'Get Emotion' }).click();
    const results = page.getByRole('region', { name: 'Emotions' });
    await results.getByRole('listitem').first().waitFor();
    await results.evaluate((el) => el.scrollIntoView({ block: 'end' }));
  },
  '/hal': async (page) => {
    await page.getByLabel('Company name').fill('Northwind Traders');
    await page.getByLabel('Website').fill('https://northwind.example');
    await page.getByLabel('Email').fill(USER.email);
    await page.getByLabel('Voice').selectOption('Steve Irwin');
  },
};

/** Screenshots every scene (PNG, 1280×720), signing in through /login when the journey reaches it. */
async function filmScenes(page: Page): Promise<Buffer[]> {
  const shots: Buffer[] = [];
  for (const scene of TEASER_SCENES) {
    if (scene.path === '/home') {
      // the /login scene left the filled form: signing in is what takes the user home
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL('**/home');
    } else {
      await page.goto(scene.path);
    }
    await settle(page);
    await ACTIONS[scene.path]?.(page);
    await settle(page);
    // the text cursor of a focused field would blink in and out of the frames
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const shot = await page.screenshot({ type: 'png' });
    // each screen as filmed, to look at (tests/artifacts is not committed)
    writeFileSync(path.join(ARTIFACTS, `teaser-scene-${shots.length + 1}.png`), shot);
    shots.push(shot);
    console.log(`filmed ${scene.path}`);
  }
  return shots;
}

async function main(): Promise<void> {
  const app = await startE2EApp({ LOG_LEVEL: 'error' });
  try {
    await createVerifiedUser(app, USER);
    const context = await app.browser.newContext({
      viewport: { width: WIDTH, height: HEIGHT },
      baseURL: app.url,
      deviceScaleFactor: 1,
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    const shots = await filmScenes(page);

    // WebCodecs needs a secure context: a document of the product's own origin (127.0.0.1)
    const studio = await context.newPage();
    await studio.goto('/api/plugins/landing/studio');
    const started = Date.now();
    const { webm, poster } = await encodeTeaser(studio, shots, `Chromium ${app.browser.version()} WebCodecs`);
    const summary = readWebm(webm);
    console.log(`encoded ${summary.frames} frames (${summary.keyFrames} key) in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    if (webm.length >= TEASER_MAX_BYTES)
      throw new Error(`The teaser is ${webm.length} bytes, over the 2 MB limit: raise TEASER_STILL_Q or TEASER_FADE_Q (VP9 quantizers).`);
    mkdirSync(OUT, { recursive: true });
    writeFileSync(path.join(OUT, 'teaser.webm'), webm);
    writeFileSync(path.join(OUT, 'teaser-poster.webp'), poster);
    writeFileSync(path.join(OUT, 'teaser.en.vtt'), teaserCaptions());
    console.log(
      `teaser.webm: ${webm.length} bytes, ${summary.durationMs! / 1000} s, ${summary.width}×${summary.height} ${summary.codec}; teaser-poster.webp: ${poster.length} bytes`,
    );
    await context.close();
  } finally {
    await app.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
