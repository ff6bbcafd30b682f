/**
 * Invoice extraction benchmark: `npx tsx tests/bench/extraction.ts [--text N] [--scanned N] [--png N] [--workers N] [--real-only] [--generated-only] [--scans-only] [--text-only] [--split dev] [--verbose]`
 * (`--full` = 200 text-layer, 40 scanned, 20 PNG). `--text-only` scores the real text-layer PDFs
 * alone (no OCR); `--split dev` prints `--verbose` misses for dev documents only and hides the
 * held-out columns of the tables (use it while tuning).
 *
 * First the real corpus (tests/fixtures/real-invoices: invoices from public open-source test
 * suites with hand-checked truth, see its README): per-field precision and recall on the held-out
 * split beside the dev split, the share of invoices with a line table whose every line was read,
 * the count of wrong fields shown as certain, and the median seconds per page; text-layer PDFs and
 * real scans/photos (page images and image-only PDFs, read through the product's OCR path:
 * readDocument with the Tesseract pool) are two groups, each with its own table
 * (`--scans-only` runs the scans group alone). Then the generated
 * invoices (a regression set only): the held-out renders (layouts and fonts not used while tuning),
 * per-field precision, recall, F1 and overall, and the seconds per page for text-layer and scanned
 * pages on the product's OCR workers (DEFAULT_OCR_WORKERS, or `--workers N`). Prints figures; asserts nothing.
 * `--corpus DIR` scores another folder of documents with truth files of the same form instead (a
 * copy of the corpus as it stood, to compare a change on the same documents).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { InvoiceExtraction } from '../../src/server/ai/extraction/invoice';
import { withEInvoice, type EInvoice } from '../../src/server/ai/extraction/e-invoice';
import { extractInvoice } from '../../src/server/ai/extraction/invoice';
import { pagesText } from '../../src/server/ai/layout/group';
import { readDocument, type DocumentType } from '../../src/server/ai/extraction/read-document';
import type { LayoutPage } from '../../src/server/ai/layout/types';
import { DocumentReadError } from '../../src/server/ai/pdf/errors';
import { DEFAULT_OCR_WORKERS, TesseractOcrPool } from '../../src/server/ai/ocr/tesseract-pool';
import { editDistance } from '../../src/server/ai/text/edit-distance';
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
const workers = arg('workers', DEFAULT_OCR_WORKERS);
const verbose = process.argv.includes('--verbose');
const scansOnly = process.argv.includes('--scans-only');
const textOnly = process.argv.includes('--text-only');
const realOnly = scansOnly || textOnly || process.argv.includes('--real-only');
/** `--generated-only`: the generated regression set alone (its speeds), no real corpus. */
const generatedOnly = process.argv.includes('--generated-only');
/** `--split dev`: misses are printed for dev documents only, and the tables hide the held-out columns. */
const missSplit = process.argv.includes('--split') ? process.argv[process.argv.indexOf('--split') + 1] : undefined;

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
    console.log(
      `${field.padEnd(18)} ${m.precision.toFixed(3).padStart(9)} ${m.recall.toFixed(3).padStart(8)} ${m.f1.toFixed(3).padStart(7)}   ${c.tp}/${c.fp}/${c.fn}`,
    );
  }
  const m = prf(all);
  console.log(
    `${'OVERALL'.padEnd(18)} ${m.precision.toFixed(3).padStart(9)} ${m.recall.toFixed(3).padStart(8)} ${m.f1.toFixed(3).padStart(7)}   ${all.tp}/${all.fp}/${all.fn}`,
  );
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

// ---- The real corpus -------------------------------------------------------------------------

/**
 * `--ocr-cache DIR`: each document's reading (its pages and e-invoice data) is kept in DIR and used
 * again while the code that reads documents (OCR, PDF, layout) is unchanged, so that extraction
 * rules can be tried on the scans in seconds. The seconds per page are then not measured.
 */
const ocrCache = process.argv.includes('--ocr-cache') ? process.argv[process.argv.indexOf('--ocr-cache') + 1] : undefined;

/** A hash of the source files that read a document into pages (a cached reading is kept only while they are unchanged). */
let readerHashMemo: string | undefined;
function readerHash(): string {
  if (readerHashMemo) return readerHashMemo;
  const hash = createHash('sha1');
  for (const dir of ['ocr', 'pdf', 'layout'].map((d) => join(__dirname, '../../src/server/ai', d)))
    for (const f of readdirSync(dir).sort()) if (f.endsWith('.ts')) hash.update(readFileSync(join(dir, f)));
  hash.update(readFileSync(join(__dirname, '../../src/server/ai/extraction/read-document.ts')));
  return (readerHashMemo = hash.digest('hex').slice(0, 16));
}

/** readDocument, through the `--ocr-cache` folder when one is given. */
async function readCached(bytes: Buffer, file: string, ocr: TesseractOcrPool): Promise<{ pages: LayoutPage[]; eInvoice?: EInvoice; cached: boolean }> {
  const path = ocrCache && join(ocrCache, `${createHash('sha1').update(bytes).digest('hex')}-${readerHash()}.json`);
  if (path && existsSync(path)) return { ...(JSON.parse(readFileSync(path, 'utf8')) as { pages: LayoutPage[]; eInvoice?: EInvoice }), cached: true };
  const { pages, eInvoice } = await readDocument(bytes, typeOf(file), { ocr, dpi: 200 });
  if (path) {
    mkdirSync(ocrCache!, { recursive: true });
    writeFileSync(path, JSON.stringify({ pages, eInvoice }));
  }
  return { pages, eInvoice, cached: false };
}

const REAL_DIR = process.argv.includes('--corpus') ? process.argv[process.argv.indexOf('--corpus') + 1] : join(__dirname, '../fixtures/real-invoices');
/** The fields scored on real invoices, in the order printed (bench name → extractor field). */
const REAL_FIELDS: [string, string][] = [
  ['invoice number', 'invoice_number'],
  ['issue date', 'invoice_date'],
  ['due date', 'due_date'],
  ['vendor', 'vendor_name'],
  ['buyer', 'customer_name'],
  ['vendor VAT id', 'vendor_vat_id'],
  ['buyer VAT id', 'customer_vat_id'],
  ['currency', 'currency'],
  ['subtotal', 'subtotal'],
  ['tax', 'tax'],
  ['total', 'total'],
];
/** A value at or above this confidence, not marked for review, is shown as certain. */
const CERTAIN = 0.9;

interface TruthLine {
  description: string;
  quantity: number | null;
  unit_price: number | null;
  amount: number | null;
}
/** How the document was made: a PDF with a text layer, or a page image (a flatbed scan or a phone photo). */
type RealKind = 'text-layer' | 'scan' | 'photo';
/** The bench's two groups: text-layer PDFs, and scans with photos (every page goes through OCR). */
type RealGroup = 'text-layer' | 'scans';
interface RealTruth {
  file: string;
  language: string;
  /** Absent on the first documents: text-layer PDFs. */
  kind?: RealKind;
  split: 'dev' | 'heldout';
  fields: Record<string, string | number | null>;
  line_items: TruthLine[] | null;
}

const letters = (v: string) =>
  v
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, '');
/** Text values match ignoring case, spaces and punctuation; a name may carry a little more (a line of its address, a legal form). */
function sameText(field: string, predicted: string, truth: string): boolean {
  const p = letters(predicted);
  const t = letters(truth);
  if (p === t) return true;
  if (field === 'vendor_name' || field === 'customer_name') {
    const [short, long] = p.length < t.length ? [p, t] : [t, p];
    return short.length >= 4 && long.includes(short) && short.length >= long.length * 0.6;
  }
  return false;
}
function sameValue(field: string, predicted: unknown, truth: string | number): boolean {
  if (typeof truth === 'number') return typeof predicted === 'number' && Math.abs(predicted - truth) < 0.005;
  return typeof predicted === 'string' && sameText(field, predicted, truth);
}
function sameLine(p: InvoiceExtraction['lineItems'][number], t: TruthLine): boolean {
  const num = (a: number | undefined, b: number | null, tol: number) => b === null || (a !== undefined && Math.abs(a - b) <= tol);
  const d = letters(p.description);
  const td = letters(t.description);
  return (
    d.length > 0 &&
    (d.includes(td) || td.includes(d)) &&
    num(p.amount, t.amount, 0.005) &&
    num(p.quantity, t.quantity, 0.0005) &&
    num(p.unit_price, t.unit_price, 0.0051)
  );
}

interface RealScore {
  counts: Map<string, Counts>;
  tables: number;
  tablesComplete: number;
  /** True lines, and those read right or with at most an OCR typo in the description (secondary). */
  lines: number;
  linesNear: number;
  certainWrong: number;
  unflaggedWrong: number;
  /** Lines read that are no line of the truth (wrong or extra), shown as certain. */
  certainWrongLines: number;
  docs: number;
  pages: number;
  secondsPerPage: number[];
  /** Documents whose reading came from the `--ocr-cache` folder (their seconds are not the OCR's). */
  cachedReadings: number;
  /** Documents the product could not read (scored as nothing found). */
  unread: string[];
}

const groupOf = (t: RealTruth): RealGroup => ((t.kind ?? 'text-layer') === 'text-layer' ? 'text-layer' : 'scans');
/** The upload type the product would see for the file (it refuses a PDF named .png and the like). */
function typeOf(file: string): DocumentType {
  const ext = file.toLowerCase().split('.').pop();
  if (ext === 'png') return 'png';
  if (ext === 'jpg' || ext === 'jpeg') return 'jpeg';
  return 'pdf';
}

function emptyScore(): RealScore {
  return {
    counts: new Map(),
    tables: 0,
    tablesComplete: 0,
    lines: 0,
    linesNear: 0,
    certainWrong: 0,
    unflaggedWrong: 0,
    certainWrongLines: 0,
    docs: 0,
    pages: 0,
    secondsPerPage: [],
    cachedReadings: 0,
    unread: [],
  };
}

/** Scores one document's extraction against its truth into `score`, adding what was missed to `misses`. */
function tally(score: RealScore, truth: RealTruth, result: InvoiceExtraction, misses: string[]): void {
  const add = (k: string, c: Partial<Counts>) => {
    const cur = score.counts.get(k) ?? { tp: 0, fp: 0, fn: 0 };
    score.counts.set(k, { tp: cur.tp + (c.tp ?? 0), fp: cur.fp + (c.fp ?? 0), fn: cur.fn + (c.fn ?? 0) });
  };
  score.docs++;
  for (const [name, field] of REAL_FIELDS) {
    const t = truth.fields[field];
    const got = (result.fields as Record<string, { value: unknown; confidence: number; needs_review?: boolean } | undefined>)[field];
    const p = got?.value;
    const right = t !== null && t !== undefined && p !== undefined && sameValue(field, p, t);
    if (t === null || t === undefined) {
      if (p !== undefined) add(name, { fp: 1 });
      else add(name, {});
    } else if (p === undefined) add(name, { fn: 1 });
    else if (right) add(name, { tp: 1 });
    else add(name, { fp: 1, fn: 1 });
    if (p !== undefined && !right) {
      if (got!.confidence >= CERTAIN && !got!.needs_review) score.certainWrong++;
      if (got!.confidence >= 0.6 && !got!.needs_review) score.unflaggedWrong++;
      misses.push(`${field}: got ${JSON.stringify(p)} (${got!.confidence}${got!.needs_review ? ', needs review' : ''}), expected ${JSON.stringify(t)}`);
    } else if (p === undefined && t !== null && t !== undefined) misses.push(`${field}: missing (expected ${JSON.stringify(t)})`);
  }
  // Line items: each true line read whole (description, quantity, unit price, amount) is a hit.
  const remaining = [...result.lineItems];
  let found = 0;
  const unmatched: TruthLine[] = [];
  for (const line of truth.line_items ?? []) {
    const i = remaining.findIndex((r) => sameLine(r, line));
    if (i >= 0) {
      remaining.splice(i, 1);
      found++;
      add('line items', { tp: 1 });
    } else {
      add('line items', { fn: 1 });
      unmatched.push(line);
    }
  }
  // Secondary: a line whose amount is right and whose description OCR misread by a letter or
  // two (one edit per eight letters) still counts here; the strict figure above stays the headline.
  if (truth.line_items) {
    const left = [...remaining];
    let near = 0;
    for (const line of unmatched) {
      const t = letters(line.description);
      const i = left.findIndex(
        (r) =>
          line.amount !== null &&
          r.amount !== undefined &&
          Math.abs(r.amount - line.amount) <= 0.005 &&
          editDistance(letters(r.description), t) <= Math.max(1, Math.floor(t.length / 8)),
      );
      if (i >= 0) {
        left.splice(i, 1);
        near++;
      }
    }
    score.linesNear += found + near;
    score.lines += truth.line_items.length;
  }
  if (truth.line_items) {
    score.tables++;
    if (found === truth.line_items.length && remaining.length === 0) score.tablesComplete++;
    else misses.push(`line items: ${found}/${truth.line_items.length} right, ${remaining.length} extra`);
  }
  if (truth.line_items && remaining.length) add('line items', { fp: remaining.length });
  if (truth.line_items) score.certainWrongLines += remaining.filter((r) => r.confidence >= CERTAIN).length;
}

/**
 * The page reading of one split and group (the headline), and, for the PDFs that carry e-invoice
 * data (Factur-X, ZUGFeRD, UBL), those documents scored twice: the page reading alone and the
 * product's result with the data laid over it (withEInvoice).
 */
async function scoreReal(
  split: 'dev' | 'heldout',
  group: RealGroup,
  ocr: TesseractOcrPool,
): Promise<{ score: RealScore; eInvoicePage: RealScore; eInvoiceData: RealScore }> {
  const files = readdirSync(REAL_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const score = emptyScore();
  const eInvoicePage = emptyScore();
  const eInvoiceData = emptyScore();
  for (const f of files) {
    const truth = JSON.parse(readFileSync(join(REAL_DIR, f), 'utf8')) as RealTruth;
    if (truth.split !== split || groupOf(truth) !== group) continue;
    const bytes = readFileSync(join(REAL_DIR, truth.file));
    const started = performance.now();
    const misses: string[] = [];
    let pages: LayoutPage[] = [];
    let eInvoice: EInvoice | undefined;
    try {
      let cached: boolean;
      ({ pages, eInvoice, cached } = await readCached(bytes, truth.file, ocr));
      if (cached) score.cachedReadings += 1;
    } catch (error) {
      // a document the product refuses (its read budget ran out, on a loaded machine) counts as read with nothing found
      if (!(error instanceof DocumentReadError)) throw error;
      score.unread.push(truth.file);
      misses.push(`not read: ${error.message}`);
    }
    const result = extractInvoice(pages);
    if (pages.length) score.secondsPerPage.push((performance.now() - started) / 1000 / pages.length);
    score.pages += pages.length;
    tally(score, truth, result, misses);
    if (eInvoice) {
      tally(eInvoicePage, truth, result, []);
      const dataMisses: string[] = [];
      tally(eInvoiceData, truth, withEInvoice(result, eInvoice, pagesText(pages)), dataMisses);
      if (dataMisses.length) misses.push(`with its e-invoice data: ${dataMisses.join('; ')}`);
    }
    if (verbose && misses.length && (missSplit === undefined || missSplit === split)) console.log(`  ${split} ${truth.file}:\n    ${misses.join('\n    ')}`);
  }
  return { score, eInvoicePage, eInvoiceData };
}

/** Key-field precision, recall and counts of a score, as a table cell. */
function overall(s: RealScore): string {
  const c = { tp: 0, fp: 0, fn: 0 };
  for (const [n] of REAL_FIELDS) {
    const x = s.counts.get(n);
    if (x) {
      c.tp += x.tp;
      c.fp += x.fp;
      c.fn += x.fn;
    }
  }
  const m = prf(c);
  return `${m.precision.toFixed(2).padStart(5)} ${m.recall.toFixed(2).padStart(5)} ${`${c.tp}/${c.fp}/${c.fn}`.padStart(8)}`;
}

type SplitScores = Awaited<ReturnType<typeof scoreReal>>;

/**
 * The PDFs that carry e-invoice data, scored with the page reading alone (the headline above
 * counts that) and with the data laid over it, as the product shows them.
 */
function eInvoiceTable(dev: SplitScores, heldout: SplitScores): void {
  if (dev.eInvoicePage.docs + heldout.eInvoicePage.docs === 0) return;
  const hidden = missSplit === 'dev';
  console.log(`\nOf those, PDFs carrying e-invoice data (Factur-X, ZUGFeRD, UBL): held-out ${heldout.eInvoicePage.docs}, dev ${dev.eInvoicePage.docs}`);
  const row = (name: string, held: string, d: string) => console.log(`${name.padEnd(44)} ${(hidden ? '(hidden)' : held).padStart(22)}   ${d.padStart(22)}`);
  row('', 'held-out P     R  tp/fp/fn', 'dev P     R  tp/fp/fn');
  row('key fields, the page reading alone', overall(heldout.eInvoicePage), overall(dev.eInvoicePage));
  row('key fields, with the e-invoice data', overall(heldout.eInvoiceData), overall(dev.eInvoiceData));
  const tables = (s: RealScore) => `${s.tablesComplete}/${s.tables}`;
  row(
    'line tables read whole, page alone / with data',
    `${tables(heldout.eInvoicePage)} / ${tables(heldout.eInvoiceData)}`,
    `${tables(dev.eInvoicePage)} / ${tables(dev.eInvoiceData)}`,
  );
  row(
    'wrong and certain, page alone / with data',
    `${heldout.eInvoicePage.certainWrong} / ${heldout.eInvoiceData.certainWrong}`,
    `${dev.eInvoicePage.certainWrong} / ${dev.eInvoiceData.certainWrong}`,
  );
}

function realTables(group: RealGroup, dev: RealScore, heldout: RealScore): void {
  // `--split dev` (tuning) shows no held-out figure at all, not even in the tables
  const hidden = missSplit === 'dev';
  const h = (text: string) => (hidden ? '(hidden)'.padStart(text.length) : text);
  const col = (s: RealScore, k: string) => {
    const c = s.counts.get(k) ?? { tp: 0, fp: 0, fn: 0 };
    const m = prf(c);
    return `${m.precision.toFixed(2).padStart(5)} ${m.recall.toFixed(2).padStart(5)} ${`${c.tp}/${c.fp}/${c.fn}`.padStart(8)}`;
  };
  const title = group === 'text-layer' ? 'text-layer PDFs' : 'real scans and photos, read by OCR';
  console.log(
    `\nReal invoices, ${title} (tests/fixtures/real-invoices): held-out ${heldout.docs} documents / ${heldout.pages} pages, dev ${dev.docs} documents / ${dev.pages} pages`,
  );
  console.log(`${'field'.padEnd(16)} ${'HELD-OUT P     R  tp/fp/fn'.padStart(26)}   ${'dev P     R  tp/fp/fn'.padStart(22)}`);
  const keys = [...REAL_FIELDS.map(([n]) => n), 'line items'];
  for (const k of keys) console.log(`${k.padEnd(16)}   ${h(col(heldout, k))}   ${col(dev, k)}`);
  console.log(`${'KEY FIELDS'.padEnd(16)}   ${h(overall(heldout))}   ${overall(dev)}`);
  const row = (name: string, held: string, d: string) => console.log(`${name.padEnd(44)} ${(hidden ? '(hidden)' : held).padStart(10)}   ${d.padStart(10)}`);
  row('', 'held-out', 'dev');
  row('invoices with a line table, every line read', `${heldout.tablesComplete}/${heldout.tables}`, `${dev.tablesComplete}/${dev.tables}`);
  row('lines right or off by an OCR typo (secondary)', `${heldout.linesNear}/${heldout.lines}`, `${dev.linesNear}/${dev.lines}`);
  row(`wrong field shown as certain (>= ${CERTAIN})`, String(heldout.certainWrong), String(dev.certainWrong));
  row('wrong field not marked for a look (>= 0.6)', String(heldout.unflaggedWrong), String(dev.unflaggedWrong));
  row(`wrong or extra line shown as certain (>= ${CERTAIN})`, String(heldout.certainWrongLines), String(dev.certainWrongLines));
  const seconds = (s: RealScore) => (s.cachedReadings ? `cached ${s.cachedReadings}` : quantile(s.secondsPerPage, 0.5).toFixed(3));
  row('median seconds per page (read + extract)', seconds(heldout), seconds(dev));
  row('documents that could not be read', String(heldout.unread.length), String(dev.unread.length));
  for (const f of [...(hidden ? [] : heldout.unread), ...dev.unread]) console.log(`  not read: ${f}`);
}

async function main() {
  console.log(`Invoice extraction bench — node ${process.version}, ${require('node:os').cpus().length} cores, ${workers} OCR worker(s)`);
  console.log(
    `Held out: layouts ${HELD_OUT.layouts.join(', ')} and font ${HELD_OUT.fonts.join(', ')} (tuning used ${TUNING.layouts.join(', ')} × ${TUNING.fonts.join(', ')}); each render is held out in its layout or its font or both.`,
  );
  const ocr = new TesseractOcrPool({ workers });
  try {
    for (const group of ['text-layer', 'scans'] as const) {
      if (generatedOnly || (scansOnly && group !== 'scans') || (textOnly && group !== 'text-layer')) continue;
      const heldout = await scoreReal('heldout', group, ocr);
      const dev = await scoreReal('dev', group, ocr);
      realTables(group, dev.score, heldout.score);
      eInvoiceTable(dev, heldout);
    }
    if (realOnly) return;

    console.log('\nGenerated invoices (regression set only)');
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
    console.log(`\nSeconds per page (read + extract, ${workers} OCR worker(s))`);
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
