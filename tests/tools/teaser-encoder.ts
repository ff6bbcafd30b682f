/**
 * Encodes the teaser in Chromium: the scene screenshots are drawn onto a canvas, each screen
 * wiping the previous one away as the scene changes, and each frame is encoded with WebCodecs' VideoEncoder (VP9, a fixed quantizer per
 * frame, a key frame as each still begins, so no trace of the previous screen lingers), as fast
 * as Chromium can rather than in real time; ./webm.ts muxes the frames into a WebM.
 */
import type { Page } from 'playwright-core';
import { TEASER_TRANSITION_SECONDS, teaserTimeline } from '../../plugins/landing/teaser-scenes';
import { muxWebm } from './webm';

export const WIDTH = 1280;
export const HEIGHT = 720;
/** frames per second during a transition */
const MOVE_FPS = 24;
/** frames per second while a screen stands still (each repeats the last: a few bytes) */
const STILL_FPS = 2;
/** VP9 quantizers (0 best … 63 worst): the still screens, which a viewer reads, and the moves */
const STILL_Q = Number(process.env.TEASER_STILL_Q ?? 22);
const MOVE_Q = Number(process.env.TEASER_MOVE_Q ?? 44);

interface Scheduled {
  /** seconds */
  t: number;
  key: boolean;
  q: number;
}

/**
 * The frames to encode, in order: each still screen opens with a key frame and repeats every
 * 1/STILL_FPS s (a repeat costs a few bytes); each transition (TEASER_TRANSITION_SECONDS, centred
 * on a scene boundary) has MOVE_FPS frames a second.
 */
export function frameSchedule(): Scheduled[] {
  const timeline = teaserTimeline();
  const half = TEASER_TRANSITION_SECONDS / 2;
  const out: Scheduled[] = [];
  timeline.forEach((scene, i) => {
    const from = i === 0 ? 0 : scene.start + half;
    const to = i === timeline.length - 1 ? scene.end - 1 / 30 : scene.end - half;
    for (let t = from; t < to; t += 1 / STILL_FPS) out.push({ t, key: t === from, q: STILL_Q });
    if (i === timeline.length - 1) out.push({ t: to, key: false, q: STILL_Q });
    else for (let k = 1; k / MOVE_FPS < TEASER_TRANSITION_SECONDS; k++) out.push({ t: to + k / MOVE_FPS, key: false, q: MOVE_Q });
  });
  return out.map((f) => ({ ...f, t: Math.round(f.t * 1000) / 1000 }));
}

interface EncodedChunk {
  t: number;
  key: boolean;
  b64: string;
}

/** Draws and encodes the scheduled frames in the page; returns the VP9 chunks and the poster. */
async function encodeChunks(page: Page, shots: Buffer[]): Promise<{ chunks: EncodedChunk[]; poster: Buffer }> {
  const timeline = teaserTimeline().map(({ start, end }) => ({ start, end }));
  // tsx (esbuild, keepNames) wraps named inner functions in __name(...), which the page lacks
  await page.evaluate('window.__name = (fn) => fn');
  const result = await page.evaluate(
    async ({ images, timeline, schedule, transition, width, height, fps }) => {
      const toBase64 = (bytes: Uint8Array) => {
        let s = '';
        for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return btoa(s);
      };
      const bitmaps = await Promise.all(
        images.map((b64) => createImageBitmap(new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], { type: 'image/png' }))),
      );
      const canvas = new OffscreenCanvas(width, height);
      const ctx = canvas.getContext('2d')!;
      // a screen stands still, or (within half a transition of a scene boundary) the next screen
      // is wiped in from the left behind a soft edge: a frame changes only a band of the last one,
      // which costs far less than a cross-fade, whose every pixel changes and cannot be predicted
      const band = 160;
      const mask = new OffscreenCanvas(width, height);
      const mctx = mask.getContext('2d')!;
      const ease = (p: number) => (p < 0.5 ? 2 * p * p : 1 - (-2 * p + 2) ** 2 / 2);
      const draw = (t: number) => {
        const j = timeline.findIndex((s, k) => k < timeline.length - 1 && Math.abs(t - s.end) < transition / 2);
        if (j < 0) {
          const i = timeline.findIndex((s) => t < s.end);
          ctx.drawImage(bitmaps[i < 0 ? timeline.length - 1 : i], 0, 0, width, height);
          return;
        }
        const edge = Math.round((width + band) * ease((t - (timeline[j].end - transition / 2)) / transition));
        mctx.globalCompositeOperation = 'copy';
        mctx.drawImage(bitmaps[j + 1], 0, 0, width, height);
        mctx.globalCompositeOperation = 'destination-in';
        const g = mctx.createLinearGradient(edge - band, 0, edge, 0);
        g.addColorStop(0, 'rgba(0,0,0,1)');
        g.addColorStop(1, 'rgba(0,0,0,0)');
        mctx.fillStyle = g;
        mctx.fillRect(0, 0, width, height);
        ctx.drawImage(bitmaps[j], 0, 0, width, height);
        ctx.drawImage(mask, 0, 0);
      };

      draw(0);
      const posterBlob = await canvas.convertToBlob({ type: 'image/webp', quality: 0.82 });
      const poster = toBase64(new Uint8Array(await posterBlob.arrayBuffer()));

      const chunks: Array<{ t: number; key: boolean; b64: string }> = [];
      let failure: unknown;
      const encoder = new VideoEncoder({
        output: (chunk) => {
          const bytes = new Uint8Array(chunk.byteLength);
          chunk.copyTo(bytes);
          chunks.push({ t: chunk.timestamp / 1e6, key: chunk.type === 'key', b64: toBase64(bytes) });
        },
        error: (e) => (failure = e),
      });
      const config: VideoEncoderConfig = { codec: 'vp09.00.31.08', width, height, framerate: fps, bitrateMode: 'quantizer', latencyMode: 'quality' };
      if (!(await VideoEncoder.isConfigSupported(config)).supported) throw new Error('This Chromium cannot encode VP9 with a fixed quantizer');
      encoder.configure(config);
      for (const f of schedule) {
        if (failure) break;
        draw(f.t);
        const frame = new VideoFrame(canvas, { timestamp: Math.round(f.t * 1e6), duration: Math.round(1e6 / fps) });
        encoder.encode(frame, { keyFrame: f.key, vp9: { quantizer: f.q } } as VideoEncoderEncodeOptions);
        frame.close();
        while (encoder.encodeQueueSize > 2) await new Promise((r) => encoder.addEventListener('dequeue', r, { once: true }));
      }
      await encoder.flush();
      encoder.close();
      if (failure) throw failure;
      return { chunks, poster };
    },
    {
      images: shots.map((b) => b.toString('base64')),
      timeline,
      schedule: frameSchedule(),
      transition: TEASER_TRANSITION_SECONDS,
      width: WIDTH,
      height: HEIGHT,
      fps: MOVE_FPS,
    },
  );
  return { chunks: result.chunks, poster: Buffer.from(result.poster, 'base64') };
}

/**
 * The teaser as a WebM (1280×720 VP9, its duration the scenes' total) and its poster (the first
 * scene, WebP). `page` must be a document of a secure origin (WebCodecs), e.g. http://127.0.0.1.
 */
export async function encodeTeaser(page: Page, shots: Buffer[], writingApp: string): Promise<{ webm: Buffer; poster: Buffer }> {
  const { chunks, poster } = await encodeChunks(page, shots);
  const webm = muxWebm({
    width: WIDTH,
    height: HEIGHT,
    durationMs: teaserTimeline().at(-1)!.end * 1000,
    frames: chunks.map((c) => ({ timeMs: c.t * 1000, key: c.key, data: Buffer.from(c.b64, 'base64') })),
    writingApp,
  });
  return { webm, poster };
}
