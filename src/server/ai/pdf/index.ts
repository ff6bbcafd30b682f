export * from './errors';
export { openPdf, loadPdfjs, type PdfDocument } from './pdfjs';
export * from './text-layer';
export * from './render';
export * from './read-pdf';
