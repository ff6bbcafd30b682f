import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { imageSize } from 'image-size';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { buildPage } from '../layout/group';
import type { LayoutPage, LayoutWord } from '../layout/types';
import { OcrError, type OcrEngine } from './ocr-engine';

export interface TesseractPoolOptions {
  /** Number of workers (each one is a thread with its own ~100 MB engine). Default 1. */
  workers?: number;
  /** Writable folder where tesseract.js may cache the unpacked language data. */
  cachePath?: string;
  /** Folder holding eng.traineddata.gz; defaults to @tesseract.js-data/eng's 4.0.0_best_int. */
  langPath?: string;
}

/** The installed English model folder: tesseract.js must never try to download one. */
export function defaultLangPath(): string {
  return path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

interface Job {
  image: Buffer;
  pageNumber: number;
  resolve: (page: LayoutPage) => void;
  reject: (error: Error) => void;
}

/**
 * A small pool of tesseract.js workers, started lazily on the first job and then kept: starting
 * a worker (loading the model) costs about a second, a page costs one to two. Jobs queue in
 * order; each idle worker takes the next one. `close()` ends every worker.
 */
export class TesseractOcrPool implements OcrEngine {
  private readonly size: number;
  private readonly cachePath: string;
  private readonly langPath: string;
  private starting?: Promise<Worker[]>;
  private idle: Worker[] = [];
  private readonly queue: Job[] = [];
  private closed = false;

  constructor(options: TesseractPoolOptions = {}) {
    this.size = Math.max(1, Math.min(8, Math.floor(options.workers ?? 1)));
    this.cachePath = options.cachePath ?? path.join(tmpdir(), 'flowmatic-tesseract-cache');
    this.langPath = options.langPath ?? defaultLangPath();
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
    await Promise.all(workers.map((w) => w.terminate().catch(() => undefined)));
    this.idle = [];
  }

  private start(): Promise<Worker[]> {
    if (!this.starting) {
      mkdirSync(this.cachePath, { recursive: true });
      this.starting = Promise.all(
        Array.from({ length: this.size }, () =>
          createWorker('eng', OEM.LSTM_ONLY, {
            langPath: this.langPath,
            cachePath: this.cachePath,
            gzip: true,
            logger: () => undefined,
            errorHandler: () => undefined,
          }).then(async (worker) => {
            await worker.setParameters({
              tessedit_pageseg_mode: PSM.AUTO,
              preserve_interword_spaces: '1',
            });
            return worker;
          }),
        ),
      ).then((workers) => {
        this.idle.push(...workers);
        return workers;
      });
      this.starting.catch(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
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
    let size: { width?: number; height?: number };
    try {
      size = imageSize(job.image);
    } catch {
      job.reject(new OcrError('The image could not be read (not a valid PNG or JPEG).'));
      return;
    }
    try {
      const result = await worker.recognize(job.image, {}, { blocks: true, text: false });
      job.resolve(toLayoutPage(result.data, size.width ?? 0, size.height ?? 0, job.pageNumber));
    } catch (error) {
      job.reject(new OcrError(`OCR failed on page ${job.pageNumber}: ${(error as Error).message ?? error}`));
    }
  }
}

type TesseractPage = Awaited<ReturnType<Worker['recognize']>>['data'];

function toLayoutPage(data: TesseractPage, width: number, height: number, pageNumber: number): LayoutPage {
  const words: LayoutWord[] = [];
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        for (const word of line.words) {
          const text = word.text.trim();
          if (!text) continue;
          const { x0, y0, x1, y1 } = word.bbox;
          // Tesseract marks noise specks as low-confidence one-character words: drop them.
          if (word.confidence < 20 && text.length <= 2 && !/[0-9A-Za-z]{2}/.test(text)) continue;
          words.push({ text, x: x0, y: y0, width: x1 - x0, height: y1 - y0, confidence: word.confidence / 100 });
        }
      }
    }
  }
  return buildPage(pageNumber, width, height, 'ocr', words);
}
