import type { LayoutBox } from './types';

/** The smallest box holding all the given boxes (a zero box for none). */
export function unionBox(boxes: readonly LayoutBox[]): LayoutBox {
  if (boxes.length === 0) return { x: 0, y: 0, width: 0, height: 0 };
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const b of boxes) {
    x0 = Math.min(x0, b.x);
    y0 = Math.min(y0, b.y);
    x1 = Math.max(x1, b.x + b.width);
    y1 = Math.max(y1, b.y + b.height);
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Length of the overlap of two intervals [a0, a1] and [b0, b1] (0 when apart). */
export function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
}

/** Horizontal overlap of two boxes as a share of the narrower one (0..1). */
export function horizontalOverlapRatio(a: LayoutBox, b: LayoutBox): number {
  const o = overlap(a.x, a.x + a.width, b.x, b.x + b.width);
  const narrow = Math.min(a.width, b.width);
  return narrow > 0 ? o / narrow : 0;
}

/** The median of a list of numbers (0 for none). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
