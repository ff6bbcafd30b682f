/** Longest query accepted (characters). */
export const MAX_QUERY_CHARS = 300;

/** A search query split for PostgreSQL: web-search syntax for the head, a prefix for the last word. */
export interface ParsedQuery {
  /** Given to websearch_to_tsquery: words, "quoted phrases", OR, -excluded. May be empty. */
  head: string;
  /** The last word as a to_tsquery prefix term (`invoi:*`), or null when the query ends otherwise. */
  prefix: string | null;
}

/** The search query is empty or too long. */
export class SearchQueryError extends Error {
  readonly statusCode = 400;
  constructor(message: string) {
    super(message);
    this.name = 'SearchQueryError';
  }
}

const PLAIN_WORD = /^[\p{L}\p{N}]+$/u;

/**
 * Splits what a user typed so the last word also matches as a prefix ("reconc" finds
 * "reconciliation") while the rest keeps web-search syntax (phrases in quotes, OR, -word). The
 * last word gets a prefix only when it is a plain word outside quotes and not an alternative
 * after OR: letters and digits only, so nothing a user types can become a tsquery operator.
 */
export function parseSearchQuery(raw: unknown): ParsedQuery {
  if (typeof raw !== 'string' || raw.trim() === '') throw new SearchQueryError('Please enter a search query.');
  const query = raw.replace(/\s+/g, ' ').trim();
  if (query.length > MAX_QUERY_CHARS) throw new SearchQueryError(`The search query is too long; the limit is ${MAX_QUERY_CHARS} characters.`);
  const quotes = (query.match(/"/g) ?? []).length;
  const cut = query.lastIndexOf(' ');
  const last = query.slice(cut + 1);
  const head = cut < 0 ? '' : query.slice(0, cut);
  // "a or b": the last word is an alternative, not a further condition; leave it to web search
  const afterOr = /(^|\s)or$/i.test(head);
  if (quotes % 2 === 1 || !PLAIN_WORD.test(last) || last.toLowerCase() === 'or' || afterOr) return { head: query, prefix: null };
  return { head, prefix: `${last.toLowerCase()}:*` };
}

/**
 * Words a question is made of rather than what it asks about ("How much did we pay Hetzner?"
 * asks about Hetzner): dropped before the remaining terms are matched one by one.
 */
export const FILLER_WORDS = new Set(
  (
    'a an the and or but of for to from in on at by with about into over per as is was were are be been being am ' +
    'how much many what which who whom whose when where why whats did do does done doing have has had ' +
    'we our ours us i me my mine you your yours they them their he she it its his her this that these those there here ' +
    'pay paid pays paying payment charge charged charges charging cost costs costed bill billed bills spend spent owe owed ' +
    'show find give get got list see look search tell please can could would should will shall may might any some all ' +
    'came come comes total amount sum price just only also again last next ago'
  ).split(' '),
);

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** One thing a question asks about, matched on its own; `weight` counts when ranking partial matches. */
export type QuestionTerm =
  /** A word: its stem, or (when no document holds it) the closest words of the owner's documents. */
  | { kind: 'word'; word: string; weight: number }
  /** An invoice number or other token with digits, matched as the parser splits it ("FA-2017-0009"). */
  | { kind: 'phrase'; text: string; weight: number }
  /** An amount, matched however it is printed: 1589.80, 1,589.80, 1.589,80, 1589,80. */
  | { kind: 'amount'; variants: string[]; weight: number }
  /** A month (and year): its name, or any dd.mm.yyyy date in it (lexemes, `prefix` when the year is open). */
  | { kind: 'date'; month: string; lexemes: string[]; prefix: boolean; weight: number };

const AMOUNT = /^(\d{1,3}(?:([,.])\d{3})*|\d+)(?:([.,])(\d{2}))?$/;

/** The ways an amount is printed, or null when the token is no amount ("2024", "42" are numbers, not amounts). */
export function amountVariants(token: string): string[] | null {
  const m = AMOUNT.exec(token);
  if (!m || !m[4]) return null;
  if (m[2] && m[2] === m[3]) return null; // 1.234.56: not an amount
  const whole = m[1].replace(/[,.]/g, '');
  const cents = m[4];
  const grouped = (sep: string) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  return [...new Set([`${whole}.${cents}`, `${whole},${cents}`, `${grouped(',')}.${cents}`, `${grouped('.')},${cents}`])];
}

/**
 * What a plain question asks about: filler words dropped, tokens with digits kept whole (amounts
 * with their other spellings), months (with a following year) turned into dates; names written
 * with a capital, and numbers, weigh more than other words. Returns no terms when nothing is left.
 */
export function questionTerms(raw: string): QuestionTerm[] {
  const tokens = raw
    .split(/\s+/)
    .map((t) => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((t) => t !== '');
  const terms: QuestionTerm[] = [];
  const seen = new Set<string>();
  const add = (key: string, term: QuestionTerm) => {
    if (seen.has(key)) return;
    seen.add(key);
    terms.push(term);
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const lower = token.toLowerCase();
    const month = MONTHS.findIndex((m) => lower === m || (lower.length >= 3 && m.startsWith(lower) && lower !== 'mar' && lower !== 'may'));
    if (month >= 0 && (lower.length >= 4 || lower === 'may')) {
      const mm = String(month + 1).padStart(2, '0');
      const year = /^(19|20)\d{2}$/.test(tokens[i + 1] ?? '') ? tokens[++i] : null;
      const days = Array.from({ length: 31 }, (_, d) => String(d + 1).padStart(2, '0'));
      add(`date:${mm}:${year}`, {
        kind: 'date',
        month: MONTHS[month],
        lexemes: days.map((d) => (year ? `${d}.${mm}.${year}` : `${d}.${mm}.`)),
        prefix: year === null,
        weight: 2,
      });
      if (year) add(`phrase:${year}`, { kind: 'phrase', text: year, weight: 1 });
      continue;
    }
    if (/\d/.test(token)) {
      const variants = amountVariants(token);
      if (variants) add(`amount:${variants[0]}`, { kind: 'amount', variants, weight: 3 });
      else add(`phrase:${lower}`, { kind: 'phrase', text: token, weight: 3 });
      continue;
    }
    if (FILLER_WORDS.has(lower)) continue;
    if (/[^\p{L}]/u.test(token)) {
      add(`phrase:${lower}`, { kind: 'phrase', text: token, weight: 2 });
      continue;
    }
    add(`word:${lower}`, { kind: 'word', word: lower, weight: /^\p{Lu}/u.test(token) ? 2 : 1 });
  }
  return terms;
}

/** Edit distance with adjacent swaps counted as one edit (optimal string alignment), capped at `max` + 1. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      row.push(d);
    }
    prev2 = prev;
    prev = row;
  }
  return Math.min(prev[b.length], max + 1);
}

/** How many edits a misspelt word of this length may be from the word meant. */
export const typoEdits = (word: string) => (word.length <= 3 ? 0 : word.length <= 6 ? 1 : 2);
