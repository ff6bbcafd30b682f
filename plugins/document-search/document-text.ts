import { eInvoiceText, ownPageIndex, readEInvoiceFile, type FileKind } from '../../src/server';

/** Reads the text of a PDF (every page's text layer), or throws an Error with a readable message. */
export type PdfTextReader = (bytes: Uint8Array) => Promise<string>;

/** The kinds whose text the index reads from an upload at once (a text layer, plain text, an XML e-invoice's data). */
export const SEARCHABLE_KINDS: readonly FileKind[] = ['txt', 'pdf', 'xml'];

/** The file is of a kind the index cannot read text from. */
export class UnsearchableFileError extends Error {
  readonly statusCode = 415;
  constructor() {
    super('Only PDF, text, image (PNG or JPEG) and XML e-invoice files can be added to the search; this file is none of these.');
    this.name = 'UnsearchableFileError';
  }
}

/** The document has no text (a PDF without a text layer, a scan where OCR read nothing) or could not be read. */
export class UnreadableDocumentError extends Error {
  readonly statusCode = 422;
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableDocumentError';
  }
}

/**
 * The text of a stored file: UTF-8 for text files (the store has checked the encoding), the
 * text layer for PDFs, an XML e-invoice's data written out (then the text layer of the PDF it
 * carries). A PDF without any text (a scanned image) is refused, since there is nothing to search.
 */
export async function documentText(kind: FileKind, bytes: Buffer, readPdf: PdfTextReader, name = 'invoice.xml'): Promise<string> {
  if (kind === 'txt') return bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (kind === 'xml') return eInvoiceFileText(bytes, name, readPdf);
  if (kind !== 'pdf') throw new UnsearchableFileError();
  let text: string;
  try {
    text = await readPdf(bytes);
  } catch (error) {
    throw new UnreadableDocumentError(error instanceof Error && error.message ? error.message : 'The PDF could not be read.');
  }
  if (text.trim() === '') {
    throw new UnreadableDocumentError('The PDF has no text layer (it looks like a scanned image), so there is nothing to search in it.');
  }
  return text;
}

/**
 * An XML e-invoice's text: its data written out, then the text layer of the PDF it carries, of
 * several the one that prints its number (as the extraction chooses, whose text later replaces
 * this in the index); none when it cannot be read.
 */
async function eInvoiceFileText(bytes: Buffer, name: string, readPdf: PdfTextReader): Promise<string> {
  let read: Awaited<ReturnType<typeof readEInvoiceFile>>;
  try {
    read = await readEInvoiceFile(bytes, name);
  } catch (error) {
    throw new UnreadableDocumentError(error instanceof Error && error.message ? error.message : 'The e-invoice could not be read.');
  }
  const { pdfs = [], ...data } = read;
  const texts: string[] = [];
  for (const pdf of pdfs) texts.push((await readPdf(Buffer.from(pdf.base64, 'base64')).catch(() => '')).trim());
  return [eInvoiceText(data), texts.length ? texts[ownPageIndex(data, texts)] : ''].filter(Boolean).join('\n\n');
}
