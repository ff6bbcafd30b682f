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
