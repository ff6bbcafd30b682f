import { DocumentReadError, readPdfBounded } from '../../src/server';
import type { PdfTextReader } from './document-text';

/** Pages read at most from one PDF; a search index of a longer file covers its first pages. */
export const MAX_PDF_PAGES = 300;

/**
 * Every page's text layer, pages separated by blank lines, one line of text per printed line.
 * The PDF is read off the request thread, in the bounded worker of src/server/ai/pdf
 * (readPdfBounded): its compressed streams are counted against the upload budget before pdfjs
 * opens it, and the worker's memory and time are capped, so a PDF bomb, a password or a damaged
 * file is refused with a readable sentence (a DocumentReadError) while the server keeps answering.
 * Pages without text are not rendered (`minTextChars: 0`): the search has no OCR of its own.
 */
export const readPdfText: PdfTextReader = async (bytes) => {
  let pages;
  try {
    ({ pages } = await readPdfBounded(bytes, { maxPages: MAX_PDF_PAGES, minTextChars: 0 }));
  } catch (error) {
    // A PDF without pages has no text: the caller says there is nothing to search in it.
    if (error instanceof DocumentReadError && error.reason === 'empty' && bytes.length > 0) return '';
    throw error;
  }
  return pages
    .map((read) =>
      ('page' in read ? read.page : read.textPage).lines
        .map((line) => line.text.replace(/[ \t]+/g, ' ').trim())
        .join('\n')
        .trim(),
    )
    .join('\n\n');
};
