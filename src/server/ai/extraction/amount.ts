import { parseAmount as parseCellAmount } from '../../tabular/amount';

/** A money amount read from text. */
export interface ParsedAmount {
  value: number;
  /** ISO 4217 code when the text names or symbolises one. */
  currency?: string;
  raw: string;
}

const SYMBOLS: Record<string, string> = {
  $: 'USD',
  US$: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '₹': 'INR',
  A$: 'AUD',
  AU$: 'AUD',
  C$: 'CAD',
  CA$: 'CAD',
  NZ$: 'NZD',
  S$: 'SGD',
  HK$: 'HKD',
  R$: 'BRL',
  CHF: 'CHF',
  '₩': 'KRW',
  zł: 'PLN',
  Kč: 'CZK',
  kr: 'SEK',
};

const CODES = new Set([
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'INR',
  'AUD',
  'CAD',
  'NZD',
  'SGD',
  'HKD',
  'BRL',
  'CHF',
  'KRW',
  'PLN',
  'SEK',
  'NOK',
  'DKK',
  'CNY',
  'ZAR',
  'MXN',
  'AED',
  'SAR',
  'CZK',
  'HUF',
  'RON',
  'TRY',
  'ILS',
  'THB',
  'MYR',
  'PHP',
  'IDR',
  'HRK',
  'RSD',
  'BGN',
  'ISK',
  'UAH',
]);

const CURRENCY_TOKEN = '(?:US\\$|AU?\\$|CA?\\$|NZ\\$|S\\$|HK\\$|R\\$|[$€£¥₹₩]|zł|Kč|kr|[A-Z]{3})';
// Grouped thousands ("1,234.56", "1.234,56", "1'234", "1 234" with a no-break space) or plain digits.
// A group of thousands never starts with 0 ("0.025" is a price), and a unit price may carry up to four decimals ("9,9000").
// Indian grouping (lakh, crore: "6,00,000.00", "1,23,45,678.90") is tried first.
// (a plain space groups thousands only before cents, "44 139,26" as Norwegian and French
// invoices print it: "2 300" may be a count and a price)
const NUMBER =
  "[-−(]?[1-9]\\d?(?:,\\d{2})+,\\d{3}(?:\\.\\d{1,2})?(?!\\d)\\)?|[-−(]?[1-9]\\d{0,2}(?:[.,\\u00a0\\u202f']\\d{3})+(?:[.,]\\d{1,2})?(?!\\d)\\)?|[-−(]?[1-9]\\d{0,2}(?: \\d{3})+[.,]\\d{2}(?!\\d)\\)?|[-−(]?\\d+(?:[.,]\\d{1,4})?\\)?";
const AMOUNT_RE = new RegExp(`(?:(${CURRENCY_TOKEN})\\s?)?(${NUMBER})(?:\\s?(${CURRENCY_TOKEN}))?`, 'g');

/** Maps a currency symbol or code to its ISO code (undefined when unknown). */
export function currencyCode(token: string | undefined): string | undefined {
  if (!token) return undefined;
  const t = token.trim();
  if (SYMBOLS[t]) return SYMBOLS[t];
  const upper = t.toUpperCase();
  return CODES.has(upper) ? upper : undefined;
}

/**
 * Parses a number written in either convention: "1,234.56", "1.234,56", "1 234,56", "1'234.56",
 * "(12.50)" or "-12.50" (negative). A document says nothing of its convention, so a lone separator
 * followed by exactly three digits is a thousands separator ("1,234" = 1234); followed by one or
 * two digits it is the decimal mark, and after a lone 0 it always is ("0.025"). The CSV reader's
 * amount parser reads it (one number reader for tables and documents); undefined when the text is
 * not a number.
 */
export function parseNumber(text: string): number | undefined {
  const value = parseCellAmount(text, 'unknown');
  return value === null || Number.isNaN(value) ? undefined : value;
}

/**
 * "1.234.56" or "1,234,56": thousands and cents marked with one separator, as OCR reads a
 * decimal mark it cannot tell from the other. No notation writes it, so the last group of two
 * digits is the cents.
 */
function misgrouped(num: string): number | undefined {
  const m = /^([1-9]\d{0,2}(?:([.,])\d{3})+)\2(\d{2})$/.exec(num);
  return m ? Number(`${m[1].replace(/[.,]/g, '')}.${m[3]}`) : undefined;
}

/** "6,00,000.00", "(1,08,000.00)": the Indian grouping of lakhs and crores. */
function lakh(num: string): number | undefined {
  const m = /^([-−(]?)([1-9]\d?(?:,\d{2})+,\d{3}(?:\.\d{1,2})?)\)?$/.exec(num);
  if (!m) return undefined;
  const value = Number(m[2].replace(/,/g, ''));
  return m[1] ? -value : value;
}

/**
 * Finds money amounts in a piece of text, each with its currency when a symbol or ISO code
 * stands next to it. Numbers that are part of dates, times, percentages or long ids are skipped.
 */
export function findAmounts(text: string): ParsedAmount[] {
  const found: ParsedAmount[] = [];
  AMOUNT_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = AMOUNT_RE.exec(text))) {
    const [whole, pre, num, post] = m;
    if (!num) continue;
    const start = m.index;
    const end = start + whole.length;
    const before = text.slice(Math.max(0, start - 1), start);
    const after = text.slice(end, end + 1);
    // "10,00-", as accounting and till receipts write a deduction: a negative amount.
    const minusAfter = !post && after === '-' && /[.,]\d{2}$/.test(num) && /^(?:\s|$)/.test(text.slice(end + 1, end + 2));
    // "-$1.99", "−€ 5,00": a minus before the currency sign (not "Pos-$5").
    const minusBefore = !!pre && /[-−]/.test(before) && /^(?:\s|$)/.test(text.slice(Math.max(0, start - 2), start - 1));
    // Part of a longer token (id, date, time, percentage, phone number)?
    if (/[\w/:#-]/.test(before) && !pre) continue;
    if (/[\w/:%°-]/.test(after) && !post && !minusAfter) continue;
    if (/^\s*\d+\s*$/.test(whole) && whole.trim().length > 9) continue;
    // A bare year ("2026", "© 2014") is never an amount; with a currency or cents it may be.
    if (!pre && !post && /^(?:19|20)\d{2}$/.test(num)) continue;
    const preCode = currencyCode(pre);
    const postCode = currencyCode(post);
    // a word of three capitals before the number is no currency ("Total TTC 233,47 €", "VAT 19.00"):
    // read on from the number itself, with the word left out
    if (pre && !preCode && /^[A-Z]{3}$/.test(pre)) {
      AMOUNT_RE.lastIndex = start + pre.length;
      continue;
    }
    // "6,00" of "6,00,000.00" when a notation is not read whole: part of a longer number.
    if (/^[.,]\d/.test(text.slice(end, end + 2)) && !post) continue;
    const value = lakh(num) ?? misgrouped(num) ?? parseNumber(num);
    if (value === undefined) continue;
    const negated = (minusAfter || minusBefore) && value > 0;
    found.push({
      value: negated ? -value : value,
      // "$5,270.00 AUD": the code says which dollar the sign means
      currency: (post && /^[A-Z]{3}$/.test(post.trim()) ? postCode : undefined) ?? preCode ?? postCode,
      raw: minusBefore && negated ? `-${whole.trim()}` : minusAfter && negated ? `${whole.trim()}-` : whole.trim(),
    });
  }
  return found;
}

/**
 * Parses a text that should be one amount ("$1,234.56", "EUR 1.234,56", "1 234,56 €", "10,00-",
 * "-$1.99", OCR's "1.234.56"), or undefined when it holds no amount. Every amount a document
 * prints is read here or by findAmounts, never by parseNumber alone (which is the CSV reader's
 * and knows neither a document's trailing minus before a space nor OCR's one separator). When several are present the last one is taken, which on
 * invoice lines ("Total (incl. 20% VAT) 1,200.00") is the amount.
 */
export function parseAmount(text: string): ParsedAmount | undefined {
  // A cell that is only a space-grouped number ("1 234,56 €") is one amount, not two.
  const spaced = /^([^\d]*?)(\d{1,3}(?: \d{3})+(?:[.,]\d{1,2})?)([^\d]*)$/.exec(text.trim());
  const all = findAmounts(spaced ? `${spaced[1]}${spaced[2].replace(/ /g, '\u00a0')}${spaced[3]}` : text);
  return all.length ? all[all.length - 1] : undefined;
}

/** Rounds to cents, the precision invoices are compared at. */
export function cents(value: number): number {
  return Math.round(value * 100) / 100;
}
