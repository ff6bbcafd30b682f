import type { PdfDocument } from './pdfjs';

/** A rendered page image. */
export interface RenderedPage {
  png: Buffer;
  width: number;
  height: number;
  dpi: number;
}

/** Largest side, in pixels, a render may have (guards memory against absurd page sizes). */
const MAX_SIDE = 8000;

/**
 * Renders one page (1-based) of an open PDF to a PNG at the given resolution on a white
 * background, with the canvas pdfjs itself loads (its own @napi-rs/canvas, whose Path2D it draws).
 */
export async function renderPdfPage(pdf: PdfDocument, pageNumber: number, dpi = 200): Promise<RenderedPage> {
  const page = await pdf.getPage(pageNumber);
  let scale = dpi / 72;
  const base = page.getViewport({ scale: 1 });
  const side = Math.max(base.width, base.height) * scale;
  if (side > MAX_SIDE) scale *= MAX_SIDE / side;
  const viewport = page.getViewport({ scale });
  const width = Math.ceil(viewport.width);
  const height = Math.ceil(viewport.height);
  const factory = pdf.canvasFactory as {
    create(w: number, h: number): { canvas: { toBuffer(mime: 'image/png'): Buffer }; context: CanvasRenderingContext2D };
    destroy(c: unknown): void;
  };
  const target = factory.create(width, height);
  target.context.fillStyle = '#ffffff';
  target.context.fillRect(0, 0, width, height);
  await page.render({ canvasContext: target.context, viewport, canvas: null } as unknown as Parameters<typeof page.render>[0]).promise;
  const png = target.canvas.toBuffer('image/png');
  factory.destroy(target);
  page.cleanup();
  return { png, width, height, dpi: (scale * 72) | 0 };
}
