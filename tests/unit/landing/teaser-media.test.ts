import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { imageSize } from 'image-size';
import { TEASER_SCENES, teaserCaptions, teaserTimeline } from '../../../plugins/landing/teaser-scenes';
import { frameSchedule } from '../../tools/teaser-encoder';
import { muxWebm, readWebm } from '../../tools/webm';

const media = path.resolve(__dirname, '../../../plugins/landing/media');
const total = teaserTimeline().at(-1)!.end;

/**
 * The committed teaser (made by `npm run teaser:make`): a VP9 WebM under 2 MB whose length is the
 * scenes' total, a key frame and a cue point per scene; a 1280×720 WebP poster; and captions that
 * are exactly what the scene list says.
 */
describe('the committed teaser files', () => {
  it('teaser.webm: WebM/VP9, 1280×720, under 2 MB, its duration written, a key frame and cue per scene', () => {
    const file = path.join(media, 'teaser.webm');
    expect(statSync(file).size).toBeLessThan(2_000_000);
    const webm = readWebm(readFileSync(file));
    expect(webm).toMatchObject({ docType: 'webm', codec: 'V_VP9', width: 1280, height: 720, durationMs: total * 1000 });
    expect(webm.lastFrameMs).toBeLessThanOrEqual(total * 1000);
    expect(webm.lastFrameMs).toBeGreaterThan(total * 1000 - 1000);
    expect(webm.keyFrames).toBe(TEASER_SCENES.length);
    expect(webm.cuePoints).toBe(TEASER_SCENES.length);
  });

  it('teaser-poster.webp: a 1280×720 WebP', () => {
    const poster = readFileSync(path.join(media, 'teaser-poster.webp'));
    expect(poster.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(poster.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(imageSize(poster)).toMatchObject({ width: 1280, height: 720 });
  });

  it('teaser.en.vtt: the WebVTT cues of the scene list, one per scene, back to back', () => {
    const vtt = readFileSync(path.join(media, 'teaser.en.vtt'), 'utf8');
    expect(vtt).toBe(teaserCaptions());
    expect(vtt.startsWith('WEBVTT')).toBe(true);
    const cues = [...vtt.matchAll(/^(\d\d:\d\d:\d\d\.\d{3}) --> (\d\d:\d\d:\d\d\.\d{3})\n(.+)$/gm)];
    expect(cues.map((c) => c[3])).toEqual(TEASER_SCENES.map((s) => s.caption));
    expect(cues[0][1]).toBe('00:00:00.000');
    expect(cues.at(-1)![2]).toBe(`00:00:${String(total).padStart(2, '0')}.000`);
    for (let i = 1; i < cues.length; i++) expect(cues[i][1]).toBe(cues[i - 1][2]);
  });
});

describe('the teaser maker', () => {
  it('schedules a key frame as each scene stands still, in time order, within the video', () => {
    const frames = frameSchedule();
    expect(frames[0]).toMatchObject({ t: 0, key: true });
    expect(frames.filter((f) => f.key)).toHaveLength(TEASER_SCENES.length);
    for (let i = 1; i < frames.length; i++) expect(frames[i].t).toBeGreaterThan(frames[i - 1].t);
    expect(frames.at(-1)!.t).toBeLessThan(total);
    // each key frame falls inside its own scene
    const starts = teaserTimeline().map((s) => s.start);
    frames.filter((f) => f.key).forEach((f, i) => expect(f.t).toBeGreaterThanOrEqual(starts[i]));
  });

  it('muxes frames into a WebM that reads back the same', () => {
    const frames = [
      { timeMs: 0, key: true, data: Buffer.alloc(300, 1) },
      { timeMs: 500, key: false, data: Buffer.alloc(20, 2) },
      { timeMs: 1000, key: true, data: Buffer.alloc(70_000, 3) },
      { timeMs: 1500, key: false, data: Buffer.alloc(10, 4) },
    ];
    const webm = muxWebm({ width: 640, height: 360, durationMs: 2000, frames, writingApp: 'test' });
    expect(webm.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
    expect(readWebm(webm)).toEqual({
      docType: 'webm',
      codec: 'V_VP9',
      width: 640,
      height: 360,
      durationMs: 2000,
      lastFrameMs: 1500,
      frames: 4,
      keyFrames: 2,
      cuePoints: 2,
    });
  });

  it('refuses a video that does not start with a key frame, and a file that is not WebM', () => {
    expect(() => muxWebm({ width: 2, height: 2, durationMs: 1, frames: [{ timeMs: 0, key: false, data: Buffer.alloc(1) }], writingApp: 't' })).toThrow(
      'A WebM video must start with a key frame.',
    );
    expect(() => readWebm(Buffer.from('RIFF0000WEBPVP8 '))).toThrow(/Not a WebM file/);
  });
});
