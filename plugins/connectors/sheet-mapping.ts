/**
 * How a step's output becomes Google Sheets rows: by column name, never by position. A table
 * is a declared column order (used when the step creates the header) and one record per row
 * ({column: value}); the sheet's own header row decides where each value goes.
 */

export type Cell = string | number | boolean;

export interface SheetTable {
  /** the columns in the order a new header gets them */
  columns: string[];
  /** one record per row, by column name */
  records: Array<Record<string, Cell>>;
  /** what is missing or uncertain, per row (also written in a row's "warnings" column when it has one) */
  warnings: string[];
}

/**
 * The columns of an invoice row, in this order when the step creates the header: the file, the
 * invoice's identity and dates, the parties, the money (currency, subtotal, tax, total), the
 * line items as text and the warnings. A field the extractor adds later is appended after these.
 */
export const INVOICE_COLUMNS = [
  'file',
  'invoice_number',
  'invoice_date',
  'due_date',
  'vendor_name',
  'vendor_address',
  'customer_name',
  'customer_address',
  'po_number',
  'payment_terms',
  'currency',
  'subtotal',
  'tax',
  'total',
  'line_items',
  'warnings',
] as const;

/** The invoice fields a reader of the sheet or the bill misses most; each missing one is reported. */
export const KEY_INVOICE_FIELDS: Record<string, string> = {
  invoice_number: 'invoice number',
  invoice_date: 'invoice date',
  due_date: 'due date',
  vendor_name: 'supplier name',
  currency: 'currency',
  subtotal: 'subtotal',
  tax: 'tax',
  total: 'total',
};

/** Below this confidence (0..1) a field that is written is reported as uncertain (the job view marks the same fields "check"). */
export const LOW_CONFIDENCE = 0.6;

export function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A cell value as Sheets takes it: numbers and booleans as they are, objects as JSON text. */
export function cell(value: unknown): Cell {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** The documents of an extraction step's output (several attachments give several), or the output itself. */
export function documentsOf(input: unknown): Array<Record<string, unknown>> {
  const rec = record(input);
  return Array.isArray(rec.documents) && rec.documents.length ? (rec.documents as unknown[]).map(record) : [rec];
}

const money = (n: number) => n.toFixed(2);

/** The line items as one readable cell: "4 × Widgets @ 25.00 = 100.00", one line each. */
export function lineItemsText(items: unknown): string {
  if (!Array.isArray(items)) return '';
  return items
    .map(record)
    .map((l) => {
      const q = typeof l.quantity === 'number' ? `${l.quantity} × ` : '';
      const u = typeof l.unit_price === 'number' ? ` @ ${money(l.unit_price)}` : '';
      const a = typeof l.amount === 'number' ? ` = ${money(l.amount)}` : '';
      return `${q}${String(l.description ?? '').trim() || 'Item'}${u}${a}`;
    })
    .join('\n');
}

/** What is missing or uncertain in one extracted invoice, in words (the extractor's own warnings first). */
export function invoiceWarnings(doc: Record<string, unknown>): string[] {
  const fields = record(doc.fields);
  const confidence = record(doc.confidence);
  const out = Array.isArray(doc.warnings) ? doc.warnings.filter((w): w is string => typeof w === 'string') : [];
  const missing = Object.entries(KEY_INVOICE_FIELDS).filter(([k]) => fields[k] === null || fields[k] === undefined || fields[k] === '');
  if (missing.length) out.push(`Not found on the invoice: ${missing.map(([, label]) => label).join(', ')}.`);
  for (const [k, label] of Object.entries(KEY_INVOICE_FIELDS)) {
    const c = confidence[k];
    if (typeof c === 'number' && c < LOW_CONFIDENCE && fields[k] !== null && fields[k] !== undefined)
      out.push(`The ${label} was read with low confidence (${Math.round(c * 100)}%): check it.`);
  }
  return out;
}

function isInvoice(doc: Record<string, unknown>): boolean {
  return !!doc.fields && typeof doc.fields === 'object' && !Array.isArray(doc.fields);
}

/**
 * The rows an extraction step's output becomes, one per document: an invoice's fields under
 * INVOICE_COLUMNS (a field not found gives an empty cell and a warning, never a guess); a
 * document's label / value pairs under a column per label; any other output as one row of its
 * fields.
 */
export function tableOfExtraction(input: unknown): SheetTable {
  const docs = documentsOf(input);
  if (isInvoice(docs[0])) {
    const columns: string[] = [...INVOICE_COLUMNS];
    const warnings: string[] = [];
    const records = docs.map((d) => {
      const fields = record(d.fields);
      for (const k of Object.keys(fields)) if (!columns.includes(k)) columns.push(k);
      const notes = invoiceWarnings(d);
      warnings.push(...notes.map((w) => (docs.length > 1 ? `${String(d.name ?? 'document')}: ${w}` : w)));
      const row: Record<string, Cell> = { file: cell(d.name) };
      for (const [k, v] of Object.entries(fields)) row[k] = cell(v);
      row.line_items = lineItemsText(d.lineItems);
      row.warnings = notes.join('\n');
      return row;
    });
    return { columns, records, warnings };
  }
  if (docs[0].values && typeof docs[0].values === 'object') {
    const columns = ['file'];
    const records = docs.map((d) => {
      const row: Record<string, Cell> = { file: cell(d.name) };
      for (const [k, v] of Object.entries(record(d.values))) {
        if (!columns.includes(k)) columns.push(k);
        row[k] = cell(v);
      }
      return row;
    });
    return { columns, records, warnings: [] };
  }
  const entries = Object.entries(record(input)).filter(([k]) => k !== 'files');
  return { columns: entries.map(([k]) => k), records: entries.length ? [Object.fromEntries(entries.map(([k, v]) => [k, cell(v)]))] : [], warnings: [] };
}

/** Column number (1-based) → letters: 1 → A, 27 → AA. */
export function columnName(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}

/** A header name as matched: case, spaces and punctuation aside ("Invoice Number" is invoice_number). */
export function headerKey(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * The header the rows are written under: the sheet's own row 1 as the user left it (reordered,
 * renamed columns kept), with each column the table has and the sheet lacks added at its end;
 * a sheet without a header gets the table's columns in their declared order.
 */
export function planHeader(existing: string[], columns: string[]): { header: string[]; added: string[] } {
  const current = [...existing];
  while (current.length && !String(current[current.length - 1]).trim()) current.pop();
  const known = new Set(current.map((h) => headerKey(String(h))));
  const added = columns.filter((c) => {
    const k = headerKey(c);
    if (known.has(k)) return false;
    known.add(k);
    return true;
  });
  return { header: [...current.map(String), ...added], added };
}

/** A record as a row under a header: each value under the column of its name, '' under any other. */
export function rowUnder(header: string[], rec: Record<string, Cell>): Cell[] {
  const byKey = new Map(Object.entries(rec).map(([k, v]) => [headerKey(k), v]));
  return header.map((h) => (h.trim() ? (byKey.get(headerKey(h)) ?? '') : ''));
}
