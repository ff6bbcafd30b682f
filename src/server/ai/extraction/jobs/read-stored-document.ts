import type { FileStore } from '../../../files/file-store';
import type { OcrEngine } from '../../ocr';
import { pagesText } from '../../layout/group';
import { eInvoiceText } from '../e-invoice';
import { readDocument } from '../read-document';

/** The kinds of stored file every extraction workflow reads: page documents. */
export const READABLE_KINDS = ['pdf', 'png', 'jpeg'] as const;
/** What the invoice workflow reads besides: an XML e-invoice (XRechnung, Peppol UBL, CII), its data with no page. */
export const INVOICE_KINDS = [...READABLE_KINDS, 'xml'] as const;
export type ReadableKind = (typeof INVOICE_KINDS)[number];

export type ReadResult = Awaited<ReturnType<typeof readDocument>>;
export type ReadPage = ReadResult['pages'][number];

/** The message when a stored file is of a kind extraction cannot read (a CSV, a text file…). */
export const NOT_A_DOCUMENT_MESSAGE = 'This file cannot be read for extraction: upload a PDF, PNG or JPEG document.';

/** NOT_A_DOCUMENT_MESSAGE for the kinds a workflow reads ("…, or an XML e-invoice" for invoices). */
export function notADocumentMessage(kinds: readonly ReadableKind[] = READABLE_KINDS): string {
  return kinds.includes('xml') ? `${NOT_A_DOCUMENT_MESSAGE.slice(0, -1)}, or an XML e-invoice.` : NOT_A_DOCUMENT_MESSAGE;
}

/** A stored document read into pages, with the facts the extraction reply and the search need. */
export interface StoredDocument {
  name: string;
  kind: ReadableKind;
  read: ReadResult;
  /** The document's text, line by line, pages separated by a blank line. */
  text: string;
}

/** Progress of the reading stage, 0..1, and a sentence saying what is happening. */
export type ReadProgress = (fraction: number, stage: string) => void | Promise<void>;

/** True for a stored file kind among `kinds` (by default the page documents every extractor reads). */
export function isReadableKind(kind: string, kinds: readonly ReadableKind[] = READABLE_KINDS): kind is ReadableKind {
  return (kinds as readonly string[]).includes(kind);
}

/**
 * An OCR engine that reports each recognised page: OCR is the slow part of reading, so the
 * pages it finishes are the honest measure of progress. The fraction approaches 1 as pages are
 * done (the page count of a scan is not known in advance).
 */
function reportingOcr(ocr: OcrEngine, onProgress: ReadProgress | undefined): OcrEngine {
  let done = 0;
  return {
    async recognize(image, pageNumber) {
      await onProgress?.(done / (done + 1), `Recognising the text of page ${pageNumber ?? done + 1}`);
      const page = await ocr.recognize(image, pageNumber);
      done += 1;
      await onProgress?.(done / (done + 1), `Recognised page ${pageNumber ?? done}`);
      return page;
    },
    close: () => ocr.close(),
  };
}

/**
 * Reads one of the owner's stored files (PDF text layer, or OCR for scans and images; an XML
 * e-invoice as its data, whose text is the data written out). Throws the store's
 * FileNotFoundError for a missing or foreign file, an HttpError-free DocumentReadError for an
 * unreadable one (see toUserError), and a NotADocumentError for a kind not among `kinds`.
 */
export async function readStoredDocument(
  files: FileStore,
  ocr: OcrEngine,
  file: { owner: number; bucket: string; key: string },
  onProgress?: ReadProgress,
  kinds: readonly ReadableKind[] = READABLE_KINDS,
): Promise<StoredDocument> {
  const meta = await files.stat(file.owner, file.bucket, file.key);
  if (!isReadableKind(meta.kind, kinds)) throw new NotADocumentError(notADocumentMessage(kinds));
  await onProgress?.(0, 'Opening the document');
  const bytes = await files.read(file.owner, file.bucket, file.key);
  const read = await readDocument(bytes, meta.kind, { ocr: reportingOcr(ocr, onProgress), name: meta.originalName });
  // an XML e-invoice's text is its data written out, then the words of a PDF it carries
  const text = meta.kind === 'xml' && read.eInvoice ? [eInvoiceText(read.eInvoice), pagesText(read.pages)].filter(Boolean).join('\n\n') : pagesText(read.pages);
  return { name: meta.originalName, kind: meta.kind, read, text };
}

/** A stored file whose kind extraction does not read. */
export class NotADocumentError extends Error {
  readonly statusCode = 415;
  constructor(message = NOT_A_DOCUMENT_MESSAGE) {
    super(message);
    this.name = 'NotADocumentError';
  }
}
