import { openPdf } from '../../src/server';
import type { PdfTextReader } from './document-text';

/** Pages read at most from one PDF; a search index of a longer file covers its first pages. */
export const MAX_PDF_PAGES = 300;

interface TextRun {
  str?: string;
  hasEOL?: boolean;
}

/**
 * Every page's text layer, pages separated by blank lines, runs joined with spaces and line
 * ends kept (pdfjs through src/server/ai/pdf, which turns password and damage into readable
 * errors).
 */
export const readPdfText: PdfTextReader = async (bytes) => {
  const doc = await openPdf(bytes);
  try {
    const pages: string[] = [];
    const count = Math.min(doc.numPages, MAX_PDF_PAGES);
    for (let n = 1; n <= count; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items as TextRun[]) {
        if (typeof item.str !== 'string') continue;
        text += item.str + (item.hasEOL ? '\n' : ' ');
      }
      pages.push(text.replace(/[ \t]+/g, ' ').trim());
      page.cleanup();
    }
    return pages.join('\n\n');
  } finally {
    await doc.destroy();
  }
};
