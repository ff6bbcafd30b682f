import { readPdfBounded, type FileKind, type OcrEngine } from '../../src/server';
import { MAX_PDF_PAGES } from './pdf-text';

/**
 * Scanned documents (an image, or PDF pages without a text layer) are read by the server's OCR
 * engine (T.Ocr, the one tesseract pool the extraction pages use), at most this many pages of
 * one file: a page costs one to two seconds of OCR on this machine.
 */
export const MAX_OCR_PAGES = 20;

/** Resolution a scanned PDF page is rendered at before OCR (the extraction pages' default). */
export const OCR_DPI = 200;

/**
 * Time the PDF worker may take to render the scanned pages (a job, off the request thread: more
 * than an upload's parse budget, since twenty pages at OCR_DPI take a while on a busy machine).
 */
export const RENDER_TIMEOUT_MS = 120_000;

/** What the index can hold of a document read with OCR. */
export interface ScannedText {
  text: string;
  /** Pages whose text is in `text` (a text layer or OCR). */
  pagesRead: number;
  /** Pages in the file. */
  pageCount: number;
  /** Pages that went through OCR. */
  ocrPages: number;
}

/** Called after each page is read: `done` of `total` pages (the ones this read covers). */
export type PageProgress = (done: number, total: number) => Promise<void> | void;

/** A page's text, one line per printed line, blanks squeezed. */
function pageText(page: { lines: { text: string }[] }): string {
  return page.lines
    .map((line) => line.text.replace(/[ \t]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/** Each page's text layer (up to MAX_PDF_PAGES), empty for a page without one, and the page count. */
export async function pdfTextPages(bytes: Uint8Array): Promise<{ pages: string[]; pageCount: number }> {
  const { pages, pageCount } = await readPdfBounded(bytes, { maxPages: MAX_PDF_PAGES, minTextChars: 0 });
  return { pages: pages.map((read) => pageText('page' in read ? read.page : read.textPage)), pageCount };
}

/** The 1-based numbers of the pages without text that OCR would read (within MAX_OCR_PAGES). */
export function pagesToOcr(pages: string[]): number[] {
  return pages.flatMap((text, i) => (text.trim() === '' && i < MAX_OCR_PAGES ? [i + 1] : []));
}

/**
 * The text of a scanned upload: an image is OCR'd whole; a PDF keeps each page's text layer and
 * OCRs the pages without one among its first MAX_OCR_PAGES (rendered at OCR_DPI in the bounded PDF
 * worker, readPdfBounded, then read by the OCR engine's own workers). Pages after that budget
 * without a text layer are left out, and `pagesRead` says so.
 */
export async function readScannedText(kind: FileKind, bytes: Uint8Array, ocr: OcrEngine, progress: PageProgress = () => undefined): Promise<ScannedText> {
  if (kind === 'png' || kind === 'jpeg') {
    await progress(0, 1);
    const page = await ocr.recognize(Buffer.from(bytes), 1);
    await progress(1, 1);
    return { text: pageText(page), pagesRead: 1, pageCount: 1, ocrPages: 1 };
  }
  const layer = await pdfTextPages(bytes);
  const toOcr = pagesToOcr(layer.pages);
  const texts = [...layer.pages];
  if (toOcr.length > 0) {
    // only pages without text are rendered (minTextChars 1), only among the first MAX_OCR_PAGES
    const { pages } = await readPdfBounded(bytes, { maxPages: Math.max(...toOcr), dpi: OCR_DPI, minTextChars: 1, budget: { timeoutMs: RENDER_TIMEOUT_MS } });
    let done = 0;
    await progress(0, toOcr.length);
    for (const read of pages) {
      if (!('scanned' in read)) continue;
      const page = await ocr.recognize(Buffer.from(read.scanned.png), read.pageNumber);
      texts[read.pageNumber - 1] = pageText(page);
      await progress(++done, toOcr.length);
    }
  }
  const unread = layer.pages.filter((text, i) => text.trim() === '' && i >= MAX_OCR_PAGES).length;
  return {
    text: texts.filter((t) => t.trim() !== '').join('\n\n'),
    pagesRead: layer.pages.length - unread,
    pageCount: layer.pageCount,
    ocrPages: toOcr.length,
  };
}
