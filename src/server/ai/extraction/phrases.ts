import { horizontalOverlapRatio, median, overlap } from '../layout/geometry';
import { phrasesOf } from '../layout/group';
import type { LayoutPage, LayoutPhrase } from '../layout/types';

/** A document's phrases by page and line, in reading order, with its typical text height. */
export interface PhraseIndex {
  lines: LayoutPhrase[][][];
  all: LayoutPhrase[];
  textHeight: number;
  text: string;
}

/** Splits every page into phrases grouped by line (see phrasesOf). */
export function indexPhrases(pages: readonly LayoutPage[]): PhraseIndex {
  const lines: LayoutPhrase[][][] = [];
  const all: LayoutPhrase[] = [];
  for (const page of pages) {
    const byLine: LayoutPhrase[][] = page.lines.map(() => []);
    for (const p of phrasesOf(page)) byLine[p.lineIndex].push(p);
    lines.push(byLine);
    for (const l of byLine) all.push(...l);
  }
  return {
    lines,
    all,
    textHeight: median(all.map((p) => p.height)) || 10,
    text: pages.map((p) => p.lines.map((l) => l.text).join('\n')).join('\n\f'),
  };
}

/** The line (array of phrases) a phrase belongs to. */
export function lineOf(index: PhraseIndex, p: LayoutPhrase): LayoutPhrase[] {
  return index.lines[p.pageNumber - 1]?.[p.lineIndex] ?? [p];
}

/** Phrases to the right of `p` on its line, nearest first. */
export function rightOf(index: PhraseIndex, p: LayoutPhrase): LayoutPhrase[] {
  return lineOf(index, p)
    .filter((q) => q.x >= p.x + p.width - 1 && q !== p)
    .sort((a, b) => a.x - b.x);
}

/**
 * Phrases to the right of `p` on the line just above or below it that share at least `share` of
 * the lower of the two heights with it, nearest first: on a skewed photo or scan, an amount at
 * the right margin may sit half a line higher or lower than its label at the left and be grouped
 * into the neighbouring line ("310,00 EURO" a little above "Rechnungsbetrag").
 */
export function besideOf(index: PhraseIndex, p: LayoutPhrase, share = 0.4): LayoutPhrase[] {
  const page = index.lines[p.pageNumber - 1] ?? [];
  return [page[p.lineIndex - 1], page[p.lineIndex + 1]]
    .flatMap((line) => line ?? [])
    .filter((q) => q.x >= p.x + p.width - 1 && overlap(p.y, p.y + p.height, q.y, q.y + q.height) >= share * Math.min(p.height, q.height))
    .sort((a, b) => a.x - b.x);
}

/** Each page's skew, measured once (see pageSlope). */
const slopes = new WeakMap<LayoutPhrase[][], number>();

/**
 * How much a page's lines climb or fall per pixel to the right: the median, over the long phrases
 * (three words or more, ten text heights wide), of the rise from the first word's middle to the last's.
 */
function pageSlope(page: LayoutPhrase[][]): number {
  let slope = slopes.get(page);
  if (slope === undefined) {
    const rises: number[] = [];
    for (const p of page.flat()) {
      if (p.words.length < 3 || p.width < 10 * p.height) continue;
      const a = p.words[0];
      const b = p.words[p.words.length - 1];
      rises.push((b.y + b.height / 2 - (a.y + a.height / 2)) / (b.x + b.width / 2 - (a.x + a.width / 2)));
    }
    slope = rises.length >= 3 ? median(rises) : 0;
    slopes.set(page, slope);
  }
  return slope;
}

/**
 * The phrases right of `p` on the lines next to its own that stand where `p`'s line, followed at
 * the page's skew, runs (see pageSlope), nearest first: on a page scanned askew, an amount far to
 * the right of its label ("Sub Total Exclusive of VAT  …  25,474.00") sits a line lower or higher
 * and shares too little height with the label for besideOf. Nothing on a level page.
 */
export function besideSkewed(index: PhraseIndex, p: LayoutPhrase): LayoutPhrase[] {
  const page = index.lines[p.pageNumber - 1] ?? [];
  const slope = pageSlope(page);
  if (Math.abs(slope) < 0.005) return [];
  const w = p.words[p.words.length - 1] ?? p;
  const cx = w.x + w.width / 2;
  const cy = w.y + w.height / 2;
  return [page[p.lineIndex - 1], page[p.lineIndex + 1]]
    .flatMap((line) => line ?? [])
    .filter((q) => {
      if (q.x < p.x + p.width - 1) return false;
      const expected = cy + slope * (q.x + q.width / 2 - cx);
      return Math.abs(q.y + q.height / 2 - expected) < 0.5 * Math.max(q.height, p.height);
    })
    .sort((a, b) => a.x - b.x);
}

/**
 * The first phrase below `p` that stands in its column: overlapping it horizontally or starting
 * at about the same x, within `maxLines` lines and without a gap wider than ~2.5 text heights
 * (a rule of dashes between is passed over).
 */
export function below(index: PhraseIndex, p: LayoutPhrase, maxLines = 2): LayoutPhrase | undefined {
  const page = index.lines[p.pageNumber - 1];
  let bottom = p.y + p.height;
  for (let i = p.lineIndex + 1; i < page.length && i <= p.lineIndex + maxLines + 2; i++) {
    const line = page[i];
    if (line.length === 0) continue;
    const top = Math.min(...line.map((q) => q.y));
    if (top - bottom > 2.5 * Math.max(p.height, index.textHeight)) return undefined;
    const hit = line.find((q) => horizontalOverlapRatio(p, q) > 0.3 || Math.abs(q.x - p.x) < p.height * 1.5);
    // A rule drawn with dashes or equals signs ("-----", "=====") is no value: look under it.
    if (hit && /[\p{L}\p{N}]/u.test(hit.text)) return hit;
    bottom = Math.max(...line.map((q) => q.y + q.height));
  }
  return undefined;
}

/**
 * The block of phrases under `p` in its column (an address under a name): left-aligned with it,
 * one line after another without a blank line between, at most `maxLines`.
 */
export function blockBelow(index: PhraseIndex, p: LayoutPhrase, maxLines = 5, stop?: (q: LayoutPhrase) => boolean): LayoutPhrase[] {
  const page = index.lines[p.pageNumber - 1];
  const block: LayoutPhrase[] = [];
  let prev = p;
  for (let i = p.lineIndex + 1; i < page.length && block.length < maxLines; i++) {
    const line = page[i];
    const tol = Math.max(p.height, index.textHeight) * 1.2;
    // Left-, right- or centre-aligned with the phrase above.
    const hit = line.find(
      (q) => Math.abs(q.x - p.x) < tol || Math.abs(q.x + q.width - (p.x + p.width)) < tol || Math.abs(q.x + q.width / 2 - (p.x + p.width / 2)) < tol,
    );
    if (!hit) {
      if (line.some((q) => horizontalOverlapRatio(p, q) > 0.5)) break;
      continue;
    }
    // No blank line between: the gap is measured against the taller of the two (a large name above).
    if (hit.y - (prev.y + prev.height) > 1.4 * Math.max(hit.height, prev.height, index.textHeight)) break;
    if (stop?.(hit)) break;
    block.push(hit);
    prev = hit;
  }
  return block;
}
