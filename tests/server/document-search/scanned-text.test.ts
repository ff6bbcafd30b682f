import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { OcrEngine } from '../../../src/server';
import { MAX_OCR_PAGES, readScannedText } from '../../../plugins/document-search/scanned-text';

/** An OCR engine that reads 'Scanned page N' on page N, and keeps what it was given. */
function fakeOcr() {
  const seen: { pageNumber: number; png: boolean }[] = [];
  const engine: OcrEngine = {
    async recognize(image, pageNumber = 1) {
      seen.push({ pageNumber, png: image.subarray(1, 4).toString('latin1') === 'PNG' });
      const text = `Scanned page ${pageNumber}`;
      const word = { text, x: 0, y: 0, width: 10, height: 10, confidence: 0.9 };
      return { pageNumber, width: 100, height: 100, source: 'ocr', words: [word], lines: [{ ...word, words: [word] }] };
    },
    close: async () => undefined,
  };
  return { engine, seen };
}

/** A PDF whose pages hold these texts ('' for a page without a text layer), small pages so rendering is quick. */
async function pdfOf(pages: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = doc.addPage([144, 144]);
    if (text) page.drawText(text, { x: 10, y: 100, size: 10, font });
  }
  return Buffer.from(await doc.save());
}

describe('reading a scan for the search (readScannedText)', () => {
  it('OCRs an image whole', async () => {
    const { engine, seen } = fakeOcr();
    const progress: number[][] = [];
    const png = Buffer.from('\x89PNG\r\n\x1a\n', 'latin1');
    expect(await readScannedText('png', png, engine, (done, total) => void progress.push([done, total]))).toEqual({
      text: 'Scanned page 1',
      pagesRead: 1,
      pageCount: 1,
      ocrPages: 1,
    });
    expect(seen).toEqual([{ pageNumber: 1, png: true }]);
    expect(progress).toEqual([
      [0, 1],
      [1, 1],
    ]);
  });

  it('keeps the text layer, OCRs only the pages without one among the first 20, and says how many pages were read', async () => {
    // page 1 has text, pages 2..23 are scans: 2..20 are read by OCR, 21..23 are past the budget
    const pages = ['Covering letter from Globex', ...Array.from({ length: 22 }, () => '')];
    const { engine, seen } = fakeOcr();
    const progress: number[][] = [];
    const read = await readScannedText('pdf', await pdfOf(pages), engine, (done, total) => void progress.push([done, total]));
    expect(MAX_OCR_PAGES).toBe(20);
    expect(read).toEqual({
      text: ['Covering letter from Globex', ...Array.from({ length: 19 }, (_, i) => `Scanned page ${i + 2}`)].join('\n\n'),
      pagesRead: 20,
      pageCount: 23,
      ocrPages: 19,
    });
    expect(seen).toEqual(Array.from({ length: 19 }, (_, i) => ({ pageNumber: i + 2, png: true })));
    expect(progress).toEqual(Array.from({ length: 20 }, (_, i) => [i, 19]));
  }, 180_000);

  it('reads a PDF with a text layer on every page without OCR', async () => {
    const { engine, seen } = fakeOcr();
    expect(await readScannedText('pdf', await pdfOf(['First page', 'Second page']), engine)).toEqual({
      text: 'First page\n\nSecond page',
      pagesRead: 2,
      pageCount: 2,
      ocrPages: 0,
    });
    expect(seen).toEqual([]);
  }, 60_000);
});
