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
