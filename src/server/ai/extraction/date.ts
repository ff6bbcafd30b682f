/** Day-month order used to read ambiguous numeric dates such as 01/03/2026. */
export type DateOrder = 'DMY' | 'MDY';

export interface ParsedDate {
  /** YYYY-MM-DD */
  iso: string;
  raw: string;
  /** True when day and month could each be the other (both ≤ 12) and the order was assumed. */
  ambiguous: boolean;
}

/**
 * Month names and their usual abbreviations in the languages the extractor reads (English,
 * German, French, Dutch, Spanish, Italian, Portuguese), by month. Bare "out" (Portuguese) and
 * "set" (Italian) are left out: they are English words.
 */
const MONTH_NAMES: readonly (readonly string[])[] = [
  ['jan', 'january', 'januar', 'jänner', 'janvier', 'janv', 'januari', 'enero', 'ene', 'gennaio', 'gen', 'janeiro'],
  ['feb', 'february', 'februar', 'février', 'fevrier', 'févr', 'fevr', 'fév', 'fev', 'februari', 'febrero', 'febbraio', 'fevereiro'],
  ['mar', 'march', 'märz', 'maerz', 'mär', 'mrz', 'mars', 'maart', 'mrt', 'marzo', 'março', 'marco'],
  ['apr', 'april', 'avril', 'avr', 'abril', 'abr', 'aprile'],
  ['may', 'mai', 'mei', 'mayo', 'maggio', 'mag', 'maio'],
  ['jun', 'june', 'juni', 'juin', 'junio', 'giugno', 'giu', 'junho'],
  ['jul', 'july', 'juli', 'juillet', 'juil', 'julio', 'luglio', 'lug', 'julho'],
  ['aug', 'august', 'août', 'aout', 'augustus', 'agosto', 'ago'],
  ['sep', 'sept', 'september', 'septembre', 'septiembre', 'setiembre', 'settembre', 'sett', 'setembro'],
  ['oct', 'october', 'oktober', 'okt', 'octobre', 'octubre', 'ottobre', 'ott', 'outubro'],
  ['nov', 'november', 'novembre', 'noviembre', 'novembro'],
  ['dec', 'december', 'dezember', 'dez', 'décembre', 'decembre', 'déc', 'diciembre', 'dic', 'dicembre', 'dezembro'],
];
const MONTHS: Record<string, number> = Object.fromEntries(MONTH_NAMES.flatMap((names, i) => names.map((name) => [name, i + 1])));
// longest first, so "septembre" is not read as "sep" and a stray "tembre"
const MONTH = `(${Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|')})\\.?(?![\\p{L}])`;
const DAY = '(\\d{1,2})(?:st|nd|rd|th|er|º|°)?';

const PATTERNS: { re: RegExp; read: (m: RegExpExecArray, order: DateOrder) => [number, number, number, boolean] | undefined }[] = [
  // 2026-03-01, 2026/03/01, 2026.03.01, and an ISO date and time ("2017-07-05T09:09:23")
  { re: /\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:\b|(?=T\d{2}:\d{2}))/gi, read: (m) => [+m[1], +m[2], +m[3], false] },
  // 1 March 2026, 01-Mar-2026, 1st Mar. 2026, "5. März 2024", "1er janvier 2024", "12 de enero de 2024"
  {
    re: new RegExp(`\\b${DAY}[\\s\\-/.]*(?:de\\s+)?${MONTH}[\\s\\-/.,]*(?:del?\\s+)?(\\d{4}|\\d{2})\\b`, 'giu'),
    read: (m) => [year(m[3]), MONTHS[m[2].toLowerCase().replace('.', '')], +m[1], false],
  },
  // March 1, 2026, Mar 01 2026
  {
    re: new RegExp(`(?<![\\p{L}])${MONTH}[\\s\\-/.]*${DAY},?[\\s\\-/.]*(\\d{4})\\b`, 'giu'),
    read: (m) => [+m[3], MONTHS[m[1].toLowerCase().replace('.', '')], +m[2], false],
  },
  // 01/03/2026, 1.3.2026, 01-03-26
  {
    re: /\b(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})\b/g,
    read: (m, order) => {
      const a = +m[1];
      const b = +m[3];
      const y = year(m[4]);
      if (a > 12 && b <= 12) return [y, b, a, false];
      if (b > 12 && a <= 12) return [y, a, b, false];
      if (a > 12 && b > 12) return undefined;
      // Dotted dates are day-first wherever they are used.
      const dayFirst = m[2] === '.' || order === 'DMY';
      return dayFirst ? [y, b, a, a !== b] : [y, a, b, a !== b];
    },
  },
  // A dotted date spaced after its dots, as Czech and Slovak write them ("10. 02. 2015"): day first, four-digit year
  {
    re: /\b(\d{1,2})\.\s(\d{1,2})\.\s?(\d{4})\b/g,
    read: (m) => (+m[2] > 12 ? undefined : [+m[3], +m[2], +m[1], +m[1] <= 12 && m[1] !== m[2]]),
  },
];

function year(text: string): number {
  const y = +text;
  return text.length === 2 ? (y < 70 ? 2000 + y : 1900 + y) : y;
}

function valid(y: number, m: number, d: number): boolean {
  if (!(y >= 1900 && y <= 2199 && m >= 1 && m <= 12 && d >= 1)) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date found in a text together with where it stands (for picking the one after a label). */
export interface FoundDate extends ParsedDate {
  index: number;
}

/**
 * Finds every date in a text and normalises it to YYYY-MM-DD. Handles ISO dates, numeric dates
 * with / - . separators (day-first or month-first: unambiguous when one part is above 12,
 * otherwise `order`), and dates with month names in either order, with or without ordinals.
 */
export function findDates(text: string, order: DateOrder = 'DMY'): FoundDate[] {
  const found: FoundDate[] = [];
  const taken: [number, number][] = [];
  for (const { re, read } of PATTERNS) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) {
      const start = m.index;
      const end = start + m[0].length;
      if (taken.some(([s, e]) => start < e && end > s)) continue;
      const parts = read(m, order);
      if (!parts || !valid(parts[0], parts[1], parts[2])) continue;
      taken.push([start, end]);
      found.push({ iso: `${parts[0]}-${pad(parts[1])}-${pad(parts[2])}`, raw: m[0], ambiguous: parts[3], index: start });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

/** Parses the first date in a text (see findDates), or undefined when it has none. */
export function parseDate(text: string, order: DateOrder = 'DMY'): ParsedDate | undefined {
  const [first] = findDates(text, order);
  return first ? { iso: first.iso, raw: first.raw, ambiguous: first.ambiguous } : undefined;
}

/** Why a document's numeric dates are read in the order they are. */
export type DateOrderBasis = 'dates' | 'language' | 'currency' | 'default';

export interface DateOrderDecision {
  order: DateOrder;
  basis: DateOrderBasis;
}

// Words that only a European-language invoice uses: all of them write the day first.
const DAY_FIRST_WORDS =
  /\b(?:rechnung|rechnungsdatum|datum|betrag|umsatzsteuer|mwst|netto|gesamt|facture|montant|tva|échéance|factuur|btw|bedrag|totaal|factura|importe|iva|fecha|fattura|importo|totale|scadenza|data)\b/giu;
const ENGLISH_WORDS = /\b(?:invoice|amount|total|date|due|tax|bill|payment|quantity|description)\b/gi;
/** Currencies of countries that write dates month-first. */
const MONTH_FIRST_CURRENCIES = new Set(['USD']);

/**
 * Decides the day-month order of a document's numeric dates from the document itself, strongest
 * evidence first: an unambiguous date anywhere on it (13/02/2026 is day-first; a dotted date is
 * day-first), then its language (a German, French, Dutch, Spanish or Italian invoice writes the
 * day first), then its currency (US dollars month-first, others day-first), else day-first.
 * The basis says how sure that is: only 'dates' settles an ambiguous date beyond doubt.
 */
export function decideDateOrder(text: string, currency?: string): DateOrderDecision {
  const re = /\b(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})\b/g;
  let dmy = 0;
  let mdy = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    if (+m[1] > 12 && +m[3] <= 12) dmy++;
    else if (+m[3] > 12 && +m[1] <= 12) mdy++;
    else if (m[2] === '.' && +m[1] <= 31 && +m[3] <= 12) dmy += 0.5;
  }
  if (dmy !== mdy) return { order: dmy > mdy ? 'DMY' : 'MDY', basis: 'dates' };
  const european = (text.match(DAY_FIRST_WORDS) ?? []).length;
  const english = (text.match(ENGLISH_WORDS) ?? []).length;
  if (european > english) return { order: 'DMY', basis: 'language' };
  if (currency) return { order: MONTH_FIRST_CURRENCIES.has(currency) ? 'MDY' : 'DMY', basis: 'currency' };
  return { order: 'DMY', basis: 'default' };
}

/** The day-month order of a document's numeric dates (see decideDateOrder). */
export function inferDateOrder(text: string, currency?: string): DateOrder {
  return decideDateOrder(text, currency).order;
}
