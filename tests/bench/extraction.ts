/**
 * Invoice extraction benchmark: `npx tsx tests/bench/extraction.ts [--text N] [--scanned N] [--png N] [--workers N]`
 * (`--full` = 200 text-layer, 40 scanned, 20 PNG). Scores the held-out renders of the generated
 * test set (layouts and fonts not used while tuning) and prints per-field precision, recall, F1
 * and overall, and the seconds per page for text-layer and scanned pages on one OCR worker.
 * Prints figures; asserts nothing.
 */
import { performance } from 'node:perf_hooks';
import { extractInvoice } from '../../src/server/ai/extraction/invoice';
import { readDocument, type DocumentType } from '../../src/server/ai/extraction/read-document';
import { TesseractOcrPool } from '../../src/server/ai/ocr/tesseract-pool';
import { pdfToPng, pngToScannedPdf, renderInvoicePdf, specs, HELD_OUT, TUNING } from '../support/invoices/render';
import { prf, scoreInvoice, type Counts } from '../support/invoices/score';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const full = process.argv.includes('--full');
const nText = arg('text', full ? 200 : 40);
const nScanned = arg('scanned', full ? 40 : 12);
const nPng = arg('png', full ? 20 : 0);
const workers = arg('workers', 1);
const verbose = process.argv.includes('--verbose');

function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

function table(title: string, counts: Map<string, Counts>): void {
  console.log(`\n${title}`);
  console.log(`${'field'.padEnd(18)} ${'precision'.padStart(9)} ${'recall'.padStart(8)} ${'F1'.padStart(7)}   tp/fp/fn`);
  const all: Counts = { tp: 0, fp: 0, fn: 0 };
  for (const [field, c] of counts) {
    const m = prf(c);
    all.tp += c.tp;
    all.fp += c.fp;
    all.fn += c.fn;
    console.log(`${field.padEnd(18)} ${m.precision.toFixed(3).padStart(9)} ${m.recall.toFixed(3).padStart(8)} ${m.f1.toFixed(3).padStart(7)}   ${c.tp}/${c.fp}/${c.fn}`);
  }
  const m = prf(all);
  console.log(`${'OVERALL'.padEnd(18)} ${m.precision.toFixed(3).padStart(9)} ${m.recall.toFixed(3).padStart(8)} ${m.f1.toFixed(3).padStart(7)}   ${all.tp}/${all.fp}/${all.fn}`);
}

async function run(kind: 'text-layer' | 'scanned-pdf' | 'png', n: number, firstSeed: number, ocr: TesseractOcrPool) {
  const counts = new Map<string, Counts>();
  const seconds: number[] = [];
  for (const spec of specs('held-out', n, firstSeed)) {
    const inv = await renderInvoicePdf(spec);
    let bytes: Uint8Array = inv.pdf;
    let type: DocumentType = 'pdf';
    if (kind !== 'text-layer') {
      const png = await pdfToPng(inv.pdf, 200);
      bytes = kind === 'png' ? png : await pngToScannedPdf(png);
      type = kind === 'png' ? 'png' : 'pdf';
    }
    const started = performance.now();
    const doc = await readDocument(bytes, type, { ocr, dpi: 200 });
    const result = extractInvoice(doc.pages);
    seconds.push((performance.now() - started) / 1000);
    const misses = scoreInvoice(result, inv.truth, inv.data, counts);
    if (verbose && misses.length) console.log(`  ${kind} ${spec.layout}/${spec.font}/${spec.seed}: ${misses.join('; ')}`);
  }
  return { counts, seconds };
}

async function main() {
  console.log(`Invoice extraction bench — node ${process.version}, ${require('node:os').cpus().length} cores, ${workers} OCR worker(s)`);
  console.log(`Held out: layouts ${HELD_OUT.layouts.join(', ')} and font ${HELD_OUT.fonts.join(', ')} (tuning used ${TUNING.layouts.join(', ')} × ${TUNING.fonts.join(', ')}); each render is held out in its layout or its font or both.`);
  const ocr = new TesseractOcrPool({ workers });
  try {
    // Warm up: start the OCR worker and load pdfjs, so page timings exclude one-off start costs.
    const warm = await renderInvoicePdf({ seed: 999999, layout: 'classic', font: 'helvetica' });
    const t0 = performance.now();
    await ocr.recognize(await pdfToPng(warm.pdf, 100));
    console.log(`OCR worker start + first small page: ${((performance.now() - t0) / 1000).toFixed(2)} s`);

    const text = await run('text-layer', nText, 1, ocr);
    table(`Text-layer PDFs (${nText} held-out pages)`, text.counts);
    const latency: [string, number[]][] = [['text-layer page', text.seconds]];
    if (nScanned > 0) {
      const scanned = await run('scanned-pdf', nScanned, 5001, ocr);
      table(`Scanned PDFs, 200 dpi image pages (${nScanned} held-out pages, OCR)`, scanned.counts);
      latency.push(['scanned 200-dpi A4 page', scanned.seconds]);
    }
    if (nPng > 0) {
      const png = await run('png', nPng, 9001, ocr);
      table(`PNG at 200 dpi (${nPng} held-out pages, OCR)`, png.counts);
      latency.push(['PNG 200-dpi A4 page', png.seconds]);
    }
    console.log('\nSeconds per page (read + extract, one OCR worker)');
    for (const [name, xs] of latency) {
      console.log(`${name.padEnd(26)} median ${quantile(xs, 0.5).toFixed(3)} s   p95 ${quantile(xs, 0.95).toFixed(3)} s   n=${xs.length}`);
    }
  } finally {
    await ocr.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
