import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { createWorker, OEM } from 'tesseract.js';
import { buildPage } from '../../../../src/server/ai/layout/group';
import type { LayoutWord } from '../../../../src/server/ai/layout/types';
import { rereadAmounts, rereadRectangle, type AmountReader } from '../../../../src/server/ai/ocr/amount-reread';
import { cropImages } from '../../../../src/server/ai/ocr/prepare-image';
import { languageDataPath, TesseractOcrPool } from '../../../../src/server/ai/ocr/tesseract-pool';

/** A white PNG with black lines of text, 30 px sans-serif. */
function textImage(lines: string[], width = 700): Buffer {
  const canvas = createCanvas(width, 60 + lines.length * 60);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#000';
  ctx.font = '30px "DejaVu Sans", "Liberation Sans", sans-serif';
  lines.forEach((line, i) => ctx.fillText(line, 30, 70 + i * 60));
  return canvas.toBuffer('image/png');
}

/** The RGBA pixels of a rectangle of a PNG. */
async function pixels(png: Buffer, { left, top, width, height }: { left: number; top: number; width: number; height: number }): Promise<number[]> {
  const img = await loadImage(png);
  const canvas = createCanvas(img.width, img.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  return [...ctx.getImageData(left, top, width, height).data];
}

const word = (text: string, x: number, y: number, width: number, height: number, confidence: number): LayoutWord => ({ text, x, y, width, height, confidence });

describe('the second look at unsure numbers', () => {
  it('reads each unsure number from a cut-out of exactly its rectangle, the page decoded once rather than once per number', async () => {
    const image = textImage(['Summe 20,00 EUR', 'Bar 50,00']);
    const page = buildPage(1, 700, 180, 'ocr', [word('Summe', 30, 48, 110, 28, 0.96), word('2000', 150, 48, 80, 28, 0.5), word('50.0O', 95, 108, 80, 28, 0.4)]);
    const seen: Buffer[] = [];
    const reader: AmountReader = {
      recognize: (async (crop: Buffer) => {
        seen.push(crop);
        return { data: { text: '', blocks: [] } };
      }) as unknown as AmountReader['recognize'],
    };
    expect(await rereadAmounts(reader, image, page, { below: 0.9, max: 30 })).toBe(page);
    // only "2000" is numeric and unsure ("50.0O" holds a letter); its cut-out is its rectangle, pixel for pixel
    expect(seen).toHaveLength(1);
    const rectangle = rereadRectangle(page.words[1], 700, 180);
    // a binary PPM: its header, then RGB
    const header = `P6\n${rectangle.width} ${rectangle.height}\n255\n`;
    expect(seen[0].subarray(0, header.length).toString('latin1')).toBe(header);
    const rgb = (await pixels(image, rectangle)).filter((_, i) => i % 4 !== 3);
    expect([...seen[0].subarray(header.length)]).toEqual(rgb);
  });

  it('puts back the decimal comma of an amount read as "2000" (real OCR)', async () => {
    const cache = mkdtempSync(path.join(tmpdir(), 'ocr-cache-'));
    const pool = new TesseractOcrPool({ workers: 1, cachePath: cache, languages: ['eng'], amountRereading: false });
    const worker = await createWorker('eng', OEM.LSTM_ONLY, {
      langPath: languageDataPath('eng'),
      cachePath: cache,
      gzip: true,
      logger: () => undefined,
      errorHandler: () => undefined,
    });
    try {
      const image = textImage(['Summe 20,00 EUR', 'Gegeben 50,00 EUR', 'Zurück 30,00 EUR']);
      const read = await pool.recognize(image, 1);
      const amounts = ['20,00', '50,00', '30,00'];
      expect(read.words.filter((w) => amounts.includes(w.text)).map((w) => w.text)).toEqual(amounts);
      // as a whole-page reading of a receipt often gives them: the comma lost, unsure
      const misread = buildPage(
        1,
        read.width,
        read.height,
        'ocr',
        read.words.map((w) => (amounts.includes(w.text) ? { ...w, text: w.text.replace(',', ''), confidence: 0.5 } : w)),
      );
      const mended = await rereadAmounts(worker, image, misread, { below: 0.9, max: 30 });
      expect(mended.words.map((w) => w.text)).toEqual(read.words.map((w) => w.text));
      expect(mended.words.filter((w) => amounts.includes(w.text)).every((w) => w.confidence >= 0.8)).toBe(true);
    } finally {
      await worker.terminate();
      await pool.close();
      rmSync(cache, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('images made for OCR', () => {
  it('reads back its own PPM cut-outs, and refuses one whose header claims more pixels than it holds', async () => {
    const image = textImage(['Summe 20,00 EUR']);
    const [crop] = await cropImages(image, [{ left: 10, top: 20, width: 50, height: 30 }]);
    const [again] = await cropImages(crop, [{ left: 5, top: 5, width: 10, height: 10 }]);
    const header = 'P6\n10 10\n255\n';
    expect(again.subarray(0, header.length).toString('latin1')).toBe(header);
    expect([...again.subarray(header.length)]).toEqual((await pixels(image, { left: 15, top: 25, width: 10, height: 10 })).filter((_, i) => i % 4 !== 3));
    const forged = Buffer.concat([Buffer.from('P6\n100000 100000\n255\n', 'latin1'), Buffer.alloc(30)]);
    await expect(cropImages(forged, [{ left: 0, top: 0, width: 1, height: 1 }])).rejects.toThrow('size does not match its header');
  });
});
