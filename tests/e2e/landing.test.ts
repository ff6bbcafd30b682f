import { seriousAxeFindings, sidewaysOverflow } from './support/axe';
import { startE2EApp, type E2EApp } from './support/app';
import { TEASER_SCENES, teaserTimeline } from '../../plugins/landing/teaser-scenes';

jest.setTimeout(180_000);

const TOTAL = teaserTimeline().at(-1)!.end;

/**
 * Issue 14's landing pages in Debian's Chromium, against the built client: /welcome (spec
 * section 2: 'Start for free' to /register, cards to /mia and /hal, links to /login and
 * /register) and /teaser, whose video the product ships: the WebM, its poster and its captions
 * are served with their content types, the video's metadata loads (a finite duration), the
 * captions show, and the keyboard alone plays it. Screenshots go to tests/artifacts/.
 */
describe('the landing pages /welcome and /teaser', () => {
  let app: E2EApp;
  const refused: string[] = [];
  beforeAll(async () => {
    app = await startE2EApp();
    // a Content-Security-Policy refusal (e.g. of a media file) shows up on the console
    app.page.on('console', (m) => /Refused to|Content Security Policy/i.test(m.text()) && refused.push(m.text()));
  });
  afterAll(() => app?.close());
  afterEach(() => expect(refused).toEqual([]));

  /** At 320 px wide the page does not scroll sideways (screenshot `name`); then back to 1366 px. */
  async function fitsA320pxPhone(name: string) {
    await app.page.setViewportSize({ width: 320, height: 800 });
    const { scrollWidth, innerWidth } = await sidewaysOverflow(app.page);
    await app.screenshot(name);
    await app.page.setViewportSize({ width: 1366, height: 900 });
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  }

  it("/welcome: the hero, 'Start for free', the two tool cards, Log in and Sign up; no serious axe finding", async () => {
    const { page } = app;
    await page.goto('/welcome');
    await page.getByRole('heading', { level: 1, name: 'Automate your business with AI workflows' }).waitFor();
    expect(await page.getByRole('link', { name: 'Start for free' }).getAttribute('href')).toBe('/register');
    expect(await page.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
    expect(await page.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/register');
    expect(await page.getByRole('link', { name: /Watch the tour/ }).getAttribute('href')).toBe('/teaser');
    const tools = page.getByRole('region', { name: 'Free AI tools' });
    expect(await tools.getByRole('link', { name: /Press release generator/ }).getAttribute('href')).toBe('/mia');
    expect(await tools.getByRole('link', { name: /AI pitch generator/ }).getAttribute('href')).toBe('/hal');
    expect(await seriousAxeFindings(page)).toEqual([]);
    await app.screenshot('landing-welcome');

    await fitsA320pxPhone('landing-welcome-320');
  });

  it("/welcome: 'Start for free' opens /register, a card opens /hal, 'Watch the tour' opens /teaser", async () => {
    const { page } = app;
    await page.goto('/welcome');
    await page.getByRole('link', { name: 'Start for free' }).click();
    await page.waitForURL('**/register');
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    await page.goto('/welcome');
    await page.getByRole('link', { name: /AI pitch generator/ }).click();
    await page.waitForURL('**/hal');
    await page.goto('/welcome');
    await page.getByRole('link', { name: /Watch the tour/ }).click();
    await page.waitForURL('**/teaser');
    await page.getByRole('heading', { level: 1, name: 'Something new is coming' }).waitFor();
  });

  it('/teaser: the WebM, poster and captions are served with their types; the video is under 2 MB', async () => {
    const { page } = app;
    await page.goto('/teaser');
    const video = page.locator('video');
    await video.waitFor();
    const urls = await video.evaluate((v: HTMLVideoElement) => ({
      video: (v.querySelector('source') as HTMLSourceElement).src,
      poster: v.poster,
      captions: (v.querySelector('track') as HTMLTrackElement).src,
    }));
    // served by the product itself, from the built client's hashed assets
    for (const url of Object.values(urls)) expect(url).toMatch(new RegExp(`^${app.url}/assets/[\\w.-]+\\.[0-9a-f]{8}\\.(webm|webp|vtt)$`));

    const webm = await page.request.get(urls.video);
    expect(webm.status()).toBe(200);
    expect(webm.headers()['content-type']).toBe('video/webm');
    const bytes = await webm.body();
    expect(bytes.length).toBeLessThan(2_000_000);
    expect(Number(webm.headers()['content-length'])).toBe(bytes.length);
    expect(bytes.subarray(0, 4).toString('hex')).toBe('1a45dfa3'); // EBML
    // seeking asks for byte ranges
    const part = await page.request.get(urls.video, { headers: { Range: 'bytes=0-1023' } });
    expect(part.status()).toBe(206);
    expect((await part.body()).length).toBe(1024);

    const poster = await page.request.get(urls.poster);
    expect(poster.status()).toBe(200);
    expect(poster.headers()['content-type']).toBe('image/webp');

    const vtt = await page.request.get(urls.captions);
    expect(vtt.status()).toBe(200);
    expect(vtt.headers()['content-type']).toMatch(/^text\/vtt/);
    const text = await vtt.text();
    expect(text.startsWith('WEBVTT')).toBe(true);
    for (const scene of TEASER_SCENES) expect(text).toContain(scene.caption);
  });

  it('/teaser: the metadata loads (finite duration), the poster shows, the captions track is on, nothing plays by itself', async () => {
    const { page } = app;
    await page.goto('/teaser');
    const video = page.locator('video');
    await page.waitForFunction(() => ((document.querySelector('video') as HTMLVideoElement | null)?.readyState ?? 0) >= 1);
    const state = await video.evaluate((v: HTMLVideoElement) => ({
      readyState: v.readyState,
      duration: v.duration,
      width: v.videoWidth,
      height: v.videoHeight,
      paused: v.paused,
      autoplay: v.autoplay,
      preload: v.preload,
      controls: v.controls,
      error: v.error?.code ?? null,
    }));
    expect(state).toMatchObject({ width: 1280, height: 720, paused: true, autoplay: false, preload: 'metadata', controls: true, error: null });
    expect(state.readyState).toBeGreaterThanOrEqual(1);
    expect(Number.isFinite(state.duration)).toBe(true);
    expect(state.duration).toBeCloseTo(TOTAL, 1);

    // the poster image has loaded: the same URL in an <img> decodes to 1280×720
    const poster = await video.evaluate(async (v: HTMLVideoElement) => {
      const img = new Image();
      img.src = v.poster;
      await img.decode();
      return { w: img.naturalWidth, h: img.naturalHeight };
    });
    expect(poster).toEqual({ w: 1280, h: 720 });

    // the default English captions track: showing, one cue per scene, in scene order
    await page.waitForFunction(() => {
      const t = (document.querySelector('video') as HTMLVideoElement).textTracks[0];
      return t?.mode === 'showing' && (t.cues?.length ?? 0) > 0;
    });
    const track = await video.evaluate((v: HTMLVideoElement) => {
      const t = v.textTracks[0];
      return {
        kind: t.kind,
        language: t.language,
        label: t.label,
        cues: Array.from(t.cues ?? []).map((c) => ({ start: c.startTime, end: c.endTime, text: (c as VTTCue).text })),
      };
    });
    expect(track).toMatchObject({ kind: 'captions', language: 'en', label: 'English' });
    expect(track.cues.map((c) => c.text)).toEqual(TEASER_SCENES.map((s) => s.caption));
    expect(track.cues.at(-1)!.end).toBeCloseTo(TOTAL, 3);

    expect(await seriousAxeFindings(page)).toEqual([]);
    await app.screenshot('landing-teaser');
    await fitsA320pxPhone('landing-teaser-320');
  });

  it('/teaser: the keyboard alone reaches the player and plays it; the caption of the scene shows', async () => {
    const { page } = app;
    await page.goto('/teaser');
    await page.waitForFunction(() => ((document.querySelector('video') as HTMLVideoElement | null)?.readyState ?? 0) >= 1);
    // Tab from the top of the page until the focus is in the video's controls
    let reached = false;
    for (let i = 0; i < 12 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.tagName === 'VIDEO');
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Space');
    await page.waitForFunction(() => {
      const v = document.querySelector('video') as HTMLVideoElement;
      return !v.paused && v.currentTime > 0.5;
    });
    // jump into the fifth scene and let it play a moment: its caption is the active cue
    const scene = teaserTimeline()[4];
    await page.evaluate((t) => ((document.querySelector('video') as HTMLVideoElement).currentTime = t), scene.start + 1);
    await page.waitForFunction((t) => (document.querySelector('video') as HTMLVideoElement).currentTime > t, scene.start + 1.5);
    await page.evaluate(() => (document.querySelector('video') as HTMLVideoElement).pause());
    const active = await page.evaluate(() =>
      Array.from((document.querySelector('video') as HTMLVideoElement).textTracks[0].activeCues ?? []).map((c) => (c as VTTCue).text),
    );
    expect(active).toEqual([scene.caption]);
    await page.waitForTimeout(300);
    await app.screenshot('landing-teaser-playing');
  });

  it('/teaser: the transcript opens from the keyboard and lists every scene; Log in and Register link on', async () => {
    const { page } = app;
    await page.goto('/teaser');
    expect(await page.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
    expect(await page.getByRole('link', { name: 'Register' }).getAttribute('href')).toBe('/register');
    await page.getByText('Transcript', { exact: true }).focus();
    await page.keyboard.press('Enter');
    const lines = page.locator('#teaser-transcript li');
    await lines.first().waitFor();
    expect(await lines.allInnerTexts()).toEqual(TEASER_SCENES.map((s, i) => `${clockOf(i)} ${s.caption}`));
    await app.screenshot('landing-teaser-transcript');
  });
});

function clockOf(i: number): string {
  const s = teaserTimeline()[i].start;
  return `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;
}
