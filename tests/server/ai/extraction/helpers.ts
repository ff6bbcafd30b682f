import { buildPage } from '../../../../src/server/ai/layout/group';
import type { LayoutPage, LayoutWord } from '../../../../src/server/ai/layout/types';

/**
 * Builds a text-layer page from [x, y, text, size?] runs, as if written in a monospaced font:
 * each character is 0.6 × size wide, a space one character. Lets tests lay out documents by hand.
 */
export function page(runs: [number, number, string, number?][], pageNumber = 1): LayoutPage {
  const words: LayoutWord[] = [];
  for (const [x, y, text, size = 10] of runs) {
    const w = size * 0.6;
    const re = /\S+/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) words.push({ text: m[0], x: x + m.index * w, y, width: m[0].length * w, height: size, confidence: 1 });
  }
  return buildPage(pageNumber, 595, 842, 'text-layer', words);
}

/** An OCR page (600 × 900 px) from [x, y, text, confidence?, size?] runs, `size` px high (10), 0.6 × size a character. */
export function ocrPage(runs: [number, number, string, number?, number?][]): LayoutPage {
  const words: LayoutWord[] = [];
  for (const [x, y, text, confidence = 0.95, size = 10] of runs) {
    const re = /\S+/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) words.push({ text: m[0], x: x + m.index * size * 0.6, y, width: m[0].length * size * 0.6, height: size, confidence });
  }
  return buildPage(1, 600, 900, 'ocr', words);
}
