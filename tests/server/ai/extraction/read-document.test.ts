import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { imageSize } from 'image-size';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import { extractInvoice } from '../../../../src/server/ai/extraction/invoice';
import { readDocument } from '../../../../src/server/ai/extraction/read-document';
import { buildPage } from '../../../../src/server/ai/layout/group';
import type { OcrEngine } from '../../../../src/server/ai/ocr/ocr-engine';
import { TesseractOcrPool } from '../../../../src/server/ai/ocr/tesseract-pool';
import { DocumentReadError } from '../../../../src/server/ai/pdf/errors';
import { renderFirstPagePng } from '../../../../src/server/ai/pdf/read-pdf';
import { pngToScannedPdf, renderInvoicePdf } from '../../../support/invoices/render';

/** An OCR engine that records what it was given and answers with one fixed word. */
function fakeOcr(): OcrEngine & { images: Buffer[] } {
  const images: Buffer[] = [];
  return {
    images,
    async recognize(image, pageNumber = 1) {
      images.push(image);
      const { width = 0, height = 0 } = imageSize(image);
      return buildPage(pageNumber, width, height, 'ocr', [{ text: 'Scanned', x: 100, y: 100, width: 200, height: 40, confidence: 0.9 }]);
    },
    async close() {},
  };
}

describe('readDocument', () => {
  it('reads a generated text-layer invoice without OCR and extracts its known fields', async () => {
    const inv = await renderInvoicePdf({ seed: 7, layout: 'classic', font: 'helvetica' });
    const ocr = fakeOcr();
    const doc = await readDocument(inv.pdf, 'pdf', { ocr });
    expect(doc.ocrPages).toEqual([]);
    expect(ocr.images).toHaveLength(0);
    expect(doc.pages[0].source).toBe('text-layer');
    const result = extractInvoice(doc.pages);
    for (const field of ['invoice_number', 'invoice_date', 'due_date', 'total', 'subtotal', 'tax', 'currency', 'customer_name'] as const) {
      expect(result.fields[field]?.value).toEqual(inv.truth[field]);
    }
    expect(result.lineItems).toHaveLength(inv.data.lines.length);
    expect(result.warnings).toEqual([]);
  });

  it('reads a page shown turned (its /Rotate set on upright content) as upright, and a page drawn turned and shown upright as it is shown', async () => {
    const inv = await renderInvoicePdf({ seed: 7, layout: 'classic', font: 'helvetica' });
    for (const turn of [90, 180, 270]) {
      const pdf = await PDFDocument.load(inv.pdf);
      pdf.getPage(0).setRotation(degrees(turn));
      const result = extractInvoice((await readDocument(await pdf.save(), 'pdf', { ocr: fakeOcr() })).pages);
      for (const field of ['invoice_number', 'invoice_date', 'total', 'subtotal', 'tax', 'customer_name'] as const)
        expect([turn, field, result.fields[field]?.value]).toEqual([turn, field, inv.truth[field]]);
      expect(result.lineItems).toHaveLength(inv.data.lines.length);
    }
    // a landscape page drawn on a portrait sheet, its text running up the sheet, shown upright by /Rotate 90
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const sheet = pdf.addPage([595, 842]);
    sheet.setRotation(degrees(90));
    for (const [i, text] of ['Invoice no. 4711', 'Total due 129.50 EUR'].entries())
      sheet.drawText(text, { x: 100 + 30 * i, y: 100, size: 14, font, rotate: degrees(90) });
    const page = (await readDocument(await pdf.save(), 'pdf', { ocr: fakeOcr() })).pages[0];
    expect(page).toMatchObject({ width: 842, height: 595 });
    expect(page.lines.map((l) => l.words.map((w) => w.text).join(' '))).toEqual(['Invoice no. 4711', 'Total due 129.50 EUR']);
  });

  it('reads a word a PDF sets in several runs, each starting where the last ended, as one word; runs apart stay apart', async () => {
    const pdf = await PDFDocument.create();
    // two fonts in turn, so that pdf.js does not join the runs itself
    const fonts = [await pdf.embedFont(StandardFonts.Helvetica), await pdf.embedFont(StandardFonts.Courier)];
    const font = fonts[0];
    const pdfPage = pdf.addPage([595, 842]);
    let x = 60;
    for (const [i, run] of ['Invoice # ', 'RE-20', '201121', '/50', '8'].entries()) {
      pdfPage.drawText(run, { x, y: 700, size: 12, font: fonts[i % 2] });
      x += fonts[i % 2].widthOfTextAtSize(run, 12);
    }
    pdfPage.drawText('issued', { x: x + 4, y: 700, size: 12, font });
    const doc = await readDocument(await pdf.save(), 'pdf', { ocr: fakeOcr() });
    expect(doc.pages[0].lines[0].words.map((w) => w.text)).toEqual(['Invoice', '#', 'RE-20201121/508', 'issued']);
    expect(extractInvoice(doc.pages).fields.invoice_number?.value).toBe('RE-20201121/508');
  });

  it('sends a scanned page (no text layer) to OCR at 200 dpi and maps the result back to points', async () => {
    const png = createCanvas(100, 141).toBuffer('image/png');
    const scanned = await pngToScannedPdf(png);
    const ocr = fakeOcr();
    const doc = await readDocument(scanned, 'pdf', { ocr, dpi: 200 });
    expect(doc.ocrPages).toEqual([1]);
    const size = imageSize(ocr.images[0]);
    expect(size.width).toBeGreaterThan(1600);
    expect(doc.pages[0].width).toBeCloseTo(595.28, 0);
    expect(doc.pages[0].words[0].x).toBeCloseTo((100 * 595.28) / size.width!, 1);
  });

  it('refuses a corrupt PDF, an empty file and a file whose content is not its type, with readable errors', async () => {
    const ocr = fakeOcr();
    const corrupt = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >>\ngarbage garbage\n%%EOF');
    await expect(readDocument(corrupt, 'pdf', { ocr })).rejects.toThrow(DocumentReadError);
    await expect(readDocument(corrupt, 'pdf', { ocr })).rejects.toThrow(/could not be read|damaged|no pages/);
    await expect(readDocument(Buffer.alloc(0), 'pdf', { ocr })).rejects.toThrow('The file is empty.');
    await expect(readDocument(Buffer.from('hello'), 'png', { ocr })).rejects.toThrow('The file is not a valid PNG document.');
    const png = createCanvas(10, 10).toBuffer('image/png');
    await expect(readDocument(png, 'pdf', { ocr })).rejects.toThrow('The file was uploaded as PDF but its content is PNG.');
  });

  it('renders the first page of a PDF as the preview PNG', async () => {
    const inv = await renderInvoicePdf({ seed: 3, layout: 'modern', font: 'times' });
    const preview = await renderFirstPagePng(inv.pdf, 72);
    expect(preview.png.subarray(1, 4).toString()).toBe('PNG');
    expect(imageSize(preview.png)).toMatchObject({ width: 596, height: 842 });
  });
});

describe('TesseractOcrPool (real OCR, one round trip)', () => {
  let cache: string;
  let ocr: TesseractOcrPool;
  beforeAll(() => {
    cache = mkdtempSync(path.join(tmpdir(), 'ocr-cache-'));
    ocr = new TesseractOcrPool({ workers: 1, cachePath: cache });
  });
  afterAll(async () => {
    await ocr.close();
    rmSync(cache, { recursive: true, force: true });
  });

  /** A 900 px wide white PNG with one line of black sans-serif text every 60 px from y = `top`. */
  function textPng(lines: string[], height: number, px: number, top: number): Buffer {
    const canvas = createCanvas(900, height);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, 900, height);
    ctx.fillStyle = '#000';
    ctx.font = `${px}px "DejaVu Sans", "Liberation Sans", sans-serif`;
    lines.forEach((line, i) => ctx.fillText(line, 30, top + i * 60));
    return canvas.toBuffer('image/png');
  }

  it('reads a small PNG invoice with the bundled English model', async () => {
    const png = textPng(['Invoice No: INV-4821', 'Invoice Date: 2026-03-01', 'Total Due: $1,234.56'], 260, 28, 60);
    const doc = await readDocument(png, 'png', { ocr });
    expect(doc.ocrPages).toEqual([1]);
    const result = extractInvoice(doc.pages);
    expect(result.fields.invoice_number?.value).toBe('INV-4821');
    expect(result.fields.invoice_date?.value).toBe('2026-03-01');
    expect(result.fields.total?.value).toBe(1234.56);
    expect(result.fields.currency?.value).toBe('USD');
    expect(result.fields.total!.confidence).toBeLessThanOrEqual(1);
  }, 120_000);

  it('reads German words with umlauts and ß (German model beside English), boxes in the image pixels', async () => {
    const png = textPng(['Rechnung für Frau Müller', 'Hauptstraße 12, 80331 München', 'Gebühren gemäß Größe: 45,90 EUR'], 240, 30, 70);
    // English alone read 'fir Muller Hauptstralle Miinchen Geblhren gemaR GréBe' here
    const page = await ocr.recognize(png, 1);
    const words = page.words.map((w) => w.text.replace(/[,.:]+$/, ''));
    for (const word of ['für', 'Müller', 'Hauptstraße', 'München', 'Gebühren', 'gemäß', 'Größe', '45,90']) {
      expect(words).toContain(word);
    }
    const street = page.words.find((w) => w.text.startsWith('Hauptstraße'))!;
    expect(street.x).toBeGreaterThan(20);
    expect(street.x).toBeLessThan(45);
    expect(street.y).toBeGreaterThan(70);
    expect(street.y).toBeLessThan(140);
  }, 120_000);

  it('refuses bytes that are not an image, and work after close', async () => {
    await expect(ocr.recognize(Buffer.from('not an image'))).rejects.toThrow('The image could not be read (not a valid PNG or JPEG).');
    const closed = new TesseractOcrPool();
    await closed.close();
    await expect(closed.recognize(Buffer.from('x'))).rejects.toThrow('The OCR engine has been shut down.');
  }, 60_000);
});
