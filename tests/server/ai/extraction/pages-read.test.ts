/**
 * @jest-environment node
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { runExtractionJob } from '../../../../src/server/ai/extraction/jobs';
import type { FileStore } from '../../../../src/server/files/file-store';
import type { OcrEngine } from '../../../../src/server/ai/ocr';

jest.setTimeout(120_000);

/** A PDF with a text layer: page n says "Page n of the report" and a sentence. */
async function pdf(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Page ${n} of the report`, { x: 72, y: 760, size: 14, font });
    page.drawText('Quarterly figures for the warehouse, the fleet and the offices.', { x: 72, y: 730, size: 12, font });
  }
  return Buffer.from(await doc.save());
}

function storeOf(bytes: Buffer): FileStore {
  const meta = {
    bucket: 'uploads',
    key: 'k.pdf',
    kind: 'pdf' as const,
    size: bytes.length,
    originalName: 'report.pdf',
    mime: 'application/pdf',
    createdAt: '',
    sha256: '',
  };
  return {
    stat: async () => meta,
    read: async () => bytes,
    open: async () => {
      throw new Error('not used');
    },
    put: async () => {
      throw new Error('not used');
    },
    delete: async () => undefined,
  };
}
const ocr: OcrEngine = {
  recognize: async () => {
    throw new Error('a page with a text layer is not recognised by OCR');
  },
  close: async () => undefined,
};
const job = { id: 'j1', attempt: 1, progress: async () => undefined };
const events = { publish: () => undefined };

describe('extraction job: how many pages were read (issue 25)', () => {
  it.each([
    [3, 3],
    [25, 20],
  ])('a %i-page PDF: %i pages read', async (pages, read) => {
    const outcome = await runExtractionJob(
      { owner: 1, bucket: 'uploads', key: 'k.pdf', queuedAt: Date.now() },
      job,
      { files: storeOf(await pdf(pages)), ocr, events },
      (p) => p.map((page) => page.lines[0].text),
    );
    expect(outcome).toMatchObject({ ok: true, name: 'report.pdf', pages, pagesRead: read, ocrPages: [] });
    expect(outcome.ok && outcome.result).toEqual(Array.from({ length: read }, (_, i) => `Page ${i + 1} of the report`));
  });
});
