/**
 * The invoice-only Test: with no purchase-order file, check the invoice file on its own —
 * duplicate keys, rows without a key, unreadable numbers, and each line's total against
 * quantity × unit price. Same result shape as a reconciliation (mode 'invoice-only').
 */
import { detectColumns, detectKey, findColumn } from './columns';
import {
  DEFAULT_TOLERANCE,
  lineAmount,
  lineTotalDiscrepancy,
  lineValues,
  normaliseKey,
  openInput,
  round2,
  type Discrepancy,
  type DiscrepancyKind,
  type ReconcileResult,
  type RowInput,
  type UnmatchedRecord,
  type VendorSummary,
} from './matcher';
import type { ColumnRole } from './columns';

export interface InvoiceCheckOptions {
  /** Key column; detected from the header (an invoice-number column first) when absent. */
  invoiceKey?: string;
  tolerance?: number;
}

/**
 * Checks one invoice file alone. Rejects with a CsvFormatError naming file, row and column for
 * garbage numbers and a missing key column; everything else is reported in the result.
 */
export async function checkInvoices(invoices: RowInput, options: InvoiceCheckOptions = {}): Promise<ReconcileResult> {
  const started = performance.now();
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new RangeError(`The tolerance must be a number of zero or more, not ${String(options.tolerance)}.`);
  }
  const file = await openInput(invoices);
  const header = file.header;
  const keyIndex = findColumn(header.headers, options.invoiceKey ?? detectKey(header.headers, header.fileName), header.fileName, 'invoice key');
  const keyHeader = header.headers[keyIndex];
  const columns = detectColumns(header.headers, [keyIndex]);
  const vendorCol = columns.vendor?.index ?? -1;
  const emailCol = columns.vendorEmail?.index ?? -1;
  const descCol = columns.description?.index ?? -1;

  const discrepencies: Discrepancy[] = [];
  const unmatched: UnmatchedRecord[] = [];
  const byKind: Partial<Record<DiscrepancyKind, number>> = {};
  const firstRowOf = new Map<string, number>();
  const vendors = new Map<string, VendorSummary>();
  let total = 0;
  let duplicates = 0;
  let clean = 0;
  let withDiscrepancies = 0;
  let keyed = 0;

  const { rowCount } = await file.stream((rows, rowNumbers) => {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const rowNumber = rowNumbers[i];
      const key = (row[keyIndex] ?? '').trim();
      const values = lineValues(row, columns, header, rowNumber);
      const amount = lineAmount(values);
      total += amount;
      const vendor = vendorCol >= 0 ? (row[vendorCol] ?? '').trim() : '';
      const description = descCol >= 0 ? (row[descCol] ?? '').trim() : '';
      const vendorId = (vendor || 'Unknown vendor').toLowerCase();
      let summary = vendors.get(vendorId);
      if (!summary) {
        summary = {
          vendor: vendor || 'Unknown vendor',
          email: '',
          matched_lines: 0,
          matched_total: 0,
          clean_lines: 0,
          discrepancy_lines: 0,
          unmatched_invoice_lines: 0,
          unmatched_purchase_order_lines: 0,
          clean_sample: [],
        };
        vendors.set(vendorId, summary);
      }
      if (!summary.email && emailCol >= 0) summary.email = (row[emailCol] ?? '').trim();
      if (!key) {
        unmatched.push({
          side: 'invoice',
          key: '',
          row: rowNumber,
          vendor,
          description,
          quantity: values.quantity,
          unit_price: values.unitPrice,
          total: values.total,
          reason: `No value in the key column "${keyHeader}".`,
        });
        summary.unmatched_invoice_lines++;
        continue;
      }
      const id = normaliseKey(key);
      const first = firstRowOf.get(id);
      if (first !== undefined) {
        duplicates++;
        const d: Discrepancy = {
          kind: 'duplicate_invoice_key',
          key,
          field: keyHeader,
          invoice_row: rowNumber,
          purchase_order_row: null,
          invoice_value: key,
          purchase_order_value: null,
          expected_value: null,
          delta: null,
          vendor,
          description,
          message: `Invoice key ${key} appears again at row ${rowNumber} (first at row ${first}); the line may be billed twice.`,
        };
        discrepencies.push(d);
        byKind[d.kind] = (byKind[d.kind] ?? 0) + 1;
        summary.discrepancy_lines++;
        continue;
      }
      firstRowOf.set(id, rowNumber);
      keyed++;
      const check = lineTotalDiscrepancy(key, rowNumber, values, tolerance, vendor, description);
      if (check) {
        discrepencies.push(check);
        byKind.line_total = (byKind.line_total ?? 0) + 1;
        withDiscrepancies++;
        summary.discrepancy_lines++;
      } else {
        clean++;
        summary.clean_lines++;
        summary.matched_lines++;
        summary.matched_total += amount;
        if (summary.clean_sample.length < 20) summary.clean_sample.push({ key, row: rowNumber, total: values.total ?? (amount || null), description });
      }
    }
  });

  const names: Partial<Record<ColumnRole, string>> = {};
  for (const [role, column] of Object.entries(columns)) names[role as ColumnRole] = column.header;
  return {
    discrepencies,
    unmatched_records: unmatched,
    metadata: {
      mode: 'invoice-only',
      invoice_file: header.fileName,
      purchase_order_file: null,
      invoice_key: keyHeader,
      purchase_order_key: null,
      columns: { invoice: names, purchase_order: {} },
      invoice_rows: rowCount,
      purchase_order_rows: 0,
      matched_rows: 0,
      clean_matched_rows: clean,
      lines_with_discrepancies: withDiscrepancies + duplicates,
      unmatched_invoice_rows: unmatched.length,
      unmatched_purchase_order_rows: 0,
      duplicate_invoice_keys: duplicates,
      duplicate_purchase_order_keys: 0,
      discrepancy_count: discrepencies.length,
      discrepancies_by_kind: byKind,
      invoice_total: round2(total),
      purchase_order_total: 0,
      matched_invoice_total: 0,
      matched_purchase_order_total: 0,
      total_difference: 0,
      match_rate: 0,
      clean_match_rate: Math.round((clean / (keyed || 1)) * 10000) / 10000,
      tolerance,
      time_taken_ms: Math.round(performance.now() - started),
      generated_at: new Date().toISOString(),
      vendors: [...vendors.values()]
        .map((v) => ({ ...v, matched_total: round2(v.matched_total) }))
        .sort(
          (a, b) => b.discrepancy_lines + b.unmatched_invoice_lines - (a.discrepancy_lines + a.unmatched_invoice_lines) || a.vendor.localeCompare(b.vendor),
        ),
    },
  };
}
