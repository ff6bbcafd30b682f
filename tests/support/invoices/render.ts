import { PDFDocument, StandardFonts, rgb, type PDFFont } from 'pdf-lib';
import { openPdf } from '../../../src/server/ai/pdf/pdfjs';
import { renderPdfPage } from '../../../src/server/ai/pdf/render';
import { formatsFor, LAYOUTS, type Layout, type LayoutName, type Painter } from './layouts';
import { randomInvoice, truthOf, type InvoiceData } from './random-invoice';

export const FONTS = {
  helvetica: [StandardFonts.Helvetica, StandardFonts.HelveticaBold],
  times: [StandardFonts.TimesRoman, StandardFonts.TimesRomanBold],
  courier: [StandardFonts.Courier, StandardFonts.CourierBold],
} as const;
export type FontName = keyof typeof FONTS;

/** The fixed split: tuning renders use only these; every other layout and font is held out. */
export const TUNING = { layouts: ['classic', 'headerGrid', 'compactColon'] as LayoutName[], fonts: ['helvetica', 'times'] as FontName[] };
export const HELD_OUT = { layouts: ['rightVendor', 'modern'] as LayoutName[], fonts: ['courier'] as FontName[] };

export interface RenderSpec {
  seed: number;
  layout: LayoutName;
  font: FontName;
}

export interface GeneratedInvoice extends RenderSpec {
  data: InvoiceData;
  truth: Record<string, string | number | undefined>;
  pdf: Uint8Array;
}

// pdf-lib's standard fonts are WinAnsi: no "−" or "·" outside it; the generator keeps to WinAnsi.
const winAnsi = (s: string) => s.replace(/·/g, '-').replace(/—/g, '-');

/** Renders one invoice into a text-layer PDF (A4) with pdf-lib's standard fonts. */
export async function renderInvoicePdf(spec: RenderSpec): Promise<GeneratedInvoice> {
  const data = randomInvoice(spec.seed);
  return { ...spec, data, truth: truthOf(data), pdf: await renderInvoiceData(data, LAYOUTS[spec.layout], spec.font, spec.seed) };
}

/** Renders given invoice data with a layout (one of LAYOUTS or a test's own) into a text-layer PDF. */
export async function renderInvoiceData(data: InvoiceData, layout: Layout, font: FontName = 'helvetica', seed = 1): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setCreationDate(new Date(0));
  doc.setModificationDate(new Date(0));
  const page = doc.addPage([595.28, 841.89]);
  const [regular, bold]: PDFFont[] = await Promise.all(FONTS[font].map((f) => doc.embedFont(f)));
  const H = page.getHeight();
  const painter: Painter = {
    text(x, y, text, opts = {}) {
      const f = opts.bold ? bold : regular;
      const size = opts.size ?? 10;
      const t = winAnsi(text);
      const w = f.widthOfTextAtSize(t, size);
      page.drawText(t, { x: opts.align === 'right' ? x - w : x, y: H - y, size, font: f, color: rgb(0, 0, 0) });
    },
    rule(x0, y, x1) {
      page.drawLine({ start: { x: x0, y: H - y }, end: { x: x1, y: H - y }, thickness: 0.6, color: rgb(0.3, 0.3, 0.3) });
    },
  };
  layout(painter, data, formatsFor(data, seed));
  return doc.save();
}

/** Renders a text-layer PDF's first page to a PNG at `dpi` (the "photographed or scanned" form). */
export async function pdfToPng(pdfBytes: Uint8Array, dpi = 200): Promise<Buffer> {
  const pdf = await openPdf(pdfBytes);
  try {
    return (await renderPdfPage(pdf, 1, dpi)).png;
  } finally {
    await pdf.destroy();
  }
}

/** Wraps a page image into a PDF with no text layer: what a scanner produces. */
export async function pngToScannedPdf(png: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setCreationDate(new Date(0));
  const image = await doc.embedPng(png);
  const page = doc.addPage([595.28, 841.89]);
  page.drawImage(image, { x: 0, y: 0, width: 595.28, height: 841.89 });
  return doc.save();
}

/** Every (layout, font) pair of a split, cycled over consecutive seeds, `count` renders in all. */
export function specs(split: 'tuning' | 'held-out', count: number, firstSeed = 1): RenderSpec[] {
  const layouts = Object.keys(LAYOUTS) as LayoutName[];
  const fonts = Object.keys(FONTS) as FontName[];
  const pairs = layouts.flatMap((layout) => fonts.map((font) => ({ layout, font })));
  const tuning = (p: { layout: LayoutName; font: FontName }) => TUNING.layouts.includes(p.layout) && TUNING.fonts.includes(p.font);
  const chosen = pairs.filter((p) => (split === 'tuning' ? tuning(p) : !tuning(p)));
  return Array.from({ length: count }, (_, i) => ({ ...chosen[i % chosen.length], seed: firstSeed + i }));
}
