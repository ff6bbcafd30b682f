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

/** An amount with grouped thousands and cents, as it reads once OCR's pieces of it are put together. */
const JOINED_AMOUNT = /^[-(]?[$€£]?\d{1,3}(?:[.,']\d{3})*[.,]\d{2}[)€]?$/;

/**
 * Words OCR split inside one amount ("1." "129," "00" for "1.129,00"; "129," "00"): a piece
 * ending in a separator, the next starting close to it (within the text's height), put back
 * together when the whole has the shape of an amount with cents. Other words are left alone.
 */
export function joinSplitAmounts(words: readonly LayoutWord[]): LayoutWord[] {
  const out: LayoutWord[] = [];
  for (let i = 0; i < words.length; i++) {
    let j = i;
    let text = words[i].text;
    while (j + 1 < words.length && /\d[.,']$/.test(text) && /^\d{2,3}(?:[.,']|[.,]\d{2})?[)€]?$/.test(words[j + 1].text)) {
      const gap = words[j + 1].x - (words[j].x + words[j].width);
      if (gap > Math.max(words[j].height, words[j + 1].height)) break;
      text += words[j + 1].text;
      j++;
    }
    if (j > i && JOINED_AMOUNT.test(text)) {
      const run = words.slice(i, j + 1);
      const y = Math.min(...run.map((w) => w.y));
      out.push({
        text,
        x: run[0].x,
        y,
        width: run[run.length - 1].x + run[run.length - 1].width - run[0].x,
        height: Math.max(...run.map((w) => w.y + w.height)) - y,
        confidence: Math.min(...run.map((w) => w.confidence)),
      });
      i = j;
    } else out.push(words[i]);
  }
  return out;
}

/**
 * An OCR page with its amount- and date-shaped words read as digits (see fixOcrDigits) and the
 * pieces of a split amount put together (see joinSplitAmounts); a text-layer page as it is.
 */
export function withOcrDigits(page: LayoutPage): LayoutPage {
  return page.source === 'ocr' ? fixDigits(joinLines(page)) : page;
}

/** The page with each line's split amounts joined (the page itself when none is). */
function joinLines(page: LayoutPage): LayoutPage {
  // each word of a joined run, mapped to the joined word (its first) or to nothing (the others)
  const replaced = new Map<LayoutWord, LayoutWord | undefined>();
  const lines = page.lines.map((line) => {
    const words = joinSplitAmounts(line.words);
    if (words.length === line.words.length) return line;
    const kept = new Set(words);
    for (const joined of words.filter((w) => !line.words.includes(w))) {
      line.words
        .filter((w) => !kept.has(w) && w.x >= joined.x && w.x < joined.x + joined.width)
        .forEach((w, i) => replaced.set(w, i === 0 ? joined : undefined));
    }
    return { ...line, words, text: words.map((w) => w.text).join(' ') };
  });
  if (replaced.size === 0) return page;
  const words = page.words.flatMap((w) => {
    if (!replaced.has(w)) return [w];
    const joined = replaced.get(w);
    return joined ? [joined] : [];
  });
  return { ...page, words, lines };
}

/** The page with its amount- and date-shaped words read as digits (see fixOcrDigits). */
function fixDigits(page: LayoutPage): LayoutPage {
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
