import { PSM, type Worker } from 'tesseract.js';
import { buildPage } from '../layout/group';
import type { LayoutPage, LayoutWord } from '../layout/types';
import { editDistance } from '../text/edit-distance';
import { cropImages } from './prepare-image';

export { editDistance };

/**
 * A second look at the amounts of an OCR page. Tesseract's whole-page reading, tuned for words,
 * often misreads a receipt's or invoice's amounts: the decimal comma read as a digit ("207004"
 * for "20,00"), a speck as an extra digit ("65,99" for "6,99"). Read again one word at a time,
 * as a single line of digits and separators only, most of those come out right and sure. Only
 * the numbers the first reading was unsure of are read again, and the new reading replaces the
 * old one only when it is an amount, is clearly surer and differs in at most two characters.
 */
export interface AmountRereading {
  /** Words read with a confidence under this are read again. */
  below: number;
  /** At most this many words per page (the least sure first). */
  max: number;
}

/**
 * Measured on the dev scans/photos of tests/fixtures/real-invoices: one re-read costs about
 * 35 ms on this 2-core machine; a till receipt has 10-30 unsure numbers, a clean invoice scan few.
 */
export const DEFAULT_AMOUNT_REREADING: AmountRereading = { below: 0.9, max: 30 };

/**
 * What the second look may read: digits, the separators, a minus and the currency signs printed
 * before amounts (without them a "$" is forced into a digit and the reading comes out unsure).
 */
export const AMOUNT_WHITELIST = '0123456789,.-$€£';

/** An amount with cents: "6,99", "1.234,56", "1,234.56", "-3.50", "12,50-". */
const AMOUNT_SHAPE = /^-?\d{1,3}(?:[.,]\d{3})*[.,]\d{2}-?$/;

/** A word of digits and separators (no letter), the kind a misread amount turns into ("207004", "$95"). */
const NUMBERISH = /^(?:[$€£][\d.,'-]{2,14}|[-+]?[\d.,'-]{3,14})$/;

/**
 * An amount whose decimal comma came out as a colon ("8:73" for 6,73 on a receipt photo): read
 * again only when very unsure, since a time of day printed crisply has the same shape.
 */
const COLON_FOR_MARK = /^-?\d{1,3}[:;]\d{2}-?$/;
const COLON_BELOW = 0.7;

/** The words to read again: unsure, numeric, with at least two digits; the least sure first. */
export function amountCandidates(words: readonly LayoutWord[], options: AmountRereading): LayoutWord[] {
  return words
    .filter(
      (w) =>
        w.confidence < options.below &&
        (NUMBERISH.test(w.text) || (w.confidence < COLON_BELOW && COLON_FOR_MARK.test(w.text))) &&
        (w.text.match(/\d/g)?.length ?? 0) >= 2,
    )
    .sort((a, b) => a.confidence - b.confidence)
    .slice(0, options.max);
}

/** The rectangle to read a word again in: the word with a quarter of its height around it, inside the image. */
export function rereadRectangle(word: LayoutWord, width: number, height: number): { left: number; top: number; width: number; height: number } {
  const margin = Math.max(2, Math.round(word.height * 0.25));
  const left = Math.max(0, Math.floor(word.x) - margin);
  const top = Math.max(0, Math.floor(word.y) - margin);
  const right = Math.min(width, Math.ceil(word.x + word.width) + margin);
  const bottom = Math.min(height, Math.ceil(word.y + word.height) + margin);
  return { left, top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) };
}

/**
 * The better of a word's two readings: the second (`text`, `confidence` 0..1) when it is an
 * amount at most two edits from the first and either at least 0.1 surer, or as sure and with the
 * same digits, only the decimal mark the first reading lost put back ("10492" → "104.92"); else
 * the first.
 */
export function betterReading(word: LayoutWord, text: string, confidence: number): LayoutWord {
  const read = text.replace(/\s+/g, '');
  const sign = /^[$€£]/.exec(word.text)?.[0] ?? /^[$€£]/.exec(read)?.[0] ?? '';
  const again = read.replace(/^[$€£]/, '');
  const before = word.text.replace(/^[$€£]/, '');
  if (again === before || !AMOUNT_SHAPE.test(again)) return word;
  const digits = (t: string) => t.replace(/\D/g, '');
  const markPutBack = !AMOUNT_SHAPE.test(before) && digits(again) === digits(before) && confidence >= Math.max(word.confidence, 0.8);
  if (confidence < word.confidence + 0.1 && !markPutBack) return word;
  if (editDistance(again, before) > 2) return word;
  return { ...word, text: sign + again, confidence };
}

/** What the second look needs of an OCR worker. */
export type AmountReader = Pick<Worker, 'recognize'>;

/**
 * The page (read from `image`) with its unsure numbers read again one by one by `reader`, each
 * from a cut-out of its own (see cropImages), as a single line of `AMOUNT_WHITELIST` characters:
 * the words whose second reading is better (see betterReading) replaced, the rest as they were.
 */
export async function rereadAmounts(reader: AmountReader, image: Buffer, page: LayoutPage, options: AmountRereading): Promise<LayoutPage> {
  const unsure = amountCandidates(page.words, options);
  if (unsure.length === 0) return page;
  const crops = await cropImages(
    image,
    unsure.map((word) => rereadRectangle(word, page.width, page.height)),
  );
  const single: Record<string, string> = { tessedit_pageseg_mode: PSM.SINGLE_LINE, tessedit_char_whitelist: AMOUNT_WHITELIST };
  const better = new Map<LayoutWord, LayoutWord>();
  for (const [i, word] of unsure.entries()) {
    const { data } = await reader.recognize(crops[i], single, { text: true, blocks: true });
    const words = (data.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words)));
    if (words.length === 0) continue;
    const confidence = Math.min(...words.map((w) => w.confidence)) / 100;
    const chosen = betterReading(word, data.text, confidence);
    if (chosen !== word) better.set(word, chosen);
  }
  if (better.size === 0) return page;
  return buildPage(
    page.pageNumber,
    page.width,
    page.height,
    page.source,
    page.words.map((w) => better.get(w) ?? w),
  );
}
