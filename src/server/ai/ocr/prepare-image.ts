import { createCanvas, loadImage } from '@napi-rs/canvas';

/** What to do to an image before OCR. Every step is off unless set. */
export interface PrepareOptions {
  /**
   * Enlarge an image whose shorter side is below this many pixels until it reaches it (at most
   * by `maxScale`): Tesseract reads small print better when letters are 20 px or more tall.
   */
  minShortSide?: number;
  /** Largest enlargement. Default 2. */
  maxScale?: number;
  /** Convert to grayscale and stretch the contrast between the 1st and 99th percentile. */
  grayscale?: boolean;
}

export interface PreparedImage {
  /** The image to OCR (the original bytes when nothing was done). */
  image: Buffer;
  /** How much it was enlarged: OCR coordinates divided by this are in the original's pixels. */
  scale: number;
}

/** Largest side an enlarged image may have (memory and OCR time). */
const MAX_SIDE = 6000;

/**
 * Prepares a PNG or JPEG (`width` × `height` pixels) for OCR as `options` ask; returns the
 * original bytes untouched when no step applies.
 */
export async function prepareImage(image: Buffer, width: number, height: number, options: PrepareOptions): Promise<PreparedImage> {
  const short = Math.min(width, height);
  let scale = 1;
  if (options.minShortSide && short > 0 && short < options.minShortSide) {
    scale = Math.min(options.maxScale ?? 2, options.minShortSide / short, MAX_SIDE / Math.max(width, height));
    if (scale < 1.05) scale = 1;
  }
  if (scale === 1 && !options.grayscale) return { image, scale: 1 };
  const img = await loadImage(image);
  const w = Math.round(img.width * scale);
  const h = Math.round(img.height * scale);
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, w, h);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(img, 0, 0, w, h);
  if (options.grayscale) {
    const data = ctx.getImageData(0, 0, w, h);
    stretchGray(data.data);
    ctx.putImageData(data, 0, 0);
  }
  return { image: canvas.toBuffer('image/png'), scale: w / img.width };
}

/** RGBA pixels to gray (Rec. 601 luma), levels stretched so the 1st..99th percentile fill 0..255. */
function stretchGray(px: Uint8ClampedArray): void {
  const histogram = new Uint32Array(256);
  for (let i = 0; i < px.length; i += 4) {
    const y = (px[i] * 299 + px[i + 1] * 587 + px[i + 2] * 114) / 1000;
    px[i] = y;
    histogram[px[i]]++;
  }
  const n = px.length / 4;
  let lo = 0;
  let hi = 255;
  for (let c = 0, v = 0; v < 256; v++) {
    c += histogram[v];
    if (c >= n * 0.01) {
      lo = v;
      break;
    }
  }
  for (let c = 0, v = 255; v >= 0; v--) {
    c += histogram[v];
    if (c >= n * 0.01) {
      hi = v;
      break;
    }
  }
  const span = Math.max(1, hi - lo);
  for (let i = 0; i < px.length; i += 4) {
    const y = Math.max(0, Math.min(255, ((px[i] - lo) * 255) / span));
    px[i] = y;
    px[i + 1] = y;
    px[i + 2] = y;
    px[i + 3] = 255;
  }
}

/** An image turned upright: its bytes (PNG, no orientation tag) and its size. */
export interface OrientedImage {
  image: Buffer;
  width: number;
  height: number;
}

/**
 * The image as a viewer shows it (its EXIF orientation applied, as the decoder does), turned a
 * further `quarterTurns` × 90° clockwise, as a PNG without an orientation tag: what OCR reads
 * is then the pixels as they stand, whatever the reader makes of tags.
 */
export async function orientImage(image: Buffer, quarterTurns: number): Promise<OrientedImage> {
  const img = await loadImage(image);
  const turns = ((quarterTurns % 4) + 4) % 4;
  const width = turns % 2 ? img.height : img.width;
  const height = turns % 2 ? img.width : img.height;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  // whole-number matrices: a rotation by an angle in floating point would resample every pixel
  const [a, b, c, d, e, f] = [
    [1, 0, 0, 1, 0, 0],
    [0, 1, -1, 0, width, 0],
    [-1, 0, 0, -1, width, height],
    [0, -1, 1, 0, 0, height],
  ][turns];
  ctx.setTransform(a, b, c, d, e, f);
  ctx.drawImage(img, 0, 0);
  return { image: canvas.toBuffer('image/png'), width, height };
}
