import type { LayoutPage } from '../layout/types';
import type { WorkerBudget } from '../../files/bounded-worker';
import { countInflated } from '../../files/inflate-budget';
import { readEInvoice, MAX_E_INVOICE_BYTES, type EInvoice } from '../extraction/e-invoice';
import { DocumentReadError, readInWorker } from './errors';
import { openPdf } from './pdfjs';
import { renderPdfPage, type RenderedPage } from './render';
import { readTextLayer, textLength } from './text-layer';

/**
 * Reading a PDF in bounded memory and time, off the request thread: pdfjs runs only inside a
 * worker (runBounded), after the file's compressed streams were counted against a budget, and
 * reads at most `maxPages` pages. A page with a text layer comes back as a layout page; a scanned
 * one as a rendered PNG for the caller's OCR engine (which has workers of its own).
 */
export interface PdfBudget {
  /** Largest total of the PDF's streams once inflated. */
  maxStreamBytes: number;
  /** Pages read; the rest are counted but not read. */
  maxPages: number;
}

export const PDF_BUDGET: PdfBudget = { maxStreamBytes: 64 * 1024 * 1024, maxPages: 30 };

export interface ReadPdfOptions {
  maxPages?: number;
  /** Resolution scanned pages are rendered at. Default 200. */
  dpi?: number;
  /** A text-layer page with fewer characters than this is treated as scanned. Default 20. */
  minTextChars?: number;
  maxStreamBytes?: number;
  budget?: Partial<WorkerBudget>;
}

export type PdfPageRead =
  | { pageNumber: number; page: LayoutPage; milliseconds: number }
  | { pageNumber: number; scanned: { png: Uint8Array; width: number; height: number }; textPage: LayoutPage; milliseconds: number };

export interface PdfRead {
  pages: PdfPageRead[];
  pageCount: number;
  /** The e-invoice (Factur-X, ZUGFeRD, XRechnung, UBL) the PDF carries as an attachment, if any. */
  eInvoice?: EInvoice;
}

/**
 * The first attachment of the PDF that reads as an e-invoice (see readEInvoice). An attachment
 * list pdfjs cannot read, or XML that is not an invoice, is no e-invoice: the page is read as ever.
 */
async function embeddedEInvoice(pdf: Awaited<ReturnType<typeof openPdf>>): Promise<EInvoice | undefined> {
  let attachments: Record<string, { filename?: string; content?: Uint8Array }> | null;
  try {
    attachments = await pdf.getAttachments();
  } catch {
    return undefined;
  }
  for (const [key, file] of Object.entries(attachments ?? {})) {
    const name = file.filename ?? key;
    if (!/\.xml$/i.test(name) || !file.content || file.content.length > MAX_E_INVOICE_BYTES) continue;
    const read = readEInvoice(new TextDecoder().decode(file.content), name);
    if (read) return read;
  }
  return undefined;
}

function tooLarge(maxBytes: number): DocumentReadError {
  return new DocumentReadError(
    `This PDF expands to more than ${Math.round(maxBytes / (1024 * 1024))} MB when opened, more than an upload may be.`,
    'too-large',
  );
}

/**
 * Counts the inflated size of every FlateDecode stream in the file, stopping as soon as the total
 * passes `maxBytes`. The bytes are counted, never kept. A stream that does not inflate cleanly
 * counts for what it gave (pdfjs will judge it).
 */
export function checkPdfStreams(bytes: Uint8Array, maxBytes: number): number {
  const pdf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  let from = 0;
  for (;;) {
    const keyword = pdf.indexOf('stream', from, 'latin1');
    if (keyword < 0) break;
    from = keyword + 6;
    // "endstream" also contains "stream"; a stream's data starts after the keyword's line end
    if (keyword >= 3 && pdf.toString('latin1', keyword - 3, keyword) === 'end') continue;
    let start = from;
    if (pdf[start] === 0x0d) start++;
    if (pdf[start] === 0x0a) start++;
    const dictionary = pdf.toString('latin1', Math.max(0, keyword - 512), keyword);
    const end = pdf.indexOf('endstream', start, 'latin1');
    if (end < 0) break;
    from = end + 9;
    if (!/\/FlateDecode|\/Fl\b/.test(dictionary.slice(dictionary.lastIndexOf('<<')))) continue;
    countInflated(
      pdf.subarray(start, end),
      (n) => {
        total += n;
        if (total > maxBytes) throw tooLarge(maxBytes);
      },
      () => undefined,
    );
  }
  return total;
}

/** The worker's side: checks the streams, then reads the pages with pdfjs. */
export async function readPdfPagesTask(input: {
  bytes: Uint8Array;
  maxPages: number;
  dpi: number;
  minTextChars: number;
  maxStreamBytes: number;
}): Promise<PdfRead> {
  checkPdfStreams(input.bytes, input.maxStreamBytes);
  const pdf = await openPdf(input.bytes);
  try {
    const pageCount = pdf.numPages;
    if (pageCount < 1) throw new DocumentReadError('The PDF has no pages.', 'empty');
    const pages: PdfPageRead[] = [];
    for (let n = 1; n <= Math.min(pageCount, input.maxPages); n++) {
      const started = performance.now();
      let page: LayoutPage;
      try {
        page = await readTextLayer(await pdf.getPage(n), n);
      } catch (error) {
        throw new DocumentReadError(`Page ${n} of the PDF could not be read (${(error as Error).message}).`, 'corrupt');
      }
      if (textLength(page) < input.minTextChars) {
        const image = await renderPdfPage(pdf, n, input.dpi);
        pages.push({
          pageNumber: n,
          scanned: { png: new Uint8Array(image.png), width: image.width, height: image.height },
          textPage: page,
          milliseconds: performance.now() - started,
        });
      } else {
        pages.push({ pageNumber: n, page, milliseconds: performance.now() - started });
      }
    }
    const eInvoice = await embeddedEInvoice(pdf);
    return { pages, pageCount, ...(eInvoice ? { eInvoice } : {}) };
  } finally {
    await pdf.destroy();
  }
}

/** The worker's side of renderFirstPagePng. */
export async function renderFirstPageTask(input: { bytes: Uint8Array; dpi: number; maxStreamBytes: number }): Promise<RenderedPage> {
  checkPdfStreams(input.bytes, input.maxStreamBytes);
  const pdf = await openPdf(input.bytes);
  try {
    if (pdf.numPages < 1) throw new DocumentReadError('The PDF has no pages.', 'empty');
    const page = await renderPdfPage(pdf, 1, input.dpi);
    return { ...page, png: new Uint8Array(page.png) as Buffer };
  } finally {
    await pdf.destroy();
  }
}

/**
 * Renders the first page of a PDF file to a PNG, in a bounded worker: the preview image the
 * invoice page shows next to the extracted fields.
 */
export async function renderFirstPagePng(bytes: Uint8Array, dpi = 100): Promise<RenderedPage> {
  const page = await inWorker<RenderedPage>('renderFirstPageTask', { bytes, dpi, maxStreamBytes: PDF_BUDGET.maxStreamBytes });
  return { ...page, png: Buffer.from(page.png) };
}

/** Runs one of this file's tasks in a bounded worker, with refusals as DocumentReadErrors. */
async function inWorker<T>(task: string, input: { bytes: Uint8Array } & Record<string, unknown>, budget?: Partial<WorkerBudget>): Promise<T> {
  if (input.bytes.length === 0) throw new DocumentReadError('The PDF file is empty.', 'empty');
  return readInWorker<T>(
    __filename,
    task,
    input,
    {
      time: 'This PDF takes longer to read than an upload may take; split it or save it again with fewer pages.',
      memory: 'This PDF needs more memory to open than an upload may use.',
    },
    budget,
  );
}

/**
 * Reads a PDF's pages in a bounded worker. Refusals are DocumentReadErrors with a sentence about
 * the file: too large when opened, too slow, damaged, encrypted.
 */
export async function readPdfBounded(bytes: Uint8Array, options: ReadPdfOptions = {}): Promise<PdfRead> {
  const input = {
    bytes,
    maxPages: options.maxPages ?? PDF_BUDGET.maxPages,
    dpi: options.dpi ?? 200,
    minTextChars: options.minTextChars ?? 20,
    maxStreamBytes: options.maxStreamBytes ?? PDF_BUDGET.maxStreamBytes,
  };
  return inWorker<PdfRead>('readPdfPagesTask', input, options.budget);
}
