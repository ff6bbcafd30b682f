import { performance } from 'node:perf_hooks';
import { pagesText } from '../layout/group';
import type { LayoutPage } from '../layout/types';
import type { OcrEngine } from '../ocr/ocr-engine';
import { ownPageIndex, showsInvoiceNumber, type EInvoice, type XmlPdf } from './e-invoice';
import { readEInvoiceFile } from './e-invoice-file';
import { DocumentReadError } from '../pdf/errors';
import { readPdfBounded, renderFirstPagePng } from '../pdf/read-pdf';
import type { RenderedPage } from '../pdf/render';

/** A page document (PDF, PNG, JPEG), or an XML e-invoice (the invoice as data, no page). */
export type DocumentType = 'pdf' | 'png' | 'jpeg' | 'xml';

export interface ReadDocumentOptions {
  ocr: OcrEngine;
  /** Resolution scanned pages are rendered at before OCR. Default 200. */
  dpi?: number;
  /** Pages beyond this are not read (a guard for huge uploads). Default 20. */
  maxPages?: number;
  /** A text-layer page with fewer characters than this is treated as scanned. Default 20. */
  minTextChars?: number;
  /** The file's name, which an XML e-invoice's reading names as its source. */
  name?: string;
}

export interface PageTiming {
  pageNumber: number;
  source: LayoutPage['source'];
  milliseconds: number;
}

export interface ReadDocumentResult {
  pages: LayoutPage[];
  /** 1-based numbers of the pages that were read by OCR. */
  ocrPages: number[];
  timings: PageTiming[];
  /** Pages in the file (may exceed pages.length when maxPages cut it). */
  pageCount: number;
  /**
   * The e-invoice data: what a PDF carries (Factur-X, ZUGFeRD, XRechnung, UBL), to lay over the
   * page's reading; or an XML e-invoice's own (its `pdfs` removed, see `xmlPdf`).
   */
  eInvoice?: EInvoice;
  /**
   * For an XML e-invoice that carries a PDF: the one read (the first that shows the invoice's
   * number, else the first), why it could not be read, and how many the XML carries when more
   * than one. Its pages are `pages` (the invoice's own page, or an annex: see
   * extractInvoiceFromDocument).
   */
  xmlPdf?: XmlPdf;
}

/** Guesses the document type from the file's first bytes (PDF, PNG, JPEG or XML), or undefined. */
export function sniffDocumentType(bytes: Uint8Array): DocumentType | undefined {
  const head = Buffer.from(bytes.subarray(0, 1024));
  if (head.includes('%PDF-')) return 'pdf';
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (/^(?:\uFEFF)?\s*</.test(head.toString('utf8'))) return 'xml';
  return undefined;
}

/**
 * Reads a document into layout pages: a PDF page from its text layer when it has one, otherwise
 * (a scanned page) rendered at `dpi` and OCR'd; an image is OCR'd directly. Returns which pages
 * needed OCR and how long each page took, so callers can report and bench it. An XML e-invoice
 * is read as its data (`eInvoice`), with the pages of a PDF it carries (`xmlPdf`) or none.
 */
export async function readDocument(bytes: Uint8Array, type: DocumentType, options: ReadDocumentOptions): Promise<ReadDocumentResult> {
  const sniffed = sniffDocumentType(bytes);
  if (bytes.length === 0) throw new DocumentReadError('The file is empty.', 'empty');
  if (sniffed !== type) {
    throw new DocumentReadError(
      sniffed
        ? `The file was uploaded as ${type.toUpperCase()} but its content is ${sniffed.toUpperCase()}.`
        : `The file is not a valid ${type.toUpperCase()} document.`,
      'unsupported',
    );
  }
  if (type === 'xml') {
    // an XML e-invoice: its data is the invoice; a PDF it carries is read as its pages, the
    // first that shows the invoice's number when it carries several (an annex may come first)
    const { pdfs = [], ...eInvoice } = await readEInvoiceFile(bytes, options.name ?? 'invoice.xml');
    if (pdfs.length === 0) return { pages: [], ocrPages: [], timings: [], pageCount: 0, eInvoice };
    const carried = pdfs.length > 1 ? { carried: pdfs.length } : {};
    let first: ReadDocumentResult | undefined;
    for (const pdf of pdfs) {
      let read: ReadDocumentResult;
      try {
        const pages = await readPdfPages(Buffer.from(pdf.base64, 'base64'), options);
        read = { ...pages, eInvoice, xmlPdf: { name: pdf.name, ...carried } };
      } catch (error) {
        if (!(error instanceof DocumentReadError)) throw error;
        read = { pages: [], ocrPages: [], timings: [], pageCount: 0, eInvoice, xmlPdf: { name: pdf.name, error: error.message, ...carried } };
      }
      if (pdfs.length === 1 || showsInvoiceNumber(eInvoice, read.pages)) return read;
      first ??= read;
    }
    return first!;
  }
  if (type !== 'pdf') {
    const started = performance.now();
    const page = await options.ocr.recognize(Buffer.from(bytes), 1);
    return {
      pages: [page],
      ocrPages: [1],
      timings: [{ pageNumber: 1, source: 'ocr', milliseconds: performance.now() - started }],
      pageCount: 1,
    };
  }
  return readPdfPages(bytes, options);
}

/**
 * The first page of the PDF an XML e-invoice carries, as a PNG (the invoice page's preview), or
 * undefined when it carries none. Of several, the first whose text layer shows the invoice's
 * number (see readDocument), else the first. The XML and the PDFs are read in bounded workers.
 */
export async function xmlPdfFirstPage(bytes: Uint8Array, name: string, dpi?: number): Promise<RenderedPage | undefined> {
  const { pdfs = [], ...eInvoice } = await readEInvoiceFile(bytes, name);
  if (pdfs.length === 0) return undefined;
  const files = pdfs.map((pdf) => Buffer.from(pdf.base64, 'base64'));
  const texts: string[] = [];
  for (const file of files.length > 1 ? files : []) {
    const read = await readPdfBounded(file, { minTextChars: 0 }).catch(() => undefined);
    texts.push(read ? pagesText(read.pages.map((p) => ('page' in p ? p.page : p.textPage))) : '');
  }
  const shown = files[ownPageIndex(eInvoice, texts)];
  return renderFirstPagePng(shown, dpi);
}

/** A PDF's pages: text-layer pages as they are, scanned ones through OCR (kept in the PDF's point space). */
async function readPdfPages(bytes: Uint8Array, options: ReadDocumentOptions): Promise<ReadDocumentResult> {
  // pdfjs runs only in a bounded worker (memory, time, stream and page budgets); scanned pages
  // come back rendered and go through OCR here
  const read = await readPdfBounded(bytes, { maxPages: options.maxPages ?? 20, dpi: options.dpi, minTextChars: options.minTextChars });
  const pages: LayoutPage[] = [];
  const ocrPages: number[] = [];
  const timings: PageTiming[] = [];
  for (const p of read.pages) {
    const started = performance.now();
    let page: LayoutPage;
    if ('page' in p) {
      page = p.page;
    } else {
      const ocrPage = await options.ocr.recognize(Buffer.from(p.scanned.png), p.pageNumber);
      // Keep the OCR result in the PDF's point space, like text-layer pages.
      page = scalePage(ocrPage, p.textPage.width / p.scanned.width, p.textPage.height / p.scanned.height);
      ocrPages.push(p.pageNumber);
    }
    pages.push(page);
    timings.push({ pageNumber: p.pageNumber, source: page.source, milliseconds: p.milliseconds + performance.now() - started });
  }
  return { pages, ocrPages, timings, pageCount: read.pageCount, ...(read.eInvoice ? { eInvoice: read.eInvoice } : {}) };
}

function scalePage(page: LayoutPage, sx: number, sy: number): LayoutPage {
  const scaleBox = <T extends { x: number; y: number; width: number; height: number }>(b: T): T => ({
    ...b,
    x: b.x * sx,
    y: b.y * sy,
    width: b.width * sx,
    height: b.height * sy,
  });
  const words = page.words.map(scaleBox);
  const index = new Map(page.words.map((w, i) => [w, words[i]]));
  return {
    ...page,
    width: page.width * sx,
    height: page.height * sy,
    words,
    lines: page.lines.map((l) => ({ ...scaleBox(l), words: l.words.map((w) => index.get(w) ?? scaleBox(w)) })),
  };
}
