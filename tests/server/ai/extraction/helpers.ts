import { readFileSync } from 'node:fs';
import path from 'node:path';
import { extractInvoice } from '../../../../src/server/ai/extraction/invoice';
import { readDocument } from '../../../../src/server/ai/extraction/read-document';
import { buildPage } from '../../../../src/server/ai/layout/group';
import type { LayoutPage, LayoutWord } from '../../../../src/server/ai/layout/types';
import type { OcrEngine } from '../../../../src/server/ai/ocr';

/** For text-layer PDFs only: no page of them may need OCR. */
export const noOcr: OcrEngine = {
  recognize: () => Promise.reject(new Error('no page of these PDFs needs OCR')),
  close: async () => undefined,
};

/** A text-layer PDF of the real corpus (tests/fixtures/real-invoices), read and extracted. */
export async function extractCorpusPdf(file: string) {
  const bytes = readFileSync(path.join(__dirname, '../../../fixtures/real-invoices', file));
  const doc = await readDocument(bytes, 'pdf', { ocr: noOcr });
  return extractInvoice(doc.pages);
}

/** Expects the fields `expected` names to have been extracted with those values (it says which fields a test checks). */
export const expectFields = (r: ReturnType<typeof extractInvoice>, expected: Record<string, unknown>) =>
  expect(Object.fromEntries(Object.keys(expected).map((k) => [k, r.fields[k as keyof typeof r.fields]?.value]))).toEqual(expected);

/**
 * Builds a text-layer page from [x, y, text, size?] runs, as if written in a monospaced font:
 * each character is 0.6 × size wide, a space one character. Lets tests lay out documents by hand.
 */
export function page(runs: [number, number, string, number?][], pageNumber = 1): LayoutPage {
  const words: LayoutWord[] = [];
  for (const [x, y, text, size = 10] of runs) {
    const w = size * 0.6;
    const re = /\S+/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) words.push({ text: m[0], x: x + m.index * w, y, width: m[0].length * w, height: size, confidence: 1 });
  }
  return buildPage(pageNumber, 595, 842, 'text-layer', words);
}

/**
 * An OCR page (600 × 900 px unless given) from [x, y, text, confidence?, size?] runs, `size` px
 * high (10), 0.6 × size a character, read with `confidence` (0.95 unless given).
 */
export function ocrPage(
  runs: [number, number, string, number?, number?][],
  { width = 600, height = 900, confidence: sure = 0.95 }: { width?: number; height?: number; confidence?: number } = {},
): LayoutPage {
  const words: LayoutWord[] = [];
  for (const [x, y, text, confidence = sure, size = 10] of runs) {
    const re = /\S+/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) words.push({ text: m[0], x: x + m.index * size * 0.6, y, width: m[0].length * size * 0.6, height: size, confidence });
  }
  return buildPage(1, width, height, 'ocr', words);
}

/** A scanned till slip (300 px wide, `height` px tall, read with confidence 0.92) from [x, y, text, size?] runs. */
export function slipPage(runs: [number, number, string, number?][], height = 900): LayoutPage {
  return ocrPage(
    runs.map(([x, y, text, size]) => [x, y, text, undefined, size]),
    { width: 300, height, confidence: 0.92 },
  );
}
