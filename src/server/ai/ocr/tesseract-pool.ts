import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { imageSize } from 'image-size';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { writeFileAtomically } from '../../files/write-atomically';
import { buildPage } from '../layout/group';
import type { LayoutPage, LayoutWord } from '../layout/types';
import { DEFAULT_AMOUNT_REREADING, rereadAmounts, type AmountRereading } from './amount-reread';
import { OcrError, type OcrEngine } from './ocr-engine';
import { otherLanguage } from './page-language';
import { orientImage, prepareImage, type PrepareOptions } from './prepare-image';

export interface TesseractPoolOptions {
  /** Number of workers (each one is a thread with its own engine, about 130 MB). Default DEFAULT_OCR_WORKERS. */
  workers?: number;
  /** Writable folder where the pool keeps the unpacked language models (see gatherLanguageData). */
  cachePath?: string;
  /**
   * Folder holding `<lang>.traineddata.gz` for every language; by default each language's file
   * comes from its own installed package (`@tesseract.js-data/<lang>`, the 4.0.0_best_int model).
   */
  langPath?: string;
  /** Tesseract languages, most likely first. Default DEFAULT_OCR_LANGUAGES. */
  languages?: readonly string[];
  /** Image preparation before OCR (see prepare-image.ts); `false` sends the image unchanged. */
  prepare?: PrepareOptions | false;
  /** Tesseract parameters over DEFAULT_TESSERACT_PARAMETERS, e.g. `{ thresholding_method: '0' }`. */
  parameters?: Record<string, string>;
  /** Let Tesseract straighten a slightly skewed page (its `rotateAuto`; small angles only). */
  deskew?: boolean;
  /**
   * A second reading of a page whose first one came out poor (see `isPoorReading`), with other
   * image preparation and parameters; the reading with clearly more confident text is kept.
   * Default DEFAULT_SECOND_READING; `false` reads every page once.
   */
  secondReading?: SecondReading | false;
  /**
   * A second look at the numbers read unsure (see amount-reread.ts): each is read again alone,
   * digits and separators only. Default DEFAULT_AMOUNT_REREADING; `false` skips it.
   */
  amountRereading?: AmountRereading | false;
  /**
   * A page whose words came out small is read again enlarged (see SmallText). Default
   * DEFAULT_SMALL_TEXT; `false` never enlarges.
   */
  smallText?: SmallText | false;
  /**
   * A page whose reading looks like print on its side (see `isSidewaysReading`) is read again
   * turned a quarter clockwise, a quarter anticlockwise and upside down, and the turn that reads
   * clearly more confident text is kept. Default true.
   */
  turn?: boolean;
  /**
   * A page whose words read as another installed language is read again in that language with
   * English (see LanguageRereading). Default DEFAULT_LANGUAGE_REREADING; `false` never does.
   */
  languageRereading?: LanguageRereading | false;
}

/**
 * A page read first in the pool's languages (German and English) whose words are in another
 * installed language (see page-language.ts) is read again in that language with English, on a
 * worker of its own started on first use, prepared as the kept reading was, and that reading is
 * kept unless it holds clearly less confident text (`confidentChars`, under 0.9 of the first's):
 * the German model reads a Spanish "Habitación" as "Habitaciön", about as sure of it as the
 * Spanish model is of the right word, and drops words it cannot spell. Measured with tests/bench/ocr-compare.ts on
 * the dev scans and photos (2026-11-28): see the README's OCR figures.
 */
export interface LanguageRereading {
  /** Installed languages a page may be read again in (Tesseract codes), each with English. */
  languages: readonly string[];
  /**
   * A language's worker that has read no page for this many milliseconds is ended (a worker holds
   * about 100 MB); the next page in that language starts it again, which costs about a second.
   */
  idleMs: number;
}

export const DEFAULT_LANGUAGE_REREADING: LanguageRereading = { languages: ['fra', 'spa', 'ita', 'nld'], idleMs: 120_000 };

/** A worker reading one other language with English (see LanguageRereading). */
interface LanguageWorker {
  worker: Promise<Worker>;
  /** The last page given to it: pages are read one at a time. */
  turn: Promise<unknown>;
  /** Pages given to it and not yet read. */
  pending: number;
  /** Ends it once it has been idle for LanguageRereading.idleMs. */
  idleTimer?: NodeJS.Timeout;
}

/**
 * When the median height of a page's confidently read words is under `below` pixels, the page
 * is read again enlarged so that it reaches `target` (at most `maxScale` times), and that reading
 * is kept when it holds more confident text.
 */
export interface SmallText {
  below: number;
  target: number;
  maxScale: number;
}

/**
 * Page images with small print (invoices saved 1200 px wide: words 7-15 px tall) read far better
 * enlarged. Measured with tests/bench/ocr-compare.ts on the dev scans/photos of
 * tests/fixtures/real-invoices: word recall 0.714 → 0.769 over all 15 (median 1.52 → 1.55 s a page), and 0.64-0.84 → 0.92-1.00
 * on the small-print page images; enlarging by the image's size instead (shorter side to 1800 px)
 * hurt till receipts, tall and narrow images whose print is 25-35 px tall already (IKEA 0.85 →
 * 0.62). Targets of 20, 23 and 26 px read 0.911, 0.914 and a little less on the small-print pages;
 * 20 is the fastest (median 1.22 s against 1.52 s a page on them).
 */
export const DEFAULT_SMALL_TEXT: SmallText = { below: 16, target: 20, maxScale: 3 };

/**
 * The median height of the words Tesseract's layout analysis finds (`layoutBlocks`, before any
 * recognition) that are at least as wide as tall, as words of two or more letters are (undefined
 * when none).
 */
export function layoutWordHeight(blocks: readonly LayoutBlock[]): number | undefined {
  const heights = blocks
    .flatMap((b) => (b.paragraphs ?? []).flatMap((p) => (p.lines ?? []).flatMap((l) => l.words ?? [])))
    .map((w) => [w.bbox.x1 - w.bbox.x0, w.bbox.y1 - w.bbox.y0])
    .filter(([width, height]) => height > 0 && width >= height)
    .map(([, height]) => height)
    .sort((a, b) => a - b);
  return heights.length ? heights[Math.floor(heights.length / 2)] : undefined;
}

/** How many times a page whose print is `h` px tall is enlarged (see SmallText); undefined when it is not small. */
export function enlargement(h: number | undefined, small: SmallText): number | undefined {
  return h === undefined || h >= small.below ? undefined : Math.min(small.maxScale, small.target / h);
}

/** The median height of the words read with confidence ≥ 0.6 that hold two letters or digits (undefined when none). */
export function medianWordHeight(words: readonly LayoutWord[]): number | undefined {
  const heights = words
    .filter((w) => w.confidence >= 0.6 && /[\p{L}\p{N}]{2}/u.test(w.text))
    .map((w) => w.height)
    .sort((a, b) => a - b);
  return heights.length ? heights[Math.floor(heights.length / 2)] : undefined;
}

/**
 * Two workers: while one reads a page, the other guesses from Tesseract's layout analysis whether
 * the page's print is small and reads it enlarged (see SmallText), used only when the first
 * reading asks for that very enlargement; and a multi-page document's pages are read two at a
 * time. Measured with tests/bench/ocr-compare.ts on the dev scans and photos: the same words as
 * one worker; the small-print pages whose guess was right read in 55-65% of the time (Kimai's
 * invoice 3.30 → 2.07 s, Zestado's 7.01 → 4.31 s), the median page 2.25 → 2.19 s; 15% more CPU
 * (the guesses that were wrong, mostly by a pixel of print height); about 130 MB more memory.
 */
export const DEFAULT_OCR_WORKERS = 2;

/** How a poor first reading is read again. */
export interface SecondReading {
  prepare: PrepareOptions;
  /** Tesseract parameters for that reading only (set for its calls, then put back as they were). */
  parameters: Record<string, string>;
}

/**
 * German with English: most scans are German receipts and invoices; English covers the rest.
 * Measured on the dev scans/photos of tests/fixtures/real-invoices with tests/bench/ocr-compare.ts
 * (2026-11-26): word recall 0.879 with eng alone, 0.958 with deu+eng (eng+deu the same), 0.926
 * with deu alone (it loses digits); all six installed languages read 0.979 but took about 1.7
 * times as long per page as deu+eng, which itself takes 1.35-1.55 times eng's time. Other
 * languages are installed and can be chosen with `languages`.
 */
export const DEFAULT_OCR_LANGUAGES: readonly string[] = ['deu', 'eng'];

/**
 * Sauvola's local thresholding (`thresholding_method` 2) instead of Tesseract's global Otsu:
 * on the dev scans/photos it read two more words and one more key field at no cost in time
 * (uneven light on photos and receipts); LeptonicaOtsu (1) lost most of two pages.
 */
export const DEFAULT_TESSERACT_PARAMETERS: Readonly<Record<string, string>> = { thresholding_method: '2' };

/**
 * A first reading whose median word confidence is under 0.8 (or that found no word) is read
 * again in grayscale with stretched contrast and Tesseract's global Otsu threshold: on a receipt
 * printed on grey thermal paper Sauvola's local threshold lost most of the print (dev scan: word
 * recall 0.12 with one reading, 0.83 with the second). The second reading is kept only when it
 * holds at least 1.5 times the first's confident text (`confidentChars`): on the dev scans where
 * both read fairly, the grayscale reading had slightly more confident text but fewer right key
 * fields, so a small lead does not switch. Pages read well the first time (most) pay nothing.
 */
export const DEFAULT_SECOND_READING: SecondReading = { prepare: { grayscale: true }, parameters: { thresholding_method: '0' } };

/** How many letters and digits a word holds. */
const lettersAndDigits = (text: string) => (text.match(/[\p{L}\p{N}]/gu) ?? []).length;

/** Letters and digits in words read with confidence ≥ 0.7 (words of two or more of them). */
export function confidentChars(words: readonly { text: string; confidence: number }[]): number {
  let n = 0;
  for (const w of words) {
    const chars = lettersAndDigits(w.text);
    if (w.confidence >= 0.7 && chars >= 2) n += chars;
  }
  return n;
}

/** The words' median confidence (the upper one of an even count); words must not be empty. */
function medianConfidence(words: readonly { confidence: number }[]): number {
  const sorted = words.map((w) => w.confidence).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** A reading worth a second try: no word, or a median word confidence under 0.8. */
export function isPoorReading(words: readonly { confidence: number }[]): boolean {
  return words.length === 0 || medianConfidence(words) < 0.8;
}

/**
 * A reading that looks like a page on its side or upside down: no word; a median word
 * confidence under 0.6; or words standing taller than wide (Tesseract reads a page on its side
 * as columns of upright words: more than half of the words of three or more letters or digits
 * at least 1.2 times taller than wide). On the dev scans and photos of tests/fixtures/real-invoices
 * every page read upright had a median of 0.74 or more and at most 7% of such words tall; read on
 * their side, two receipt photos had 50 of 50 and 65 of 71 tall, IKEA's receipt 31 of 32 and 25
 * of 28 (turned either way), and upside down a median confidence far under 0.6.
 */
export function isSidewaysReading(words: readonly { text: string; confidence: number; width: number; height: number }[]): boolean {
  if (words.length === 0 || medianConfidence(words) < 0.6) return true;
  const long = words.filter((w) => lettersAndDigits(w.text) >= 3);
  return long.length >= 5 && long.filter((w) => w.height >= 1.2 * w.width).length > long.length / 2;
}

/** The languages whose data is installed with the product (`@tesseract.js-data/<code>`). */
export const INSTALLED_OCR_LANGUAGES: readonly string[] = ['eng', 'deu', 'fra', 'nld', 'spa', 'ita'];

/** The installed model folder of one language: tesseract.js must never try to download one. */
export function languageDataPath(language = 'eng'): string {
  if (!/^[a-z]{3}(_[a-z]+)?$/.test(language)) throw new OcrError(`Unknown OCR language "${language}".`);
  let pkg: string;
  try {
    pkg = require.resolve(`@tesseract.js-data/${language}/package.json`);
  } catch {
    throw new OcrError(`The OCR data for "${language}" is not installed (npm package @tesseract.js-data/${language}).`);
  }
  return path.join(path.dirname(pkg), '4.0.0_best_int');
}

/** The installed English model folder (kept for callers that pass one folder). */
export function defaultLangPath(): string {
  return languageDataPath('eng');
}

/**
 * tesseract.js reads every language from one folder: gather the installed packages' models,
 * unpacked, into `<cachePath>/traineddata-best_int` (once; a model unpacked from a package file
 * of another size is unpacked again). Each is written beside its place and renamed into it, so
 * that a worker never reads half a model: tesseract.js's own cache (`cacheMethod`) wrote the
 * unpacked model in place while the pool's second worker read it, and that worker then read
 * English alone ("Failed loading language 'deu'"; a German till receipt lost nine of its ten
 * lines in one CI run). The workers are started with that cache off.
 */
export function gatherLanguageData(languages: readonly string[], cachePath: string): string {
  const folder = path.join(cachePath, 'traineddata-best_int');
  mkdirSync(folder, { recursive: true });
  for (const language of languages) {
    const source = path.join(languageDataPath(language), `${language}.traineddata.gz`);
    const target = path.join(folder, `${language}.traineddata`);
    // the package file's size the model was unpacked from, written after the model
    const stamp = `${target}.from`;
    const from = String(statSync(source).size);
    if (existsSync(target) && existsSync(stamp) && readFileSync(stamp, 'utf8') === from) continue;
    writeFileAtomically(target, gunzipSync(readFileSync(source)));
    writeFileAtomically(stamp, from);
  }
  return folder;
}

interface Job {
  image: Buffer;
  pageNumber: number;
  resolve: (page: LayoutPage) => void;
  reject: (error: Error) => void;
}

/** How the kept reading of a page was made: its preparation, the parameters set for it, its enlargement. */
interface ReadingMade {
  prepare: PrepareOptions | false;
  parameters?: Record<string, string>;
  scale?: number;
}

/** One page on its worker: the image (upright once turned) and its size, what each reading shares. */
interface Reading {
  worker: Worker;
  image: Buffer;
  pageNumber: number;
  width: number;
  height: number;
}

/**
 * A small pool of tesseract.js workers, started lazily on the first job and then kept: starting
 * a worker (loading the model) costs about a second, a page costs one to two. Jobs queue in
 * order; each idle worker takes the next one. `close()` ends every worker.
 */
export class TesseractOcrPool implements OcrEngine {
  private readonly size: number;
  private readonly cachePath: string;
  private readonly langPath?: string;
  private readonly languages: readonly string[];
  private readonly prepare: PrepareOptions | false;
  private readonly parameters: Record<string, string>;
  private readonly deskew: boolean;
  private readonly secondReading: SecondReading | false;
  private readonly amountRereading: AmountRereading | false;
  private readonly smallText: SmallText | false;
  private readonly turn: boolean;
  private readonly languageRereading: LanguageRereading | false;
  /** A worker per language a page was read again in (see LanguageRereading), each used one page at a time. */
  private readonly languageWorkers = new Map<string, LanguageWorker>();
  private starting?: Promise<Worker[]>;
  private idle: Worker[] = [];
  private readonly queue: Job[] = [];
  private closed = false;

  constructor(options: TesseractPoolOptions = {}) {
    this.size = Math.max(1, Math.min(8, Math.floor(options.workers ?? DEFAULT_OCR_WORKERS)));
    this.cachePath = options.cachePath ?? path.join(tmpdir(), 'flowmatic-tesseract-cache');
    this.langPath = options.langPath;
    this.languages = options.languages?.length ? [...options.languages] : DEFAULT_OCR_LANGUAGES;
    this.prepare = options.prepare ?? {};
    // the page segmentation and whitelist are the pool's own too: a failed reading puts them back
    this.parameters = { tessedit_pageseg_mode: PSM.AUTO, tessedit_char_whitelist: '', ...DEFAULT_TESSERACT_PARAMETERS, ...options.parameters };
    this.deskew = options.deskew ?? false;
    this.secondReading = options.secondReading ?? DEFAULT_SECOND_READING;
    this.amountRereading = options.amountRereading ?? DEFAULT_AMOUNT_REREADING;
    this.smallText = options.smallText ?? DEFAULT_SMALL_TEXT;
    this.turn = options.turn ?? true;
    this.languageRereading = options.languageRereading ?? DEFAULT_LANGUAGE_REREADING;
  }

  /** Reads the words of a PNG or JPEG image into a layout page (pixel coordinates). */
  recognize(image: Buffer, pageNumber = 1): Promise<LayoutPage> {
    if (this.closed) return Promise.reject(new OcrError('The OCR engine has been shut down.'));
    return new Promise<LayoutPage>((resolve, reject) => {
      this.queue.push({ image, pageNumber, resolve, reject });
      this.start()
        .then(() => this.pump())
        .catch((error: unknown) => {
          this.failAll(new OcrError(`The OCR engine could not start: ${(error as Error).message}`));
        });
    });
  }

  /** Ends every worker; queued jobs are refused. */
  async close(): Promise<void> {
    this.closed = true;
    this.failAll(new OcrError('The OCR engine has been shut down.'));
    const workers = this.starting ? await this.starting.catch(() => [] as Worker[]) : [];
    for (const l of this.languageWorkers.values()) clearTimeout(l.idleTimer);
    const others = await Promise.all([...this.languageWorkers.values()].map((l) => l.worker.catch(() => undefined)));
    this.languageWorkers.clear();
    await Promise.all([...workers, ...others].map((w) => w?.terminate().catch(() => undefined)));
    this.idle = [];
  }

  private start(): Promise<Worker[]> {
    if (!this.starting) {
      mkdirSync(this.cachePath, { recursive: true });
      this.starting = Promise.all(Array.from({ length: this.size }, () => this.newWorker(this.languages))).then((workers) => {
        this.idle.push(...workers);
        return workers;
      });
      this.starting.catch(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  /** A worker reading `languages`, with the pool's parameters. */
  private newWorker(languages: readonly string[]): Promise<Worker> {
    let langPath: string;
    try {
      langPath = this.langPath ?? gatherLanguageData(languages, this.cachePath);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    // the models are read as they are in langPath (unpacked by gatherLanguageData, packed in a
    // folder given), never through tesseract.js's cache (see gatherLanguageData)
    return createWorker(languages.join('+'), OEM.LSTM_ONLY, {
      langPath,
      cacheMethod: 'none',
      gzip: !!this.langPath,
      logger: () => undefined,
      errorHandler: () => undefined,
    }).then(async (worker) => {
      await worker.setParameters({ preserve_interword_spaces: '1', ...this.parameters });
      return worker;
    });
  }

  /**
   * The page read again in its own language, when its words say it is in one the pool reads
   * again in (see LanguageRereading), prepared as the kept reading was (`how`):
   * that reading unless it holds clearly less confident text (under 0.9 of `page`'s), else `page`.
   */
  private async readInLanguage(reading: Reading, how: ReadingMade, page: LayoutPage): Promise<LayoutPage> {
    const rereading = this.languageRereading;
    if (!rereading || this.langPath) return page;
    const text = page.words.map((w) => w.text).join(' ');
    const language = otherLanguage(text, this.languages, rereading.languages);
    if (!language) return page;
    let entry = this.languageWorkers.get(language);
    if (!entry) {
      entry = { worker: this.newWorker([language, 'eng']), turn: Promise.resolve(), pending: 0 };
      this.languageWorkers.set(language, entry);
    }
    const held = entry;
    clearTimeout(held.idleTimer);
    held.pending += 1;
    // one page at a time on the language's worker
    const again = held.turn.then(async () => {
      const other: Reading = { ...reading, worker: await held.worker };
      return how.prepare && how.scale ? this.readEnlarged(other, how.prepare, how.scale, how.parameters) : this.read(other, how.prepare, how.parameters);
    });
    held.turn = again.catch(() => undefined);
    const read = await again.finally(() => {
      held.pending -= 1;
      if (held.pending === 0 && !this.closed) held.idleTimer = setTimeout(() => this.endLanguageWorker(language, held), rereading.idleMs).unref();
    });
    // As sure of its words as the first reading, it is sure of the right ones: the German model reads
    // "Habitación" as "Habitaciön" as confidently as the Spanish one reads it right.
    return confidentChars(read.words) >= 0.9 * confidentChars(page.words) ? read : page;
  }

  /** Ends a language's worker that has stayed idle (see LanguageRereading.idleMs). */
  private endLanguageWorker(language: string, entry: LanguageWorker): void {
    if (entry.pending > 0 || this.languageWorkers.get(language) !== entry) return;
    this.languageWorkers.delete(language);
    entry.worker.then((w) => w.terminate()).catch(() => undefined);
  }

  /** The languages whose own worker is running now (see LanguageRereading). */
  languageWorkersRunning(): string[] {
    return [...this.languageWorkers.keys()];
  }

  private failAll(error: Error): void {
    for (const job of this.queue.splice(0)) job.reject(error);
  }

  private pump(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const job = this.queue.shift()!;
      this.run(worker, job).finally(() => {
        if (this.closed) return;
        this.idle.push(worker);
        this.pump();
      });
    }
  }

  private async run(worker: Worker, job: Job): Promise<void> {
    let size: { width?: number; height?: number; orientation?: number };
    try {
      size = imageSize(job.image);
    } catch {
      job.reject(new OcrError('The image could not be read (not a valid PNG or JPEG).'));
      return;
    }
    try {
      let reading: Reading = { worker, image: job.image, pageNumber: job.pageNumber, width: size.width ?? 0, height: size.height ?? 0 };
      // A photo whose EXIF tag says how to turn it is turned here, as a viewer shows it: readers
      // differ in what they make of the tag (tesseract.js read a tagged sideways receipt as noise).
      if ((size.orientation ?? 1) !== 1) reading = { ...reading, ...(await orientImage(job.image, 0)) };
      const prepare = this.prepare;
      const small = prepare && this.smallText ? this.smallText : undefined;
      // A guess at the enlarged reading a page of small print will need, from the size of print
      // in Tesseract's layout analysis, started beside the first reading when another worker is
      // idle; it is used only when the first reading asks for the very same enlargement.
      const upright = reading;
      const guess = small && prepare ? this.guessEnlarged(upright, prepare, small) : undefined;
      let page = await this.read(reading, prepare);
      if (this.turn && isSidewaysReading(page.words)) [reading, page] = await this.readTurned(reading, page);
      let how: ReadingMade = { prepare };
      if (prepare && this.secondReading && isPoorReading(page.words)) {
        const first = page;
        page = await this.readAgain(reading, prepare, page, this.secondReading);
        if (page !== first) how = { prepare: { ...prepare, ...this.secondReading.prepare }, parameters: this.secondReading.parameters };
      }
      const scale = small && enlargement(medianWordHeight(page.words), small);
      if (prepare && scale) {
        const guessed = reading === upright && guess && (await guess.scale) === scale ? await guess.page : undefined;
        const enlarged = guessed ?? (await this.readEnlarged(reading, prepare, scale));
        if (confidentChars(enlarged.words) > confidentChars(page.words)) [page, how] = [enlarged, { prepare, scale }];
      }
      page = await this.readInLanguage(reading, how, page);
      if (this.amountRereading) page = await rereadAmounts(worker, reading.image, page, this.amountRereading);
      job.resolve(page);
    } catch (error) {
      job.reject(new OcrError(`OCR failed on page ${job.pageNumber}: ${(error as Error).message ?? error}`));
      await this.resetParameters(worker);
    }
  }

  /**
   * One reading of the job's image, prepared as `prepare` asks (`false`: as it is), with
   * `parameters` set for this reading only.
   */
  private async read(
    { worker, image, pageNumber, width, height }: Reading,
    prepare: PrepareOptions | false,
    parameters: Record<string, string> = {},
  ): Promise<LayoutPage> {
    const prepared = prepare ? await prepareImage(image, width, height, prepare) : { image, scale: 1 };
    const result = await worker.recognize(prepared.image, { ...parameters, ...(this.deskew ? { rotateAuto: true } : {}) }, { blocks: true, text: false });
    return toLayoutPage(result.data, width, height, pageNumber, prepared.scale);
  }

  /**
   * A page that reads as if on its side (see `turn`), read turned a quarter each way and then
   * upside down until a turn reads upright: that turn and its reading, unless it holds clearly
   * less confident text than the first.
   */
  private async readTurned(first: Reading, page: LayoutPage): Promise<[Reading, LayoutPage]> {
    for (const quarterTurns of [1, 3, 2]) {
      const turned: Reading = { ...first, ...(await orientImage(first.image, quarterTurns)) };
      const reading = await this.read(turned, this.prepare);
      if (isSidewaysReading(reading.words)) continue;
      // Tesseract may read a page on its side well, word by word, but its lines then run down the
      // page: the upright reading is kept unless it holds clearly less confident text.
      return confidentChars(reading.words) >= 0.8 * confidentChars(page.words) ? [turned, reading] : [first, page];
    }
    return [first, page];
  }

  /** The second reading of a poor page (see DEFAULT_SECOND_READING): the better of the two. */
  private async readAgain(reading: Reading, prepare: PrepareOptions, first: LayoutPage, again: SecondReading): Promise<LayoutPage> {
    const second = await this.read(reading, { ...prepare, ...again.prepare }, again.parameters);
    const gained = confidentChars(second.words);
    return gained > 0 && gained >= 1.5 * confidentChars(first.words) ? second : first;
  }

  /**
   * On a worker that is idle now (undefined when none is): the enlargement the page's print
   * asks for by its size in Tesseract's layout analysis (words with boxes, no recognition: a
   * tenth of a reading's time or less; undefined when the print is not small), and the page read
   * so enlarged (undefined when it is not, or when the reading fails). The worker goes back to
   * the pool when the reading ends, whether or not it is used.
   */
  private guessEnlarged(
    reading: Reading,
    prepare: PrepareOptions,
    small: SmallText,
  ): { scale: Promise<number | undefined>; page: Promise<LayoutPage | undefined> } | undefined {
    const helper = this.idle.pop();
    if (!helper) return undefined;
    const scale = helper
      .recognize(reading.image, {}, { layoutBlocks: true, text: false, blocks: false, hocr: false, tsv: false })
      .then(({ data }) => enlargement(layoutWordHeight((data as { layoutBlocks?: LayoutBlock[] | null }).layoutBlocks ?? []), small));
    const page = scale
      .then((s) => (s ? this.readEnlarged({ ...reading, worker: helper }, prepare, s) : undefined))
      .catch(async () => {
        await this.resetParameters(helper);
        return undefined;
      })
      .finally(() => {
        if (this.closed) return;
        this.idle.push(helper);
        this.pump();
      });
    return { scale: scale.catch(() => undefined), page };
  }

  /** A worker's parameters set back to the pool's after a failed reading: tesseract.js puts a reading's own back only when it succeeds. */
  private async resetParameters(worker: Worker): Promise<void> {
    await worker.setParameters(this.parameters).catch(() => undefined);
  }

  /** The page read enlarged `scale` times (see SmallText). */
  private readEnlarged(reading: Reading, prepare: PrepareOptions, scale: number, parameters?: Record<string, string>): Promise<LayoutPage> {
    const { width, height } = reading;
    return this.read(reading, { ...prepare, minShortSide: Math.ceil(Math.min(width, height) * scale), maxScale: scale }, parameters);
  }
}

/**
 * What OCR reads in specks and rules rather than print: a low-confidence word of one or two
 * characters without two letters or digits in a row (Tesseract's noise specks), and an unsure
 * word of marks alone ("~~", "—-", "|": a table's rule or a smudge, which would otherwise join
 * the cells on each side of it into one phrase); and a bar ("|"), a box's side, however sure.
 * Currency signs, "%", "&", "@", "#" and "+" stay.
 */
export function isNoiseWord(text: string, confidence: number): boolean {
  // a box's side read as a bar, however sure: a rule, never a word
  if (/^[|¦]+$/.test(text)) return true;
  if (confidence < 0.2 && text.length <= 2 && !/[0-9A-Za-z]{2}/.test(text)) return true;
  return confidence < 0.5 && !/[\p{L}\p{N}$€£¥₹%&@#+]/u.test(text);
}

type TesseractPage = Awaited<ReturnType<Worker['recognize']>>['data'];
/** A block of Tesseract's layout analysis: words with boxes, no text yet. */
export type LayoutBlock = { paragraphs?: { lines?: { words?: { bbox: { x0: number; y0: number; x1: number; y1: number } }[] }[] }[] };

/** Words in the original image's pixels (`scale`: how much the image was enlarged before OCR). */
function toLayoutPage(data: TesseractPage, width: number, height: number, pageNumber: number, scale = 1): LayoutPage {
  const words: LayoutWord[] = [];
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        for (const word of line.words) {
          const text = word.text.trim();
          if (!text) continue;
          const { x0, y0, x1, y1 } = word.bbox;
          if (isNoiseWord(text, word.confidence / 100)) continue;
          words.push({
            text,
            x: x0 / scale,
            y: y0 / scale,
            width: (x1 - x0) / scale,
            height: (y1 - y0) / scale,
            confidence: word.confidence / 100,
          });
        }
      }
    }
  }
  return buildPage(pageNumber, width, height, 'ocr', words);
}
