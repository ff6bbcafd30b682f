/**
 * The one reader of numbers written by people, shared by the CSV reader (every amount cell of the
 * finance workflows) and the document extraction (amounts found in invoices and receipts): grouping
 * separators of either convention, decimal commas, currency symbols and codes, accounting negatives.
 */

/** Which character is the decimal mark: false '.', true ',', 'unknown' when nothing says. */
export type DecimalConvention = boolean | 'unknown';

const POWERS_OF_TEN = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * The plain `-123` / `123.45` case, read in one pass over the characters. With at most 15
 * digits the value is exact: digits / 10^decimals is one correctly rounded division of two
 * exactly representable numbers, which is what Number() would give, at a fraction of the cost.
 */
function plainNumber(text: string, decimalComma: DecimalConvention): number | undefined {
  const n = text.length;
  const negative = text.charCodeAt(0) === 45;
  let i = negative ? 1 : 0;
  if (i >= n) return undefined;
  let dot = -1;
  let mantissa = 0;
  let digits = 0;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
    } else if (c === 46 && dot < 0) dot = i;
    else return undefined;
  }
  if (digits === 0 || dot === n - 1 || dot === (negative ? 1 : 0)) return undefined;
  const decimals = dot < 0 ? 0 : n - dot - 1;
  // In a decimal-comma file (or when the convention is unknown), "1.234" is one thousand two hundred and thirty-four.
  if (decimalComma !== false && decimals === 3) return undefined;
  const value = digits > 15 ? Number(negative ? text.slice(1) : text) : decimals ? mantissa / POWERS_OF_TEN[decimals] : mantissa;
  return negative ? -value : value;
}

/** "1,234.50" / "12,345" (comma thousands, dot decimals): the common formatted case, without regular expressions. */
function groupedNumber(text: string): number | undefined {
  const n = text.length;
  let i = text.charCodeAt(0) === 45 ? 1 : 0;
  if (text.charCodeAt(i) === 48) return undefined; // "0,025" is not twenty-five
  let digitsInGroup = 0;
  let commas = 0;
  let dot = -1;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) digitsInGroup++;
    else if (c === 44 && dot < 0 && digitsInGroup > 0 && (commas === 0 ? digitsInGroup <= 3 : digitsInGroup === 3)) {
      commas++;
      digitsInGroup = 0;
    } else if (c === 46 && dot < 0 && digitsInGroup === 3 && commas > 0) {
      dot = i;
      digitsInGroup = 0;
    } else return undefined;
  }
  if (commas === 0 || (dot < 0 && digitsInGroup !== 3) || (dot >= 0 && digitsInGroup === 0)) return undefined;
  return Number(text.replace(/,/g, ''));
}

const CURRENCY_CODE = /^[A-Z]{3}(?=[\s\d(+-.]|$)|(?<=[\d\s).])[A-Z]{3}$/;
const STRIP = /[\s\u00a0\u202f\u2009'’\p{Sc}]/gu;

/**
 * Reads an amount as people write it: "1,234.50", "1.234,50", "1 234,50", "1'234.50", "$1,234",
 * "€ 12", "USD 12.00", "(12.00)" and "12.00-" (negatives), "−5". Returns null for an empty cell or
 * a lone "-", and NaN when the text is not a number at all (the caller names the file, row and
 * column). `decimalComma` settles the ambiguous "1,234" / "1.234" cases: false, a file writing
 * 1,234.50 (so "1,234" is 1234 and "1.234" is 1.234); true, a file writing 1.234,50 (';'-delimited
 * files); 'unknown', text of no known convention (a document), where a lone separator followed by
 * exactly three digits is a thousands separator either way. After a lone 0 the separator is always
 * the decimal mark ("0.025", "0,025": a price, never twenty-five).
 */
export function parseAmount(text: string, decimalComma: DecimalConvention = false): number | null {
  if (text.length === 0) return null;
  const fast = plainNumber(text, decimalComma);
  if (fast !== undefined) return fast;

  const grouped = decimalComma === true ? undefined : groupedNumber(text);
  if (grouped !== undefined) return grouped;
  let s = text.trim();
  if (s === '' || s === '-' || s === '—' || s === '–') return null;
  let negative = false;
  if (s.startsWith('(') && s.endsWith(')')) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  s = s.replace(CURRENCY_CODE, '').trim();
  if (s.startsWith('-') || s.startsWith('−')) {
    negative = !negative;
    s = s.slice(1);
  } else if (s.startsWith('+')) s = s.slice(1);
  else if (s.endsWith('-')) {
    negative = !negative;
    s = s.slice(0, -1);
  }
  s = s.replace(STRIP, '');
  if (s.startsWith('-') && !negative) {
    // "$-12" or "€ -5": the sign came after the currency symbol.
    negative = true;
    s = s.slice(1);
  }
  if (/^\d+(?:\.\d+)?e[+-]?\d+$/i.test(s)) return (negative ? -1 : 1) * Number(s);
  if (!/^(?:\d[\d.,]*|[.,]\d+)$/.test(s)) return Number.NaN;

  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  let normalised: string;
  if (lastDot >= 0 && lastComma >= 0) {
    // Both present: the later one is the decimal separator.
    const decimal = lastDot > lastComma ? '.' : ',';
    const thousands = decimal === '.' ? ',' : '.';
    if (s.indexOf(decimal) !== s.lastIndexOf(decimal)) return Number.NaN;
    normalised = s.split(thousands).join('').replace(',', '.');
  } else if (lastComma >= 0 || lastDot >= 0) {
    const sep = lastComma >= 0 ? ',' : '.';
    const count = s.split(sep).length - 1;
    const decimals = s.length - s.lastIndexOf(sep) - 1;
    const sepIsDecimalChar = decimalComma !== 'unknown' && (sep === ',') === decimalComma;
    if (count > 1)
      normalised = s.split(sep).join(''); // 1,234,567 or 1.234.567
    // 1,234 (or 1.234 in a decimal-comma file); never "0.025": a group of thousands does not follow a lone 0.
    else if (decimals === 3 && !sepIsDecimalChar && s.indexOf(sep) > 0 && !/^0[.,]/.test(s)) normalised = s.replace(sep, '');
    else normalised = s.replace(sep, '.');
  } else normalised = s;
  const value = Number(normalised);
  if (!Number.isFinite(value)) return Number.NaN;
  return negative ? -value : value;
}
