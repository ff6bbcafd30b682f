import { buildPage } from '../layout/group';
import type { LayoutPage, LayoutWord } from '../layout/types';
import { loadPdfjs, type PdfDocument } from './pdfjs';

type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

interface TextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

/**
 * Reads one PDF page's text layer into a layout page (points, top-left origin). pdfjs returns
 * runs of text that may hold several words; each run is split on spaces and the words get
 * x positions in proportion to their characters, which is exact for monospaced fonts and close
 * enough for proportional ones (extraction only compares positions at phrase level). A run that
 * goes on from the one before with no space between continues its last word.
 */
export async function readTextLayer(page: PdfPage, pageNumber: number): Promise<LayoutPage> {
  const pdfjs = await loadPdfjs();
  const content = await page.getTextContent();
  const viewport = page.getViewport({ scale: 1, rotation: readingRotation(pdfjs, page, content.items as Partial<TextItem>[]) });
  const words: LayoutWord[] = [];
  let previousRun = '';
  for (const raw of content.items) {
    const item = raw as Partial<TextItem>;
    if (typeof item.str !== 'string' || !item.transform) continue;
    if (item.str.trim() === '') {
      previousRun = item.str;
      continue;
    }
    const tx = pdfjs.Util.transform(viewport.transform, item.transform) as number[];
    const fontHeight = Math.hypot(tx[2], tx[3]);
    if (fontHeight <= 0) continue;
    const width = (item.width ?? 0) * viewport.scale;
    const top = tx[5] - fontHeight * 0.85;
    const chars = item.str.length;
    const perChar = chars > 0 ? width / chars : 0;
    const re = /\S+/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(item.str))) {
      // Typographic hyphens ("IOPOLE‐jdz7fEbj4Va", "18‐08‐2026", U+2010 to U+2012) are read as the hyphen-minus.
      const text = m[0].replace(/[\u2010-\u2012]/g, '-');
      const word = { text, x: tx[4] + m.index * perChar, y: top, width: m[0].length * perChar, height: fontHeight, confidence: 1 };
      const prev = words[words.length - 1];
      // A run that starts where the one before ended, on its baseline, with no space between, goes
      // on with the same word: a PDF may set one word in several runs ("RE-20" "201121" "/50" "8").
      if (m.index === 0 && prev && !/\s$/.test(previousRun) && touches(prev, word)) {
        prev.text += word.text;
        prev.width = word.x + word.width - prev.x;
      } else words.push(word);
    }
    previousRun = item.str;
  }
  return buildPage(pageNumber, viewport.width, viewport.height, 'text-layer', words);
}

/**
 * The turn that sets the page's text upright: the page's own rotation (`/Rotate`) when most of its
 * text then runs left to right, else the quarter turn that makes it so. A page whose content was
 * drawn upright and then given a /Rotate (a scanner's or a tool's, so the page is shown on its
 * side) is read upright, as is a landscape page drawn turned and shown upright.
 */
function readingRotation(pdfjs: Awaited<ReturnType<typeof loadPdfjs>>, page: PdfPage, items: readonly Partial<TextItem>[]): number {
  const unturned = page.getViewport({ scale: 1, rotation: 0 });
  // letters per direction the text runs in, on the page unturned (y down): 0 = left to right, 1 = down, 2, 3
  const letters = [0, 0, 0, 0];
  for (const item of items) {
    if (typeof item.str !== 'string' || !item.transform) continue;
    const tx = pdfjs.Util.transform(unturned.transform, item.transform) as number[];
    const quarter = Math.round(Math.atan2(tx[1], tx[0]) / (Math.PI / 2));
    letters[(quarter + 4) % 4] += item.str.replace(/\s/g, '').length;
  }
  const own = ((page.rotate % 360) + 360) % 360;
  const runs = letters.indexOf(Math.max(...letters));
  if (letters[runs] === 0) return own;
  // turning the page clockwise by r turns its text by r too: text running at `runs` quarters needs 4 - runs
  const upright = ((4 - runs) % 4) * 90;
  return letters[(((4 - own / 90) % 4) + 4) % 4] >= letters[runs] ? own : upright;
}

/** `b` starts where `a` ends (within a twentieth of the font size), on the same baseline, in the same size. */
function touches(a: LayoutWord, b: LayoutWord): boolean {
  const gap = b.x - (a.x + a.width);
  return Math.abs(a.height - b.height) < a.height * 0.1 && Math.abs(a.y - b.y) < a.height * 0.1 && gap < a.height * 0.05 && gap > -a.height * 0.1;
}

/** Number of characters on a text-layer page: pages with almost none are treated as scanned. */
export function textLength(page: LayoutPage): number {
  return page.words.reduce((n, w) => n + w.text.length, 0);
}
