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
 * enough for proportional ones (extraction only compares positions at phrase level).
 */
export async function readTextLayer(page: PdfPage, pageNumber: number): Promise<LayoutPage> {
  const pdfjs = await loadPdfjs();
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const words: LayoutWord[] = [];
  for (const raw of content.items) {
    const item = raw as Partial<TextItem>;
    if (typeof item.str !== 'string' || !item.transform || item.str.trim() === '') continue;
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
      words.push({
        text: m[0],
        x: tx[4] + m.index * perChar,
        y: top,
        width: m[0].length * perChar,
        height: fontHeight,
        confidence: 1,
      });
    }
  }
  return buildPage(pageNumber, viewport.width, viewport.height, 'text-layer', words);
}

/** Number of characters on a text-layer page: pages with almost none are treated as scanned. */
export function textLength(page: LayoutPage): number {
  return page.words.reduce((n, w) => n + w.text.length, 0);
}
