import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { imageSize } from 'image-size';
import { orientImage, prepareImage, removeRules } from '../../../../src/server/ai/ocr/prepare-image';
import {
  confidentChars,
  DEFAULT_LANGUAGE_REREADING,
  DEFAULT_OCR_LANGUAGES,
  gatherLanguageData,
  INSTALLED_OCR_LANGUAGES,
  isNoiseWord,
  isPoorReading,
  isSidewaysReading,
  languageDataPath,
  layoutWordHeight,
  TesseractOcrPool,
} from '../../../../src/server/ai/ocr/tesseract-pool';

/** A white PNG with black lines of text, `size` px sans-serif (30 by default). */
function textImage(lines: string[], width = 900, size = 30): Buffer {
  const canvas = createCanvas(width, 2 * size + lines.length * 2 * size);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#000';
  ctx.font = `${size}px "DejaVu Sans", "Liberation Sans", sans-serif`;
  lines.forEach((line, i) => ctx.fillText(line, size, (7 / 3) * size + i * 2 * size));
  return canvas.toBuffer('image/png');
}

describe('OCR language data', () => {
  it('is installed from npm for every language the product offers, German among the defaults', () => {
    expect(DEFAULT_OCR_LANGUAGES).toEqual(['deu', 'eng']);
    for (const language of INSTALLED_OCR_LANGUAGES) {
      expect(readdirSync(languageDataPath(language))).toContain(`${language}.traineddata.gz`);
    }
    expect(() => languageDataPath('xyz')).toThrow('The OCR data for "xyz" is not installed');
    expect(() => languageDataPath('../eng')).toThrow('Unknown OCR language');
  });

  it("is unpacked once into the pool's folder, renamed into place whole, and unpacked again from a package file of another size", () => {
    const cache = mkdtempSync(path.join(tmpdir(), 'ocr-cache-'));
    try {
      const folder = gatherLanguageData(['deu', 'eng'], cache);
      expect(readdirSync(folder).sort()).toEqual(['deu.traineddata', 'deu.traineddata.from', 'eng.traineddata', 'eng.traineddata.from']);
      const packed = path.join(languageDataPath('deu'), 'deu.traineddata.gz');
      expect(readFileSync(path.join(folder, 'deu.traineddata')).equals(gunzipSync(readFileSync(packed)))).toBe(true);
      expect(readFileSync(path.join(folder, 'deu.traineddata.from'), 'utf8')).toBe(String(statSync(packed).size));
      // a second pool leaves the unpacked model alone
      const first = statSync(path.join(folder, 'deu.traineddata')).ino;
      gatherLanguageData(['deu'], cache);
      expect(statSync(path.join(folder, 'deu.traineddata')).ino).toBe(first);
      // a model unpacked from another package version is replaced
      writeFileSync(path.join(folder, 'deu.traineddata.from'), '1');
      gatherLanguageData(['deu'], cache);
      expect(statSync(path.join(folder, 'deu.traineddata')).ino).not.toBe(first);
      expect(readdirSync(folder).filter((f) => f.endsWith('.partial'))).toEqual([]);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('is read whole by both workers of a pool started on an empty folder: each reads German (a CI run once read English alone on one)', async () => {
    // tesseract.js's own cache wrote the unpacked model in place while the second worker read it
    // (about one pool start in four): that worker read "Straße" with the English model alone
    for (let start = 0; start < 3; start++) {
      const cache = mkdtempSync(path.join(tmpdir(), 'ocr-cache-'));
      const ocr = new TesseractOcrPool({ cachePath: cache, languageRereading: false, amountRereading: false, smallText: false });
      try {
        const pages = await Promise.all([1, 2].map((n) => ocr.recognize(textImage(['Größe 7, Straße 12'], 500), n)));
        for (const page of pages) expect(page.words.map((w) => w.text)).toEqual(expect.arrayContaining(['Größe', 'Straße']));
        // nothing but the pool's unpacked models is written there
        expect(readdirSync(cache)).toEqual(['traineddata-best_int']);
      } finally {
        await ocr.close();
        rmSync(cache, { recursive: true, force: true });
      }
    }
  }, 120_000);
});

describe('prepareImage', () => {
  it('leaves an image alone when no step applies, and enlarges a small one with its scale', async () => {
    const png = textImage(['Summe 12,50'], 400);
    expect((await prepareImage(png, 400, 120, {})).image).toBe(png);
    expect((await prepareImage(png, 400, 120, { minShortSide: 100 })).image).toBe(png);
    const bigger = await prepareImage(png, 400, 120, { minShortSide: 240, grayscale: true });
    expect(bigger.scale).toBeCloseTo(2, 5);
    expect(imageSize(bigger.image)).toMatchObject({ width: 800, height: 240 });
  });
});

describe('removeRules (an option measured with tests/bench/ocr-compare.ts, not on by default)', () => {
  it('whitens thin ruled lines across and down the image, and keeps a thick bar and short strokes', () => {
    const w = 200;
    const h = 200;
    const px = new Uint8ClampedArray(w * h * 4).fill(255);
    const ink = (x0: number, y0: number, x1: number, y1: number) => {
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) px.fill(0, (y * w + x) * 4, (y * w + x) * 4 + 3);
    };
    ink(10, 50, 190, 52); // a rule, 2 px thick
    ink(100, 10, 102, 190); // a column rule
    ink(10, 120, 190, 140); // a filled bar, 20 px thick
    ink(30, 80, 40, 82); // a stroke shorter than the rule length (a hyphen)
    removeRules(px, w, h);
    const dark = (x: number, y: number) => px[(y * w + x) * 4] < 128;
    expect(dark(50, 50)).toBe(false);
    expect(dark(101, 30)).toBe(false);
    expect(dark(50, 130)).toBe(true);
    expect(dark(35, 81)).toBe(true);
  });
});

describe('TesseractOcrPool with image preparation (real OCR)', () => {
  it('maps boxes back to the original pixels when it enlarges the image first', async () => {
    const cache = mkdtempSync(path.join(tmpdir(), 'ocr-cache-'));
    const ocr = new TesseractOcrPool({ workers: 1, cachePath: cache, prepare: { minShortSide: 400, maxScale: 2 } });
    try {
      const page = await ocr.recognize(textImage(['Straße 7'], 400), 1);
      expect(page.width).toBe(400);
      const word = page.words.find((w) => w.text === 'Straße')!;
      expect(word).toBeDefined();
      expect(word.x).toBeGreaterThan(20);
      expect(word.x + word.width).toBeLessThan(200);
    } finally {
      await ocr.close();
      rmSync(cache, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('a page in another language (see LanguageRereading)', () => {
  it('reads a Spanish folio again in Spanish with English: "Habitación", where the German model read "Habitaciön" (a dev scan of the real corpus)', async () => {
    const folio = readFileSync(path.join(__dirname, '../../../fixtures/real-invoices/es-scan-only-you-atocha-19024895.png'));
    const cache = mkdtempSync(path.join(tmpdir(), 'ocr-cache-'));
    const once = new TesseractOcrPool({ workers: 1, cachePath: cache, languageRereading: false, amountRereading: false });
    const again = new TesseractOcrPool({
      workers: 1,
      cachePath: cache,
      amountRereading: false,
      languageRereading: { ...DEFAULT_LANGUAGE_REREADING, idleMs: 200 },
    });
    const rooms = (page: { words: { text: string }[] }) => page.words.filter((w) => w.text === 'Habitación').length;
    try {
      expect(rooms(await once.recognize(folio, 1))).toBe(0);
      expect(rooms(await again.recognize(folio, 1))).toBeGreaterThanOrEqual(9);
      // the Spanish worker is kept while pages come, and ended once it has been idle for idleMs
      expect(again.languageWorkersRunning()).toEqual(['spa']);
      // a German page is read once, in German and English, as before
      const clean = textImage(['Rechnung Nr. 4711', 'Summe 12,50 EUR']);
      expect((await again.recognize(clean, 2)).words.map((w) => w.text)).toEqual(['Rechnung', 'Nr.', '4711', 'Summe', '12,50', 'EUR']);
      for (let i = 0; i < 50 && again.languageWorkersRunning().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(again.languageWorkersRunning()).toEqual([]);
      // and started again for the next page in that language
      expect(rooms(await again.recognize(folio, 3))).toBeGreaterThanOrEqual(9);
    } finally {
      await once.close();
      await again.close();
      rmSync(cache, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('a second reading of a poor page', () => {
  const receiptFile = path.join(__dirname, '../../../fixtures/real-invoices/de-scan-ikea-kassenbon.jpg');
  /**
   * The receipt read as the product reads it but without the amounts read again: both tests below
   * compare with it, and one reading of a real receipt is many seconds of OCR.
   */
  let withoutAmountRereading: Promise<Awaited<ReturnType<TesseractOcrPool['recognize']>>> | undefined;
  const readWithoutAmountRereading = () =>
    (withoutAmountRereading ??= (async () => {
      const cache = mkdtempSync(path.join(tmpdir(), 'ocr-cache-'));
      const ocr = new TesseractOcrPool({ workers: 1, cachePath: cache, amountRereading: false });
      try {
        return await ocr.recognize(readFileSync(receiptFile), 1);
      } finally {
        await ocr.close();
        rmSync(cache, { recursive: true, force: true });
      }
    })());

  it('drops specks and unsure marks as noise, never words, numbers or currency signs', () => {
    expect(isNoiseWord('~~', 0.33)).toBe(true);
    expect(isNoiseWord('|', 0.4)).toBe(true);
    expect(isNoiseWord('«', 0.1)).toBe(true);
    expect(isNoiseWord('~~', 0.8)).toBe(false);
    expect(isNoiseWord('|', 0.95)).toBe(true);
    for (const word of ['$', '€', '%', '&', 'EC', '1', '-5,00', 'a']) expect(isNoiseWord(word, 0.3)).toBe(false);
  });

  it('counts confident letters and digits, and calls a page poor by its median word confidence', () => {
    const w = (text: string, confidence: number) => ({ text, confidence });
    expect(confidentChars([w('Summe', 0.91), w('12,50', 0.7), w('€', 0.99), w('x', 0.95), w('Rechnung', 0.69)])).toBe(9);
    expect(confidentChars([w('Straße', 0.9), w('Nº7', 0.9)])).toBe(9);
    expect(isPoorReading([])).toBe(true);
    expect(isPoorReading([w('a', 0.9), w('b', 0.5), w('c', 0.79)])).toBe(true);
    expect(isPoorReading([w('a', 0.9), w('b', 0.5), w('c', 0.8)])).toBe(false);
  });

  it('reads a receipt on grey thermal paper that one local-threshold reading loses (a dev scan of the real corpus), and then reads clean pages as before', async () => {
    const receipt = readFileSync(receiptFile);
    const cache = mkdtempSync(path.join(tmpdir(), 'ocr-cache-'));
    const once = new TesseractOcrPool({ workers: 1, cachePath: cache, secondReading: false, amountRereading: false });
    const twice = new TesseractOcrPool({ workers: 1, cachePath: cache, amountRereading: false });
    const texts = (page: { words: { text: string }[] }) => page.words.map((x) => x.text);
    try {
      const one = await once.recognize(receipt, 1);
      const two = await readWithoutAmountRereading();
      // the second reading holds far more confident text, and the items' prices the first lost
      expect(confidentChars(two.words)).toBeGreaterThan(3 * confidentChars(one.words));
      for (const price of ['14,99', '9,99', '3,99']) {
        expect(texts(one)).not.toContain(price);
        expect(texts(two)).toContain(price);
      }
      // its parameters are put back: a clean page after it reads as with one reading
      const clean = textImage(['Rechnung Nr. 4711', 'Summe 12,50 EUR']);
      expect(texts(await twice.recognize(clean, 2))).toEqual(texts(await once.recognize(clean, 2)));
      expect(texts(await twice.recognize(clean, 2))).toEqual(['Rechnung', 'Nr.', '4711', 'Summe', '12,50', 'EUR']);
    } finally {
      await once.close();
      await twice.close();
      rmSync(cache, { recursive: true, force: true });
    }
  }, 120_000);

  it('reads the numbers it was unsure of again one by one (digits and separators only), keeping a new reading only when it is a surer amount', async () => {
    const receipt = readFileSync(receiptFile);
    const cache = mkdtempSync(path.join(tmpdir(), 'ocr-cache-'));
    const checked = new TesseractOcrPool({ workers: 1, cachePath: cache });
    const texts = (page: { words: { text: string }[] }) => page.words.map((x) => x.text);
    try {
      const before = texts(await readWithoutAmountRereading());
      const after = texts(await checked.recognize(receipt, 1));
      // "20,00" read as "207004", "6,99" as "65,99" (a speck as a digit) and "7,99" as "7,95" by the page's reading
      expect(before).toEqual(expect.arrayContaining(['207004', '65,99', '7,95', '24.99']));
      expect(after).toEqual(expect.arrayContaining(['20,00', '6,99', '24,99']));
      for (const misread of ['207004', '65,99', '7,95', '24.99']) expect(after).not.toContain(misread);
      // words, article numbers and sure amounts are left as they were
      expect(after.length).toBe(before.length);
      expect(after.filter((w, i) => w !== before[i])).toEqual(['20,00', '24,99', '6,99', '7,99']);
      // the page mode and the whitelist are put back: a clean page reads words again
      const clean = textImage(['Rechnung Nr. 4711', 'Summe 12,50 EUR']);
      expect(texts(await checked.recognize(clean, 2))).toEqual(['Rechnung', 'Nr.', '4711', 'Summe', '12,50', 'EUR']);
    } finally {
      await checked.close();
      rmSync(cache, { recursive: true, force: true });
    }
  }, 120_000);

  it('judges the size of print by the words of the layout analysis that are at least as wide as tall', () => {
    const box = (x0: number, y0: number, x1: number, y1: number) => ({ bbox: { x0, y0, x1, y1 } });
    const blocks = [{ paragraphs: [{ lines: [{ words: [box(0, 0, 50, 10), box(60, 0, 90, 12), box(0, 20, 5, 40), box(10, 20, 40, 34)] }] }] }];
    // the tall narrow box (a bar, a single letter) is left out: heights 10, 12 and 14
    expect(layoutWordHeight(blocks)).toBe(12);
    expect(layoutWordHeight([{ paragraphs: [{ lines: [{ words: [box(0, 0, 2, 30)] }] }] }, {}])).toBeUndefined();
    expect(layoutWordHeight([])).toBeUndefined();
  });

  it('reads a page of small print again enlarged, and a page of ordinary print once; with an idle second worker the same words (its guess, read beside the first reading, used only when it is the same enlargement)', async () => {
    const cache = mkdtempSync(path.join(tmpdir(), 'ocr-cache-'));
    const lines = ['Invoice number INV-20391 dated 14 March 2026', 'Hosting plan, 12 months 1,188.00', 'Subtotal 1,188.00 VAT 237.60 Total 1,425.60'];
    const plain = new TesseractOcrPool({ workers: 1, cachePath: cache, smallText: false, amountRereading: false });
    const enlarging = new TesseractOcrPool({ workers: 1, cachePath: cache, amountRereading: false });
    const two = new TesseractOcrPool({ workers: 2, cachePath: cache, amountRereading: false });
    const right = (page: { words: { text: string }[] }) => {
      const read = new Set(page.words.map((w) => w.text));
      return lines
        .join(' ')
        .split(' ')
        .filter((w) => read.has(w)).length;
    };
    try {
      const small = textImage(lines, 420, 9);
      const once = await plain.recognize(small, 1);
      const twice = await enlarging.recognize(small, 1);
      expect(right(twice)).toBeGreaterThan(right(once));
      expect(right(twice)).toBeGreaterThanOrEqual(lines.join(' ').split(' ').length - 2);
      expect(await two.recognize(small, 1)).toEqual(twice);
      // the words stay in the image's own pixels
      expect(Math.max(...twice.words.map((w) => w.x + w.width))).toBeLessThanOrEqual(420);
      // ordinary print is read as before
      const big = textImage(['Rechnung Nr. 4711', 'Summe 12,50 EUR']);
      expect((await enlarging.recognize(big, 2)).words.map((w) => w.text)).toEqual(['Rechnung', 'Nr.', '4711', 'Summe', '12,50', 'EUR']);
    } finally {
      await plain.close();
      await enlarging.close();
      await two.close();
      rmSync(cache, { recursive: true, force: true });
    }
  }, 120_000);
});

/** `jpeg` with an EXIF block saying how a viewer should turn it (tag 0x0112), put right after the start marker. */
function withOrientation(jpeg: Buffer, orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4); // the first IFD
  tiff.writeUInt16LE(1, 8); // one entry
  tiff.writeUInt16LE(0x0112, 10);
  tiff.writeUInt16LE(3, 12); // SHORT
  tiff.writeUInt32LE(1, 14);
  tiff.writeUInt16LE(orientation, 18);
  tiff.writeUInt32LE(0, 22); // no next IFD
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.from([0xff, 0xe1, (body.length + 2) >> 8, (body.length + 2) & 0xff]);
  return Buffer.concat([jpeg.subarray(0, 2), header, body, jpeg.subarray(2)]);
}

describe('pages on their side', () => {
  const word = (text: string, width: number, height: number, confidence = 0.95) => ({ text, confidence, width, height });

  it('calls a reading sideways when it has no word, a median confidence under 0.6, or mostly words taller than wide', () => {
    const upright = ['Rechnung', 'Summe', '12,50', 'EUR', 'Datum', 'Kunde'].map((t) => word(t, 20 * t.length, 30));
    expect(isSidewaysReading(upright)).toBe(false);
    expect(isSidewaysReading([])).toBe(true);
    expect(isSidewaysReading(upright.map((w) => ({ ...w, confidence: 0.4 })))).toBe(true);
    // Tesseract's reading of a page on its side: columns of words standing upright
    expect(isSidewaysReading(upright.map((w) => ({ ...w, width: w.height, height: w.width })))).toBe(true);
    // a few tall words (a vertical margin note, "|||") do not make a page sideways
    expect(isSidewaysReading([...upright, word('ABC', 20, 60), word('XYZ', 20, 60)])).toBe(false);
  });

  it('turns an image a quarter at a time, its EXIF orientation applied first', async () => {
    const png = textImage(['Summe 12,50'], 400);
    expect(await orientImage(png, 1)).toMatchObject({ width: 120, height: 400 });
    expect(await orientImage(png, 2)).toMatchObject({ width: 400, height: 120 });
    const jpeg = createCanvas(300, 100).toBuffer('image/jpeg');
    expect(imageSize(withOrientation(jpeg, 6))).toMatchObject({ width: 300, height: 100, orientation: 6 });
    const shown = await orientImage(withOrientation(jpeg, 6), 0);
    expect(shown).toMatchObject({ width: 100, height: 300 });
    expect(imageSize(shown.image).orientation).toBeUndefined();
  });

  it('reads a page scanned on its side or upside down, and a phone photo stored sideways with its EXIF orientation, as if upright (real OCR)', async () => {
    const cache = mkdtempSync(path.join(tmpdir(), 'ocr-cache-'));
    const ocr = new TesseractOcrPool({ workers: 1, cachePath: cache, amountRereading: false });
    const lines = ['Rechnung Nr. 4711', 'Summe 12,50 EUR', 'Bezahlt mit Karte'];
    const expected = ['Rechnung', 'Nr.', '4711', 'Summe', '12,50', 'EUR', 'Bezahlt', 'mit', 'Karte'];
    try {
      const upright = textImage(lines, 600);
      for (const quarterTurns of [1, 2, 3]) {
        const page = await ocr.recognize((await orientImage(upright, quarterTurns)).image, 1);
        expect([quarterTurns, page.words.map((w) => w.text)]).toEqual([quarterTurns, expected]);
        expect(page).toMatchObject({ width: 600, height: 240 });
      }
      // a photo stored turned anticlockwise, whose tag (6) tells a viewer to turn it clockwise
      const stored = createCanvas(240, 600);
      const ctx = stored.getContext('2d');
      const { loadImage } = await import('@napi-rs/canvas');
      ctx.translate(0, 600);
      ctx.rotate(-Math.PI / 2);
      ctx.drawImage(await loadImage(upright), 0, 0);
      const photo = withOrientation(stored.toBuffer('image/jpeg', 95), 6);
      const page = await ocr.recognize(photo, 1);
      expect(page.words.map((w) => w.text)).toEqual(expected);
      expect(page).toMatchObject({ width: 600, height: 240 });
    } finally {
      await ocr.close();
      rmSync(cache, { recursive: true, force: true });
    }
  }, 180_000);
});
