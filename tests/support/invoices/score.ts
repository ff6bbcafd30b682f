import type { InvoiceExtraction } from '../../../src/server/ai/extraction/invoice';
import type { InvoiceData } from './random-invoice';

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

const norm = (v: string | number) =>
  typeof v === 'number'
    ? v.toFixed(2)
    : v
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();

/** Whether an extracted value equals the truth (numbers to the cent, text ignoring case and punctuation). */
export function same(predicted: string | number, truth: string | number): boolean {
  if (typeof truth === 'number') return typeof predicted === 'number' && Math.abs(predicted - truth) < 0.005;
  return norm(predicted) === norm(truth);
}

/**
 * Field-level counts: a right value is a true positive; a wrong value is both a false positive and a
 * false negative; a missing value is a false negative; a value where the truth has none is a false
 * positive. Line items count as one "field" per item (description, quantity, unit price, amount all right).
 */
export function scoreInvoice(
  result: InvoiceExtraction,
  truth: Record<string, string | number | undefined>,
  data: InvoiceData,
  into: Map<string, Counts>,
): string[] {
  const misses: string[] = [];
  const add = (k: string, c: Partial<Counts>) => {
    const cur = into.get(k) ?? { tp: 0, fp: 0, fn: 0 };
    into.set(k, { tp: cur.tp + (c.tp ?? 0), fp: cur.fp + (c.fp ?? 0), fn: cur.fn + (c.fn ?? 0) });
  };
  for (const [field, t] of Object.entries(truth)) {
    const p = result.fields[field as keyof InvoiceExtraction['fields']]?.value;
    if (t === undefined) {
      if (p !== undefined) {
        add(field, { fp: 1 });
        misses.push(`${field}: expected none, got ${JSON.stringify(p)}`);
      } else add(field, {});
    } else if (p === undefined) {
      add(field, { fn: 1 });
      misses.push(`${field}: missing (expected ${JSON.stringify(t)})`);
    } else if (same(p, t)) add(field, { tp: 1 });
    else {
      add(field, { fp: 1, fn: 1 });
      misses.push(`${field}: got ${JSON.stringify(p)}, expected ${JSON.stringify(t)}`);
    }
  }
  const remaining = [...result.lineItems];
  for (const line of data.lines) {
    const i = remaining.findIndex(
      (r) =>
        same(r.description, line.description) &&
        r.quantity === line.quantity &&
        r.unit_price !== undefined &&
        same(r.unit_price, line.unitPrice) &&
        r.amount !== undefined &&
        same(r.amount, line.amount),
    );
    if (i >= 0) {
      remaining.splice(i, 1);
      add('line_items', { tp: 1 });
    } else {
      add('line_items', { fn: 1 });
      misses.push(`line item missing: ${JSON.stringify(line)}`);
    }
  }
  if (remaining.length) {
    add('line_items', { fp: remaining.length });
    misses.push(`extra line items: ${JSON.stringify(remaining)}`);
  }
  return misses;
}

/** Precision, recall and F1 of counts (1 where nothing was expected or predicted). */
export function prf(c: Counts): { precision: number; recall: number; f1: number } {
  const precision = c.tp + c.fp ? c.tp / (c.tp + c.fp) : 1;
  const recall = c.tp + c.fn ? c.tp / (c.tp + c.fn) : 1;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}
