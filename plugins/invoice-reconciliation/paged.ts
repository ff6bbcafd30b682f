/**
 * The page's view of a comparison (issue 25, big results): the reply carries each side's
 * summary, e-mails, row counts and first page of rows; the rest of the rows come a page at a
 * time from the stored result, sorted on the server, so the browser never holds 100,000 rows.
 * Types and the sort order, shared by the server routes and the page.
 */
import type { ComparisonSide } from './engine/compare';
import type { EmailDraft } from './engine/emails';
import type { Discrepancy, UnmatchedRecord } from './engine/matcher';

export type SideName = 'default' | 'custom_config';
/** The two long tables of a side, which the page shows a page at a time. */
export type RowTable = 'discrepancies' | 'unmatched';
export type SortDirection = 'ascending' | 'descending';

/** Rows per page the page asks for (and the reply's first page). */
export const PAGE_SIZE = 100;
/** The most rows one page request may ask for. */
export const MAX_PAGE_SIZE = 500;

export interface PagedSide {
  /** the side's metadata without the per-vendor summaries (the downloads have them); vendor_count says how many */
  metadata: Omit<ComparisonSide['metadata'], 'vendors'> & { vendor_count: number };
  emails: EmailDraft[];
  discrepancy_count: number;
  unmatched_count: number;
  /** the first PAGE_SIZE rows of each table, in the engine's order */
  first: { discrepancies: Discrepancy[]; unmatched: UnmatchedRecord[] };
}

export interface PagedComparison {
  /** the stored result the pages and downloads are read from (the owner's only) */
  result_id: string;
  page_size: number;
  default: PagedSide;
  custom_config: PagedSide;
}

export interface RowsPage<R> {
  total: number;
  offset: number;
  rows: R[];
}

type Cell = string | number | null | undefined;

/** The sortable columns of each table and the value each sorts on. */
export const SORT_VALUES: { discrepancies: Record<string, (d: Discrepancy) => Cell>; unmatched: Record<string, (u: UnmatchedRecord) => Cell> } = {
  discrepancies: {
    key: (d) => d.key,
    kind: (d) => d.kind,
    vendor: (d) => d.vendor,
    description: (d) => d.description,
    invoice_value: (d) => d.invoice_value,
    purchase_order_value: (d) => d.purchase_order_value,
    delta: (d) => d.delta,
    invoice_row: (d) => d.invoice_row,
    purchase_order_row: (d) => d.purchase_order_row,
    message: (d) => d.message,
  },
  unmatched: {
    side: (u) => (u.side === 'invoice' ? 'Invoice' : 'Purchase order'),
    key: (u) => u.key,
    row: (u) => u.row,
    vendor: (u) => u.vendor,
    description: (u) => u.description,
    total: (u) => u.total,
    reason: (u) => u.reason,
  },
};

/**
 * A key that orders text naturally with a plain `<` ("PO-9" before "PO-10", case ignored):
 * each run of digits becomes its length (three digits) then the digits without leading zeros.
 */
export function naturalKey(text: string): string {
  return text.toLowerCase().replace(/\d+/g, (run) => {
    const digits = run.replace(/^0+(?=\d)/, '');
    return `${String(digits.length).padStart(3, '0')}${digits}`;
  });
}

/**
 * The order of `rows` sorted on `value` (a permutation of indexes): numbers numerically, text
 * naturally, empty values last in either direction, equal values in their original order. The
 * keys are computed once (O(n)), so the sort compares plain numbers and strings.
 */
export function sortedOrder<R>(rows: readonly R[], value: (row: R) => Cell, direction: SortDirection): Uint32Array {
  const n = rows.length;
  const rank = new Uint8Array(n); // 0 number, 1 text, 2 empty
  const nums = new Float64Array(n);
  const texts: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const v = value(rows[i]);
    if (v === null || v === undefined || v === '') rank[i] = 2;
    else if (typeof v === 'number' && Number.isFinite(v)) nums[i] = v;
    else {
      rank[i] = 1;
      texts[i] = naturalKey(String(v));
    }
  }
  const sign = direction === 'descending' ? -1 : 1;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => {
    if (rank[a] !== rank[b]) return rank[a] === 2 ? 1 : rank[b] === 2 ? -1 : sign * (rank[a] - rank[b]);
    let c = 0;
    if (rank[a] === 0) c = nums[a] - nums[b];
    else if (rank[a] === 1) c = texts[a] < texts[b] ? -1 : texts[a] > texts[b] ? 1 : 0;
    return c === 0 ? a - b : sign * c;
  });
  return Uint32Array.from(order);
}
