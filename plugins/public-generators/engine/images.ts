import { createCanvas, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import { imageSize } from 'image-size';
import { hash } from './text-tools';

/**
 * Images for /mia: a generated logo (initials on a colour derived from the name), two generated
 * banners, and re-encoding of a site's own logo. Everything served is PNG drawn or re-encoded by
 * the server, so a fetched SVG (which could carry script) is never passed on as it came.
 */

/** An image that cannot be used. */
export class ImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageError';
  }
}

export const MAX_PIXELS = 40_000_000;
const FONT = '"DejaVu Sans", "Liberation Sans", Arial, sans-serif';

/** A colour pair derived from text, so the same company always gets the same colours. */
function palette(text: string, variant = 0): { hue: number; base: string; light: string; dark: string } {
  const hue = ((hash(`${text}#${variant}`) % 360) + variant * 137) % 360;
  return {
    hue,
    base: `hsl(${hue}, 62%, 42%)`,
    light: `hsl(${(hue + 40) % 360}, 70%, 58%)`,
    dark: `hsl(${(hue + 330) % 360}, 60%, 22%)`,
  };
}

/** Up to two initials: "Brightwater Analytics" → "BA", "acme" → "A". */
export function initials(name: string): string {
  const parts = name
    .trim()
    .split(/[\s\-_.&]+/)
    .map((p) => p.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter(Boolean);
  if (parts.length === 0) throw new ImageError('A logo needs a company name.');
  return parts
    .slice(0, 2)
    .map((p) => Array.from(p)[0].toUpperCase())
    .join('');
}

/** Generates a square PNG logo: the company's initials on a rounded tile of its own colour. */
export function generateLogoPng(companyName: string, size = 512): Buffer {
  const letters = initials(companyName);
  const colours = palette(companyName);
  const canvas = createCanvas(size, size);
  const ctx = canvas.getContext('2d');
  const gradient = ctx.createLinearGradient(0, 0, size, size);
  gradient.addColorStop(0, colours.light);
  gradient.addColorStop(1, colours.base);
  ctx.fillStyle = gradient;
  ctx.beginPath();
  ctx.roundRect(0, 0, size, size, size * 0.18);
  ctx.fill();
  ctx.fillStyle = '#ffffff';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = `bold ${Math.round(size * (letters.length > 1 ? 0.4 : 0.5))}px ${FONT}`;
  ctx.fillText(letters, size / 2, size / 2 + size * 0.02);
  return canvas.toBuffer('image/png');
}

/** Breaks text into lines that fit `maxWidth`, at most `maxLines` (the last one ellipsised). */
function wrap(ctx: SKRSContext2D, text: string, maxWidth: number, maxLines: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const attempt = current ? `${current} ${word}` : word;
    if (ctx.measureText(attempt).width <= maxWidth || !current) current = attempt;
    else {
      lines.push(current);
      current = word;
    }
  }
  if (current) lines.push(current);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = `${kept[maxLines - 1].replace(/\s+\S*$/, '')}…`;
    return kept;
  }
  return lines;
}

export type BannerVariant = 1 | 2;

/**
 * Generates a 1200×630 PNG banner with the text as its title. Variant 1 is a diagonal gradient
 * with soft circles; variant 2 a radial glow with diagonal stripes in another hue, so the two
 * images of one release differ.
 */
export function generateBannerPng(text: string, variant: BannerVariant, width = 1200, height = 630): Buffer {
  const title = text.trim();
  if (!title) throw new ImageError('A banner needs some text.');
  const colours = palette(title, variant);
  const seed = hash(`${title}@${variant}`);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');

  if (variant === 1) {
    const gradient = ctx.createLinearGradient(0, 0, width, height);
    gradient.addColorStop(0, colours.dark);
    gradient.addColorStop(1, colours.light);
    ctx.fillStyle = gradient;
    ctx.fillRect(0, 0, width, height);
    for (let i = 0; i < 7; i++) {
      const r = 60 + ((seed >>> (i * 3)) % 180);
      const x = (((seed >>> i) % width) + i * 173) % width;
      const y = (((seed >>> (i + 5)) % height) + i * 97) % height;
      ctx.fillStyle = `hsla(${(colours.hue + i * 25) % 360}, 80%, 75%, 0.16)`;
      ctx.beginPath();
      ctx.arc(x, y, r, 0, Math.PI * 2);
      ctx.fill();
    }
  } else {
    const gradient = ctx.createRadialGradient(width * 0.75, height * 0.3, 20, width * 0.6, height * 0.5, width * 0.8);
    gradient.addColorStop(0, colours.light);
    gradient.addColorStop(1, colours.dark);
    ctx.fillStyle = gradient;
    ctx.fillRect(0, 0, width, height);
    ctx.strokeStyle = 'rgba(255, 255, 255, 0.10)';
    ctx.lineWidth = 18;
    for (let x = -height; x < width; x += 70) {
      ctx.beginPath();
      ctx.moveTo(x, height);
      ctx.lineTo(x + height, 0);
      ctx.stroke();
    }
  }

  ctx.fillStyle = 'rgba(0, 0, 0, 0.28)';
  ctx.fillRect(0, height * 0.62, width, height * 0.38);
  ctx.fillStyle = '#ffffff';
  ctx.textBaseline = 'top';
  ctx.font = `bold 56px ${FONT}`;
  const lines = wrap(ctx, title, width - 160, 3);
  const top = height * 0.62 + (height * 0.38 - lines.length * 66) / 2;
  lines.forEach((line, i) => ctx.fillText(line, 80, top + i * 66));
  return canvas.toBuffer('image/png');
}

/** Removes from an SVG anything that could reach outside it: DOCTYPE/entities, scripts, external hrefs. */
function neutraliseSvg(svg: string): string {
  return svg
    .replace(/<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/gi, '')
    .replace(/<script[\s\S]*?<\/script\s*>/gi, '')
    .replace(/\s(?:xlink:)?href\s*=\s*(["'])(?!#|data:image\/(?:png|jpeg|gif|webp);base64,)[^"']*\1/gi, '');
}

function isSvg(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 1024).toString('utf8').trimStart();
  return /^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head);
}

/**
 * Decodes an image (PNG, JPEG, GIF, WebP, AVIF, BMP, ICO or SVG), scales it to fit `maxSide`
 * and re-encodes it as PNG. Refuses images over 40 megapixels before decoding them (dimensions
 * read with image-size), and anything that does not decode, with an ImageError.
 */
export async function reencodeToPng(bytes: Buffer, maxSide = 512): Promise<Buffer> {
  if (!bytes || bytes.length === 0) throw new ImageError('The image is empty.');
  let dimensions: { width?: number; height?: number };
  try {
    dimensions = imageSize(bytes);
  } catch {
    throw new ImageError('That file is not an image we can read.');
  }
  const width = dimensions.width ?? 0;
  const height = dimensions.height ?? 0;
  if (width * height > MAX_PIXELS) {
    throw new ImageError(`The image is too large (${width}×${height}); at most 40 megapixels can be read.`);
  }
  const source = isSvg(bytes) ? Buffer.from(neutraliseSvg(bytes.toString('utf8')), 'utf8') : bytes;
  let image;
  try {
    image = await loadImage(source);
  } catch {
    throw new ImageError('That file is not an image we can read.');
  }
  const naturalWidth = image.width || width;
  const naturalHeight = image.height || height;
  if (!naturalWidth || !naturalHeight) throw new ImageError('That image has no size.');
  if (naturalWidth * naturalHeight > MAX_PIXELS) {
    throw new ImageError(`The image is too large (${naturalWidth}×${naturalHeight}); at most 40 megapixels can be read.`);
  }
  const scale = Math.min(1, maxSide / Math.max(naturalWidth, naturalHeight));
  const outWidth = Math.max(1, Math.round(naturalWidth * scale));
  const outHeight = Math.max(1, Math.round(naturalHeight * scale));
  const canvas = createCanvas(outWidth, outHeight);
  canvas.getContext('2d').drawImage(image, 0, 0, outWidth, outHeight);
  return canvas.toBuffer('image/png');
}
