import type { LayoutPage, LayoutWord } from '../layout/types';

/** Letters OCR reads for digits: O and o for 0, l, I and | for 1. */
const LOOKALIKES: Record<string, string> = { O: '0', o: '0', l: '1', I: '1', '|': '1' };

/**
 * A word shaped like an amount with cents ("1O,5O", "l2.99", "$1,O99.00", "12,5O €") once its
 * look-alike letters are read as digits: an optional currency sign, groups of digits, a decimal
 * separator and two digits.
 */
const AMOUNT_SHAPE = /^([-(]?[$€£]?)([\dOolI|]{1,3}(?:[.,'][\dOolI|]{3})*[.,][\dOo]{2})([)€]?)$/;

/** A day-first dotted date as OCR may read it: a comma for one dot, look-alike letters for digits. */
const DATE_SHAPE = /^([0-3OolI|]?[\dOolI|])([.,])([01OolI|]?[\dOolI|])([.,])((?:[12OolI|][\dOolI|])?[\dOolI|]{2})([.,:]?)$/;

/**
 * Reads the digits OCR took for letters in a word that is an amount with cents ("1O,5O" →
 * "10,50", "l2.99" → "12.99"). Only a word of that shape with at least two real digits is
 * changed; words with other letters are left as they are, so "Total" or "Iol" never become numbers.
 */
export function fixOcrDigits(text: string): string {
  const date = DATE_SHAPE.exec(text);
  if (date && date[0].replace(/\D/g, '').length >= 4 && (/[OolI|]/.test(date[0]) || date[2] !== date[4])) {
    // "26,09.2016", "26.O9.2016": a dotted date with a comma or a letter OCR put in it.
    const digits = (t: string) => t.replace(/[OolI|]/g, (c) => LOOKALIKES[c]);
    return `${digits(date[1])}.${digits(date[3])}.${digits(date[5])}${date[6]}`;
  }
  const m = AMOUNT_SHAPE.exec(text);
  if (!m || !/[OolI|]/.test(m[2])) return text;
  const digits = m[2].replace(/\D/g, '').length;
  if (digits < 2) return text;
  return `${m[1]}${m[2].replace(/[OolI|]/g, (c) => LOOKALIKES[c])}${m[3]}`;
}

/** An OCR page with its amount- and date-shaped words read as digits (see fixOcrDigits); a text-layer page as it is. */
export function withOcrDigits(page: LayoutPage): LayoutPage {
  if (page.source !== 'ocr') return page;
  const fixed = new Map<LayoutWord, LayoutWord>();
  const fix = (w: LayoutWord) => {
    let out = fixed.get(w);
    if (!out) {
      const text = fixOcrDigits(w.text);
      out = text === w.text ? w : { ...w, text };
      fixed.set(w, out);
    }
    return out;
  };
  const words = page.words.map(fix);
  if (words.every((w, i) => w === page.words[i])) return page;
  const lines = page.lines.map((line) => {
    const ws = line.words.map(fix);
    return ws.every((w, i) => w === line.words[i]) ? line : { ...line, words: ws, text: ws.map((w) => w.text).join(' ') };
  });
  return { ...page, words, lines };
}
