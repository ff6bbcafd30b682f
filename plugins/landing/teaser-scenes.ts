/**
 * The scenes of the teaser video, in order: the screen each one films and the caption that
 * describes it. One list feeds three things, so they cannot drift apart: the video maker
 * (tests/tools/make-teaser.ts films each `path` for `seconds`), the WebVTT captions it writes
 * next to the video, and the transcript under the player on /teaser.
 */
export interface TeaserScene {
  /** the product screen filmed */
  path: string;
  /** what the scene shows, in words (caption and transcript line) */
  caption: string;
  /** how long the scene stays on screen, its share of the transitions included */
  seconds: number;
}

/** Length of the transition from one scene into the next (the next screen pushes the last out). */
export const TEASER_TRANSITION_SECONDS = 0.5;

export const TEASER_SCENES: readonly TeaserScene[] = [
  {
    path: '/welcome',
    caption: 'Flowmatic automates your business with AI workflows, free for 30 days.',
    seconds: 4,
  },
  {
    path: '/register',
    caption: 'Sign up with your name, work e-mail, company and role.',
    seconds: 3.5,
  },
  { path: '/login', caption: 'Verify your e-mail, then log in.', seconds: 3 },
  {
    path: '/home',
    caption: 'Your home page lists your active and recommended combinations.',
    seconds: 4,
  },
  {
    path: '/solutions',
    caption: 'Solutions group the workflows: Finance, Operations, Customer Experience and more.',
    seconds: 4,
  },
  {
    path: '/solution/1',
    caption: 'Finance: invoice extraction, reconciliation, financial analysis and more.',
    seconds: 3.5,
  },
  {
    path: '/solutions/combinations/10004',
    caption: 'Each workflow offers combinations: a trigger source plus actions.',
    seconds: 3.5,
  },
  {
    path: '/solutions/combinations/workflow/8',
    caption: 'Set up a combination: connect your apps, then switch its automation on.',
    seconds: 4,
  },
  {
    path: '/workflow/10002',
    caption: 'AI workflows at work: emotion analysis reads a text sentence by sentence.',
    seconds: 4.5,
  },
  {
    path: '/hal',
    caption: 'Free tools: Hal writes a sales pitch from your website, and Mia a press release.',
    seconds: 4,
  },
];

/** Start and end (seconds) of each scene on the video's timeline. */
export function teaserTimeline(scenes: readonly TeaserScene[] = TEASER_SCENES): Array<TeaserScene & { start: number; end: number }> {
  let t = 0;
  return scenes.map((scene) => {
    const start = t;
    t += scene.seconds;
    return { ...scene, start, end: t };
  });
}

/** `00:00:03.500` */
function vttTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** The WebVTT captions of the video: one cue per scene, numbered. */
export function teaserCaptions(scenes: readonly TeaserScene[] = TEASER_SCENES): string {
  const cues = teaserTimeline(scenes).map((s, i) => `${i + 1}\n${vttTime(s.start)} --> ${vttTime(s.end)}\n${s.caption}\n`);
  return `WEBVTT - Flowmatic teaser\n\n${cues.join('\n')}`;
}
