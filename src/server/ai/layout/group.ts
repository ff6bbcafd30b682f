import { median, overlap, unionBox } from './geometry';
import type { LayoutLine, LayoutPage, LayoutPhrase, LayoutWord, PageSource } from './types';

/**
 * Groups words into lines: words whose vertical extents mostly overlap belong to one line, read
 * left to right. Works for text-layer words (exact baselines) and OCR words (slightly uneven
 * boxes, mild skew), because it compares each word with the line it would join, not one row grid.
 */
export function groupWordsIntoLines(words: readonly LayoutWord[]): LayoutLine[] {
  const sorted = words.filter((w) => w.text.trim() !== '' && w.height > 0).sort((a, b) => a.y + a.height / 2 - (b.y + b.height / 2) || a.x - b.x);
  const rows: { words: LayoutWord[]; top: number; bottom: number }[] = [];
  for (const word of sorted) {
    const centre = word.y + word.height / 2;
    let best: (typeof rows)[number] | undefined;
    let bestScore = 0;
    // Only the last few rows can still take the word: rows are created in y order.
    for (let i = rows.length - 1; i >= Math.max(0, rows.length - 4); i--) {
      const row = rows[i];
      const rowHeight = row.bottom - row.top;
      const shared = overlap(row.top, row.bottom, word.y, word.y + word.height);
      const score = shared / Math.min(rowHeight, word.height);
      const centreInside = centre > row.top && centre < row.bottom;
      if (score > 0.5 && centreInside && score > bestScore) {
        best = row;
        bestScore = score;
      }
    }
    if (best) {
      best.words.push(word);
      // Keep the row band to its median extent so a tall word does not swallow the next line.
      best.top = median(best.words.map((w) => w.y));
      best.bottom = median(best.words.map((w) => w.y + w.height));
    } else {
      rows.push({ words: [word], top: word.y, bottom: word.y + word.height });
    }
  }
  return rows.map((row) => makeLine(row.words.sort((a, b) => a.x - b.x))).sort((a, b) => a.y - b.y || a.x - b.x);
}

function makeLine(words: LayoutWord[]): LayoutLine {
  const box = unionBox(words);
  return {
    ...box,
    words,
    text: words.map((w) => w.text).join(' '),
    confidence: Math.min(...words.map((w) => w.confidence)),
  };
}

/** Builds a page from its words: the lines are derived here so every reader groups the same way. */
export function buildPage(pageNumber: number, width: number, height: number, source: PageSource, words: LayoutWord[]): LayoutPage {
  return { pageNumber, width, height, source, words, lines: groupWordsIntoLines(words) };
}

/**
 * Splits each line into phrases where the gap between two words is wider than `gapFactor`
 * times the line's text height (a normal space is a quarter to 0.6 of the font size). OCR boxes
 * hold only the ink (about 0.7 of the font size), hence the larger default factor for OCR pages. "Invoice No: 42" stays
 * one phrase; "Invoice No        42" in a right-aligned header becomes two.
 */
export function phrasesOf(page: LayoutPage, gapFactor = page.source === 'ocr' ? 1.6 : 1.0): LayoutPhrase[] {
  const phrases: LayoutPhrase[] = [];
  page.lines.forEach((line, lineIndex) => {
    const h = median(line.words.map((w) => w.height));
    let current: LayoutWord[] = [];
    const flush = () => {
      if (current.length === 0) return;
      const box = unionBox(current);
      phrases.push({
        ...box,
        words: current,
        text: current.map((w) => w.text).join(' '),
        confidence: Math.min(...current.map((w) => w.confidence)),
        lineIndex,
        pageNumber: page.pageNumber,
      });
      current = [];
    };
    for (const word of line.words) {
      const prev = current[current.length - 1];
      // OCR sometimes leaves a gap after a thousands separator ("$49," "876.49"): keep those together.
      const splitNumber = prev && /\d[.,']$/.test(prev.text) && /^\d{3}(?:[.,]\d{1,2})?\b/.test(word.text);
      if (prev && !splitNumber && word.x - (prev.x + prev.width) > gapFactor * h) flush();
      current.push(word);
    }
    flush();
  });
  return phrases;
}

/** The page's text in reading order, one line per line (for full-text search and debugging). */
export function pageText(page: LayoutPage): string {
  return page.lines.map((l) => l.text).join('\n');
}

/** Pages' text (see pageText), pages separated by a blank line. */
export function pagesText(pages: readonly LayoutPage[]): string {
  return pages.map(pageText).join('\n\n');
}
