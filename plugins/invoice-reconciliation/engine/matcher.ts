/**
 * The invoice-to-purchase-order matcher. The purchase-order file is streamed into a compact
 * index (a KeyIndex of the normalised keys, trimmed and upper case, and typed arrays of the
 * numbers and names it needs); the invoice file is then streamed row by row against it. Nothing
 * else is kept per row, so memory grows with the order file's index, not with both files' raw
 * text, and a million rows take one PapaParse pass per file plus a key lookup per invoice line.
 */
import { openCsv, readAmountCell, type CsvHeader, type CsvSource, type CsvTable, type OpenedCsv } from '../../../src/server';
import { detectColumns, detectKeyPair, findColumn, type ColumnMap, type ColumnRole } from './columns';
import { KeyIndex } from './key-index';

export type DiscrepancyKind =
  'quantity' | 'unit_price' | 'total' | 'line_total' | 'vendor' | 'missing_value' | 'duplicate_invoice_key' | 'duplicate_purchase_order_key';

/** One difference found: both values, the delta (invoice minus order, or stated minus computed) and where. */
export interface Discrepancy {
  kind: DiscrepancyKind;
  key: string;
  /** The compared field: 'quantity', 'unit_price', 'total', 'vendor', or the key column for duplicates. */
  field: string;
  invoice_row: number | null;
  purchase_order_row: number | null;
  invoice_value: number | string | null;
  purchase_order_value: number | string | null;
  /** For 'line_total': quantity × unit price as computed from the invoice line. */
  expected_value: number | null;
  delta: number | null;
  vendor: string;
  description: string;
  message: string;
}

/** A row without a counterpart on the other side (or without a key at all). */
export interface UnmatchedRecord {
  side: 'invoice' | 'purchase_order';
  key: string;
  row: number;
  vendor: string;
  description: string;
  quantity: number | null;
  unit_price: number | null;
  total: number | null;
  reason: string;
}

/** Per-vendor counts, used for the e-mails and the memo. */
export interface VendorSummary {
  vendor: string;
  email: string;
  matched_lines: number;
  matched_total: number;
  clean_lines: number;
  discrepancy_lines: number;
  unmatched_invoice_lines: number;
  unmatched_purchase_order_lines: number;
  /** Up to 20 cleanly matched keys with their totals, for confirmation e-mails. */
  clean_sample: { key: string; row: number; total: number | null; description: string }[];
}

export interface ReconcileMetadata {
  mode: 'reconciliation' | 'invoice-only';
  invoice_file: string;
  purchase_order_file: string | null;
  invoice_key: string;
  purchase_order_key: string | null;
  columns: { invoice: Partial<Record<ColumnRole, string>>; purchase_order: Partial<Record<ColumnRole, string>> };
  invoice_rows: number;
  purchase_order_rows: number;
  matched_rows: number;
  clean_matched_rows: number;
  lines_with_discrepancies: number;
  unmatched_invoice_rows: number;
  unmatched_purchase_order_rows: number;
  duplicate_invoice_keys: number;
  duplicate_purchase_order_keys: number;
  discrepancy_count: number;
  discrepancies_by_kind: Partial<Record<DiscrepancyKind, number>>;
  invoice_total: number;
  purchase_order_total: number;
  matched_invoice_total: number;
  matched_purchase_order_total: number;
  total_difference: number;
  /** Matched invoice lines ÷ invoice lines with a distinct key, 0–1. */
  match_rate: number;
  /** Lines matched with no discrepancy ÷ invoice lines with a distinct key, 0–1. */
  clean_match_rate: number;
  tolerance: number;
  time_taken_ms: number;
  generated_at: string;
  vendors: VendorSummary[];
}

export interface ReconcileResult {
  discrepencies: Discrepancy[];
  unmatched_records: UnmatchedRecord[];
  metadata: ReconcileMetadata;
}

export interface ReconcileOptions {
  /** Invoice key column (header name); detected from the headers when absent. */
  invoiceKey?: string;
  /** Purchase-order key column (header name); detected when absent. */
  purchaseOrderKey?: string;
  /** Largest difference still counted as equal (default 0.01), applied to quantity, price and total. */
  tolerance?: number;
}

export const DEFAULT_TOLERANCE = 0.01;

/** Input for the matcher: a file to stream, or a table already in memory. */
export type RowInput = CsvSource | CsvTable;

/** Opens a file to stream, or wraps a table already in memory in the same interface. */
export async function openInput(input: RowInput): Promise<OpenedCsv> {
  if (!('rows' in input)) return openCsv(input);
  const header: CsvHeader = { fileName: input.fileName, headers: input.headers, delimiter: input.delimiter, decimalComma: input.decimalComma };
  return {
    header,
    async stream(onRows) {
      onRows(input.rows, input.rowNumbers);
      return { rowCount: input.rows.length };
    },
  };
}

/** True when a and b differ by more than the tolerance, ignoring floating-point noise (0.1 + 0.2). */
export function differs(a: number, b: number, tolerance: number): boolean {
  const scale = Math.max(1, Math.abs(a), Math.abs(b));
  return Math.abs(a - b) > tolerance + 1e-9 * scale;
}

/** A delta without binary noise: 10.3 − 10.1 gives 0.2, not 0.20000000000000107. */
export function cleanDelta(value: number): number {
  return Number.parseFloat(value.toPrecision(12));
}

export function round2(value: number): number {
  return Math.round((value + Number.EPSILON * Math.sign(value)) * 100) / 100;
}

/**
 * The form keys are compared in: upper case (keys are trimmed by the caller). Typical keys
 * ("PO-0001234") are upper-case ASCII already and come back as they are, without the cost of a
 * case conversion and a new string per row.
 */
export function normaliseKey(key: string): string {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if ((c >= 97 && c <= 122) || c > 127) return key.toUpperCase();
  }
  return key;
}

function normaliseText(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Names equal when trimmed, whitespace-collapsed and compared case-insensitively; the common exact case costs one comparison. */
function sameName(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length === b.length && a.toLowerCase() === b.toLowerCase()) return true;
  return normaliseText(a) === normaliseText(b);
}

function columnNames(map: ColumnMap): Partial<Record<ColumnRole, string>> {
  const out: Partial<Record<ColumnRole, string>> = {};
  for (const [role, column] of Object.entries(map)) out[role as ColumnRole] = column.header;
  return out;
}

/** The numbers of one line, with the line total derived from quantity × price when there is no total column. */
interface LineValues {
  quantity: number | null;
  unitPrice: number | null;
  total: number | null;
}

/** Reads the quantity, unit price and total of a row, naming file, row and column on garbage. */
export function lineValues(row: string[], columns: ColumnMap, header: CsvHeader, rowNumber: number): LineValues {
  const { decimalComma, fileName } = header;
  const q = columns.quantity;
  const p = columns.unitPrice;
  const t = columns.total;
  const quantity = q ? readAmountCell(row[q.index], decimalComma, fileName, rowNumber, q.header) : null;
  const unitPrice = p ? readAmountCell(row[p.index], decimalComma, fileName, rowNumber, p.header) : null;
  const total = t ? readAmountCell(row[t.index], decimalComma, fileName, rowNumber, t.header) : null;
  return { quantity, unitPrice, total };
}

/** The line's amount for totals: the stated total, else quantity × unit price, else 0. */
export function lineAmount(v: LineValues): number {
  if (v.total !== null) return v.total;
  if (v.quantity !== null && v.unitPrice !== null) return v.quantity * v.unitPrice;
  return 0;
}

/** The line-total check of one invoice line: stated total against quantity × unit price. */
export function lineTotalDiscrepancy(
  key: string,
  rowNumber: number,
  v: LineValues,
  tolerance: number,
  vendor: string,
  description: string,
): Discrepancy | undefined {
  if (v.quantity === null || v.unitPrice === null || v.total === null) return undefined;
  const expected = v.quantity * v.unitPrice;
  if (!differs(v.total, expected, tolerance)) return undefined;
  const delta = cleanDelta(v.total - expected);
  const computed = cleanDelta(expected);
  return {
    kind: 'line_total',
    key,
    field: 'total',
    invoice_row: rowNumber,
    purchase_order_row: null,
    invoice_value: v.total,
    purchase_order_value: null,
    expected_value: computed,
    delta,
    vendor,
    description,
    message: `Invoice line ${key} (row ${rowNumber}) states a total of ${v.total} but ${v.quantity} × ${v.unitPrice} = ${computed} (difference ${delta}).`,
  };
}

/**
 * The purchase-order index in columns: a KeyIndex from normalised key to a small integer, the
 * numbers in typed arrays (NaN = empty). A million orders are a handful of arrays instead of a
 * million objects and three million boxed numbers, which keeps garbage collection cheap.
 */
class OrderIndex {
  readonly ids = new KeyIndex(1 << 16);
  size = 0;
  readonly keys: string[] = [];
  readonly descriptions: string[] = [];
  /** Vendor names and e-mails repeat on every line: each distinct text is stored once, rows hold its id. */
  private readonly texts: string[] = [''];
  private readonly textIds = new Map<string, number>([['', 0]]);
  private vendorIds = new Int32Array(1024);
  private emailIds = new Int32Array(1024);
  rows = new Int32Array(1024);
  /** Row of the invoice line that matched each order, 0 while unmatched. */
  invoiceRows = new Int32Array(1024);
  quantity = new Float64Array(1024);
  unitPrice = new Float64Array(1024);
  total = new Float64Array(1024);
  /** Adds the order of key `id` and returns -1, or returns the order that has that key already (and adds nothing). */
  add(id: string, key: string, row: number, values: LineValues, vendor: string, email: string, description: string): number {
    const existing = this.ids.add(id);
    if (existing >= 0) return existing;
    const i = this.size++;
    if (i === this.rows.length) this.grow();
    this.keys.push(key);
    this.vendorIds[i] = this.textId(vendor);
    this.emailIds[i] = this.textId(email);
    this.descriptions.push(description);
    this.rows[i] = row;
    this.quantity[i] = values.quantity ?? Number.NaN;
    this.unitPrice[i] = values.unitPrice ?? Number.NaN;
    this.total[i] = values.total ?? Number.NaN;
    return -1;
  }

  vendor(i: number): string {
    return this.texts[this.vendorIds[i]];
  }

  email(i: number): string {
    return this.texts[this.emailIds[i]];
  }

  private textId(text: string): number {
    let id = this.textIds.get(text);
    if (id === undefined) {
      id = this.texts.length;
      this.texts.push(text);
      this.textIds.set(text, id);
    }
    return id;
  }

  /** quantity / unitPrice / total of order i, null when the cell was empty. */
  value(role: 'quantity' | 'unitPrice' | 'total', i: number): number | null {
    const v = this[role][i];
    return v !== v ? null : v;
  }

  values(i: number): LineValues {
    return { quantity: this.value('quantity', i), unitPrice: this.value('unitPrice', i), total: this.value('total', i) };
  }

  private grow(): void {
    const size = this.rows.length * 2;
    const copy = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.rows = copy(this.rows, (n) => new Int32Array(n));
    this.vendorIds = copy(this.vendorIds, (n) => new Int32Array(n));
    this.emailIds = copy(this.emailIds, (n) => new Int32Array(n));
    this.invoiceRows = copy(this.invoiceRows, (n) => new Int32Array(n));
    this.quantity = copy(this.quantity, (n) => new Float64Array(n));
    this.unitPrice = copy(this.unitPrice, (n) => new Float64Array(n));
    this.total = copy(this.total, (n) => new Float64Array(n));
  }
}

const FIELD_LABEL: Record<'quantity' | 'unit_price' | 'total', string> = { quantity: 'quantity', unit_price: 'unit price', total: 'total' };

/** Tracks per-vendor counts for the e-mails. */
class VendorBook {
  private readonly byId = new Map<string, VendorSummary>();
  /** Exact spellings already seen, so the common case is one lookup and no allocation. */
  private readonly byName = new Map<string, VendorSummary>();

  get(name: string, email: string): VendorSummary {
    const display = name || 'Unknown vendor';
    let summary = this.byName.get(display);
    if (!summary) {
      const id = normaliseText(display);
      summary = this.byId.get(id);
      if (!summary) {
        summary = {
          vendor: display,
          email: '',
          matched_lines: 0,
          matched_total: 0,
          clean_lines: 0,
          discrepancy_lines: 0,
          unmatched_invoice_lines: 0,
          unmatched_purchase_order_lines: 0,
          clean_sample: [],
        };
        this.byId.set(id, summary);
      }
      if (this.byName.size < 100_000) this.byName.set(display, summary);
    }
    if (!summary.email && email) summary.email = email;
    return summary;
  }

  list(): VendorSummary[] {
    return [...this.byId.values()]
      .map((v) => ({ ...v, matched_total: round2(v.matched_total) }))
      .sort((a, b) => b.discrepancy_lines + b.unmatched_invoice_lines - (a.discrepancy_lines + a.unmatched_invoice_lines) || a.vendor.localeCompare(b.vendor));
  }
}

function cell(row: string[], index: number): string {
  if (index < 0) return '';
  const value = row[index];
  return value === undefined ? '' : value.trim();
}

/**
 * Reconciles an invoice file against a purchase-order file. Keys are compared trimmed and
 * case-insensitively; for each matched pair quantity, unit price and total are compared within
 * the tolerance, the vendor names compared, and the invoice line's own total checked against
 * quantity × unit price. Reports each difference with both values and the delta, unmatched rows
 * on both sides, duplicate keys, and metadata (counts, totals, match rate, time taken).
 * Key columns come from `options` or are detected from both headers. Malformed input rejects
 * with a CsvFormatError naming the file, row and column.
 */
export async function reconcile(invoices: RowInput, purchaseOrders: RowInput, options: ReconcileOptions = {}): Promise<ReconcileResult> {
  const started = performance.now();
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new RangeError(`The tolerance must be a number of zero or more, not ${String(options.tolerance)}.`);
  }
  const [invoiceFile, orderFile] = await Promise.all([openInput(invoices), openInput(purchaseOrders)]);
  const inv = invoiceFile.header;
  const ord = orderFile.header;

  // Keys: configured ones must exist; missing ones are detected from both headers.
  const detected = options.invoiceKey && options.purchaseOrderKey ? undefined : detectKeyPair(inv.headers, ord.headers, inv.fileName, ord.fileName);
  const invoiceKeyIndex = findColumn(inv.headers, options.invoiceKey ?? detected!.invoiceKey, inv.fileName, 'invoice key');
  const orderKeyIndex = findColumn(ord.headers, options.purchaseOrderKey ?? detected!.purchaseOrderKey, ord.fileName, 'purchase-order key');
  const invoiceColumns = detectColumns(inv.headers, [invoiceKeyIndex]);
  const orderColumns = detectColumns(ord.headers, [orderKeyIndex]);
  const invoiceKeyHeader = inv.headers[invoiceKeyIndex];
  const orderKeyHeader = ord.headers[orderKeyIndex];

  const discrepencies: Discrepancy[] = [];
  const unmatched: UnmatchedRecord[] = [];
  const byKind: Partial<Record<DiscrepancyKind, number>> = {};
  const report = (d: Discrepancy) => {
    discrepencies.push(d);
    byKind[d.kind] = (byKind[d.kind] ?? 0) + 1;
  };
  const vendors = new VendorBook();

  // 1. Index the purchase orders.
  const orders = new OrderIndex();
  let orderTotal = 0;
  let duplicateOrders = 0;
  const oVendor = orderColumns.vendor?.index ?? -1;
  const oEmail = orderColumns.vendorEmail?.index ?? -1;
  const oDesc = orderColumns.description?.index ?? -1;
  const { rowCount: orderRows } = await orderFile.stream((rows, rowNumbers) => {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const rowNumber = rowNumbers[i];
      const key = cell(row, orderKeyIndex);
      const values = lineValues(row, orderColumns, ord, rowNumber);
      orderTotal += lineAmount(values);
      const vendor = cell(row, oVendor);
      const description = cell(row, oDesc);
      if (key === '') {
        unmatched.push({
          side: 'purchase_order',
          key: '',
          row: rowNumber,
          vendor,
          description,
          quantity: values.quantity,
          unit_price: values.unitPrice,
          total: values.total,
          reason: `No value in the key column "${orderKeyHeader}".`,
        });
        vendors.get(vendor, cell(row, oEmail)).unmatched_purchase_order_lines++;
        continue;
      }
      const existing = orders.add(normaliseKey(key), key, rowNumber, values, vendor, cell(row, oEmail), description);
      if (existing >= 0) {
        duplicateOrders++;
        report({
          kind: 'duplicate_purchase_order_key',
          key,
          field: orderKeyHeader,
          invoice_row: null,
          purchase_order_row: rowNumber,
          invoice_value: null,
          purchase_order_value: key,
          expected_value: null,
          delta: null,
          vendor,
          description,
          message: `Purchase order ${key} appears again at row ${rowNumber} (first at row ${orders.rows[existing]}); the first one is used for matching.`,
        });
      }
    }
  });

  // 2. Stream the invoices against the index.
  const iVendor = invoiceColumns.vendor?.index ?? -1;
  const iEmail = invoiceColumns.vendorEmail?.index ?? -1;
  const iDesc = invoiceColumns.description?.index ?? -1;
  const compareVendor = iVendor >= 0 && oVendor >= 0;
  const compared = (['quantity', 'unitPrice', 'total'] as const).filter((role) => invoiceColumns[role] && orderColumns[role]);
  const unmatchedInvoiceKeys = new Map<string, number>();
  let invoiceTotal = 0;
  let matchedInvoiceTotal = 0;
  let matchedOrderTotal = 0;
  let matched = 0;
  let clean = 0;
  let withDiscrepancies = 0;
  let duplicateInvoices = 0;
  let keyedInvoiceRows = 0;

  const { rowCount: invoiceRows } = await invoiceFile.stream((rows, rowNumbers) => {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const rowNumber = rowNumbers[i];
      const key = cell(row, invoiceKeyIndex);
      const values = lineValues(row, invoiceColumns, inv, rowNumber);
      const amount = lineAmount(values);
      invoiceTotal += amount;
      const invoiceVendor = cell(row, iVendor);
      const description = cell(row, iDesc);
      if (key === '') {
        unmatched.push({
          side: 'invoice',
          key: '',
          row: rowNumber,
          vendor: invoiceVendor,
          description,
          quantity: values.quantity,
          unit_price: values.unitPrice,
          total: values.total,
          reason: `No value in the key column "${invoiceKeyHeader}".`,
        });
        vendors.get(invoiceVendor, cell(row, iEmail)).unmatched_invoice_lines++;
        continue;
      }
      const id = normaliseKey(key);
      const o = orders.ids.get(id);
      const found = o >= 0;
      const orderRow = found ? orders.rows[o] : 0;
      const orderVendor = found ? orders.vendor(o) : '';
      const orderDescription = found ? orders.descriptions[o] : '';
      const firstRow = found ? orders.invoiceRows[o] : (unmatchedInvoiceKeys.get(id) ?? 0);
      if (firstRow) {
        duplicateInvoices++;
        report({
          kind: 'duplicate_invoice_key',
          key,
          field: invoiceKeyHeader,
          invoice_row: rowNumber,
          purchase_order_row: found ? orderRow : null,
          invoice_value: key,
          purchase_order_value: null,
          expected_value: null,
          delta: null,
          vendor: invoiceVendor || orderVendor,
          description,
          message: `Invoice key ${key} appears again at row ${rowNumber} (first at row ${firstRow}); the line may be billed twice.`,
        });
        continue;
      }
      keyedInvoiceRows++;
      const vendorName = invoiceVendor || orderVendor;
      const summary = vendors.get(vendorName, cell(row, iEmail) || (found ? orders.email(o) : ''));
      const before = discrepencies.length;
      const lineCheck = lineTotalDiscrepancy(key, rowNumber, values, tolerance, vendorName, description);
      if (lineCheck) report(lineCheck);
      if (!found) {
        unmatchedInvoiceKeys.set(id, rowNumber);
        unmatched.push({
          side: 'invoice',
          key,
          row: rowNumber,
          vendor: vendorName,
          description,
          quantity: values.quantity,
          unit_price: values.unitPrice,
          total: values.total,
          reason: `No purchase order with ${orderKeyHeader} "${key}".`,
        });
        summary.unmatched_invoice_lines++;
        continue;
      }
      orders.invoiceRows[o] = rowNumber;
      matched++;
      matchedInvoiceTotal += amount;
      matchedOrderTotal += lineAmount(orders.values(o));
      for (const role of compared) {
        const a = values[role];
        const b = orders.value(role, o);
        const field = role === 'unitPrice' ? 'unit_price' : role;
        if (a !== null && b !== null) {
          if (differs(a, b, tolerance)) {
            const delta = cleanDelta(a - b);
            report({
              kind: field,
              key,
              field,
              invoice_row: rowNumber,
              purchase_order_row: orderRow,
              invoice_value: a,
              purchase_order_value: b,
              expected_value: null,
              delta,
              vendor: vendorName,
              description: description || orderDescription,
              message: `${key}: invoiced ${FIELD_LABEL[field]} ${a} differs from the ordered ${b} by ${delta > 0 ? '+' : ''}${delta}.`,
            });
          }
        } else if (a !== b) {
          report({
            kind: 'missing_value',
            key,
            field,
            invoice_row: rowNumber,
            purchase_order_row: orderRow,
            invoice_value: a,
            purchase_order_value: b,
            expected_value: null,
            delta: null,
            vendor: vendorName,
            description: description || orderDescription,
            message: `${key}: the ${FIELD_LABEL[field]} is ${a === null ? 'missing on the invoice' : 'missing on the purchase order'} (${a ?? b} on the other side).`,
          });
        }
      }
      if (compareVendor && invoiceVendor && orderVendor && !sameName(invoiceVendor, orderVendor)) {
        report({
          kind: 'vendor',
          key,
          field: 'vendor',
          invoice_row: rowNumber,
          purchase_order_row: orderRow,
          invoice_value: invoiceVendor,
          purchase_order_value: orderVendor,
          expected_value: null,
          delta: null,
          vendor: vendorName,
          description: description || orderDescription,
          message: `${key}: the invoice is from "${invoiceVendor}" but the order was placed with "${orderVendor}".`,
        });
      }
      summary.matched_lines++;
      summary.matched_total += amount;
      if (discrepencies.length > before) {
        withDiscrepancies++;
        summary.discrepancy_lines++;
      } else {
        clean++;
        summary.clean_lines++;
        if (summary.clean_sample.length < 20)
          summary.clean_sample.push({ key, row: rowNumber, total: values.total ?? (amount || null), description: description || orderDescription });
      }
    }
  });

  // 3. Orders nobody invoiced.
  for (let i = 0; i < orders.size; i++) {
    if (orders.invoiceRows[i]) continue;
    const key = orders.keys[i];
    unmatched.push({
      side: 'purchase_order',
      key,
      row: orders.rows[i],
      vendor: orders.vendor(i),
      description: orders.descriptions[i],
      quantity: orders.value('quantity', i),
      unit_price: orders.value('unitPrice', i),
      total: orders.value('total', i),
      reason: `No invoice line with ${invoiceKeyHeader} "${key}".`,
    });
    vendors.get(orders.vendor(i), orders.email(i)).unmatched_purchase_order_lines++;
  }

  const unmatchedInvoices = unmatched.reduce((n, u) => n + (u.side === 'invoice' ? 1 : 0), 0);
  const denominator = keyedInvoiceRows || 1;
  return {
    discrepencies,
    unmatched_records: unmatched,
    metadata: {
      mode: 'reconciliation',
      invoice_file: inv.fileName,
      purchase_order_file: ord.fileName,
      invoice_key: invoiceKeyHeader,
      purchase_order_key: orderKeyHeader,
      columns: { invoice: columnNames(invoiceColumns), purchase_order: columnNames(orderColumns) },
      invoice_rows: invoiceRows,
      purchase_order_rows: orderRows,
      matched_rows: matched,
      clean_matched_rows: clean,
      lines_with_discrepancies: withDiscrepancies,
      unmatched_invoice_rows: unmatchedInvoices,
      unmatched_purchase_order_rows: unmatched.length - unmatchedInvoices,
      duplicate_invoice_keys: duplicateInvoices,
      duplicate_purchase_order_keys: duplicateOrders,
      discrepancy_count: discrepencies.length,
      discrepancies_by_kind: byKind,
      invoice_total: round2(invoiceTotal),
      purchase_order_total: round2(orderTotal),
      matched_invoice_total: round2(matchedInvoiceTotal),
      matched_purchase_order_total: round2(matchedOrderTotal),
      total_difference: round2(invoiceTotal - orderTotal),
      match_rate: Math.round((matched / denominator) * 10000) / 10000,
      clean_match_rate: Math.round((clean / denominator) * 10000) / 10000,
      tolerance,
      time_taken_ms: Math.round(performance.now() - started),
      generated_at: new Date().toISOString(),
      vendors: vendors.list(),
    },
  };
}
