import { createCanvas, ImageData, loadImage, type Canvas, type Image, type SKRSContext2D } from '@napi-rs/canvas';

/**
 * Images made here for OCR are handed to Tesseract as binary PPM (P6: a short header, then the
 * RGB bytes), not PNG: compressing a PNG of an 8-megapixel photo took 1.7 s here, the PPM 0.14 s,
 * and Tesseract reads the same words from both (and decodes the PPM faster).
 */
function toPixmap(ctx: SKRSContext2D, width: number, height: number): Buffer {
  const rgba = ctx.getImageData(0, 0, width, height).data;
  const header = Buffer.from(`P6\n${width} ${height}\n255\n`, 'ascii');
  const out = Buffer.allocUnsafe(header.length + width * height * 3);
  header.copy(out);
  for (let i = 0, j = header.length; i < rgba.length; i += 4, j += 3) {
    out[j] = rgba[i];
    out[j + 1] = rgba[i + 1];
    out[j + 2] = rgba[i + 2];
  }
  return out;
}

/** A binary PPM's size and where its pixels start (undefined for any other image). */
function pixmapHeader(image: Buffer): { width: number; height: number; offset: number } | undefined {
  const m = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(image.subarray(0, 40).toString('latin1'));
  return m ? { width: Number(m[1]), height: Number(m[2]), offset: m[0].length } : undefined;
}

/** An image to draw from: a PNG or JPEG (its EXIF orientation applied, as the decoder does), or a PPM made here. */
async function decode(image: Buffer): Promise<Image | Canvas> {
  const pnm = pixmapHeader(image);
  if (!pnm) return loadImage(image);
  const { width, height, offset } = pnm;
  // its size from its bytes, never from its header alone
  if (width < 1 || height < 1 || image.length !== offset + width * height * 3)
    throw new Error('The image could not be read (a PPM whose size does not match its header).');
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0, j = offset; i < rgba.length; i += 4, j += 3) {
    rgba[i] = image[j];
    rgba[i + 1] = image[j + 1];
    rgba[i + 2] = image[j + 2];
    rgba[i + 3] = 255;
  }
  const canvas = createCanvas(width, height);
  canvas.getContext('2d').putImageData(new ImageData(rgba, width, height), 0, 0);
  return canvas;
}

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
  /** Whiten a table's ruled lines (see removeRules) before reading. */
  unrule?: boolean;
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
  if (scale === 1 && !options.grayscale && !options.unrule) return { image, scale: 1 };
  const img = await decode(image);
  const w = Math.round(img.width * scale);
  const h = Math.round(img.height * scale);
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, w, h);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(img, 0, 0, w, h);
  if (options.grayscale || options.unrule) {
    const data = ctx.getImageData(0, 0, w, h);
    if (options.grayscale) stretchGray(data.data);
    if (options.unrule) removeRules(data.data, w, h);
    ctx.putImageData(data, 0, 0);
  }
  return { image: toPixmap(ctx, w, h), scale: w / img.width };
}

/**
 * Whitens the ruled lines of tables and boxes (RGBA pixels, `width` × `height`): dark runs along
 * a row at least 4% of the image's width long, or down a column at least 4% of its height, that
 * are thin across (at most a 250th of the shorter side, 3 px at least). Tesseract takes a column
 * of numbers boxed in by rules for a picture and reads none of it; a filled bar (a heading printed
 * white on black) is thick and kept, and no letter is that long.
 */
export function removeRules(px: Uint8ClampedArray, width: number, height: number): void {
  const dark = new Uint8Array(width * height);
  for (let i = 0, j = 0; j < dark.length; i += 4, j++) dark[j] = px[i] * 299 + px[i + 1] * 587 + px[i + 2] * 114 < 140_000 ? 1 : 0;
  const thin = Math.max(3, Math.round(Math.min(width, height) / 250));
  const erase = new Uint8Array(width * height);
  // along: the runs of `dark` of at least `min` pixels on each of `lines` lines of `length` pixels (index = at(line, k))
  const mark = (lines: number, length: number, min: number, at: (line: number, k: number) => number, into: Uint8Array) => {
    for (let line = 0; line < lines; line++) {
      let run = 0;
      for (let k = 0; k <= length; k++) {
        if (k < length && dark[at(line, k)]) run++;
        else {
          if (run >= min) for (let r = k - run; r < k; r++) into[at(line, r)] = 1;
          run = 0;
        }
      }
    }
  };
  // across: the runs of marked pixels no thicker than `thin`, erased
  const keepThin = (marked: Uint8Array, lines: number, length: number, at: (line: number, k: number) => number) => {
    for (let line = 0; line < lines; line++) {
      let run = 0;
      for (let k = 0; k <= length; k++) {
        if (k < length && marked[at(line, k)]) run++;
        else {
          if (run > 0 && run <= thin) for (let r = k - run; r < k; r++) erase[at(line, r)] = 1;
          run = 0;
        }
      }
    }
  };
  const row = (y: number, x: number) => y * width + x;
  const column = (x: number, y: number) => y * width + x;
  const horizontal = new Uint8Array(width * height);
  mark(height, width, Math.max(20, Math.round(width * 0.04)), row, horizontal);
  keepThin(horizontal, width, height, column);
  const vertical = new Uint8Array(width * height);
  mark(width, height, Math.max(20, Math.round(height * 0.04)), column, vertical);
  keepThin(vertical, height, width, row);
  for (let j = 0, i = 0; j < erase.length; j++, i += 4) if (erase[j]) px[i] = px[i + 1] = px[i + 2] = 255;
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

/** An image turned upright: its bytes (PPM, no orientation tag) and its size. */
export interface OrientedImage {
  image: Buffer;
  width: number;
  height: number;
}

/**
 * The image as a viewer shows it (its EXIF orientation applied, as the decoder does), turned a
 * further `quarterTurns` × 90° clockwise, as a PPM (no orientation tag): what OCR reads
 * is then the pixels as they stand, whatever the reader makes of tags.
 */
export async function orientImage(image: Buffer, quarterTurns: number): Promise<OrientedImage> {
  const img = await decode(image);
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
  return { image: toPixmap(ctx, width, height), width, height };
}

/** A rectangle of an image, in its pixels. */
export interface Rectangle {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The given rectangles of an image, each as an image of its own (PPM), the image decoded once. Tesseract's
 * own rectangle option decodes the whole image again for every rectangle: on a 200-dpi page, up
 * to about 160 ms per number read again, against about 16 ms for a cut-out.
 */
export async function cropImages(image: Buffer, rectangles: readonly Rectangle[]): Promise<Buffer[]> {
  if (rectangles.length === 0) return [];
  const img = await decode(image);
  return rectangles.map(({ left, top, width, height }) => {
    const canvas = createCanvas(Math.max(1, width), Math.max(1, height));
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, width, height);
    ctx.drawImage(img, left, top, width, height, 0, 0, width, height);
    return toPixmap(ctx, Math.max(1, width), Math.max(1, height));
  });
}
