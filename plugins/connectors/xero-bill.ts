import { invoiceWarnings, record } from './sheet-mapping';

/**
 * An extracted invoice as a Xero draft bill (Invoices: Type ACCPAY, Status DRAFT), with totals
 * equal to the invoice's to the cent. Amounts are worked in whole cents. What cannot be right is
 * refused (no bill), what is missing or derived is written with a warning.
 */

/** A tax rate of the organisation, as GET /TaxRates lists it (the fields used here). */
export interface XeroTaxRate {
  TaxType: string;
  Name?: string;
  EffectiveRate: number;
  Status?: string;
  CanApplyToExpenses?: boolean;
}

export interface BillLine {
  Description: string;
  Quantity: number;
  UnitAmount: number;
  TaxType?: string;
  TaxAmount?: number;
  AccountCode?: string;
}

export interface DraftBill {
  Type: 'ACCPAY';
  Status: 'DRAFT';
  InvoiceNumber?: string;
  Date?: string;
  DueDate?: string;
  CurrencyCode?: string;
  LineAmountTypes: 'Exclusive' | 'Inclusive' | 'NoTax';
  LineItems: BillLine[];
}

export type BillOutcome =
  | { ok: true; file: string; vendor: string; bill: DraftBill; expected: { SubTotal: number; TotalTax: number; Total: number }; warnings: string[] }
  | { ok: false; file: string; reason: string };

export interface BillOptions {
  /** the organisation's tax rates; undefined when they could not be read */
  taxRates?: XeroTaxRate[];
  /** why the tax rates are unknown (a warning when the bill has tax) */
  taxRatesNote?: string;
  accountCode?: string;
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const centsOf = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v * 100) : undefined);
export const fmt = (c: number) => (c / 100).toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Splits `total` cents over `weights` in proportion, to the cent, summing exactly to `total`. */
export function allocate(total: number, weights: number[]): number[] {
  const sum = weights.reduce((n, w) => n + w, 0);
  if (!sum) return weights.map((_, i) => (i === 0 ? total : 0));
  const raw = weights.map((w) => (total * w) / sum);
  const out = raw.map(Math.floor);
  let left = total - out.reduce((n, x) => n + x, 0);
  const order = raw.map((r, i) => [r - Math.floor(r), i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of order) {
    if (left <= 0) break;
    out[i] += 1;
    left -= 1;
  }
  return out;
}

interface Line {
  description: string;
  quantity: number;
  unit?: number;
  cents: number;
}

/** The invoice's line items with an amount each; undefined when a line has none. */
function linesOf(items: unknown): Line[] | undefined {
  if (!Array.isArray(items) || !items.length) return [];
  const out: Line[] = [];
  for (const l of items.map(record)) {
    const quantity = typeof l.quantity === 'number' && l.quantity > 0 ? l.quantity : 1;
    const unit = typeof l.unit_price === 'number' ? l.unit_price : undefined;
    const amount = centsOf(l.amount) ?? (unit !== undefined ? Math.round(quantity * unit * 100) : undefined);
    if (amount === undefined) return undefined;
    out.push({ description: text(l.description)?.slice(0, 4000) ?? 'Item', quantity, unit, cents: amount });
  }
  return out;
}

/** Quantity and unit amount (4 decimals) whose product is the line amount to the cent, as Xero checks it. */
function quantityAndUnit(l: Line, warnings: string[]): { Quantity: number; UnitAmount: number } {
  const fits = (q: number, u: number) => Math.round(q * u * 100) === l.cents;
  if (l.unit !== undefined && fits(l.quantity, l.unit)) return { Quantity: l.quantity, UnitAmount: l.unit };
  const unit = Math.round((l.cents / 100 / l.quantity) * 10000) / 10000;
  if (fits(l.quantity, unit)) {
    if (l.unit !== undefined)
      warnings.push(`Line "${l.description}": ${l.quantity} × ${l.unit} is not its amount ${fmt(l.cents)}; its unit amount is written as ${unit}.`);
    return { Quantity: l.quantity, UnitAmount: unit };
  }
  warnings.push(`Line "${l.description}": no unit amount times ${l.quantity} makes its amount ${fmt(l.cents)}; it is written as 1 × ${fmt(l.cents)}.`);
  return { Quantity: 1, UnitAmount: l.cents / 100 };
}

/** The organisation's purchase tax rate that gives this tax on this subtotal (per-line rounding allowed for). */
function matchingRate(rates: XeroTaxRate[], subtotal: number, tax: number, lines: number): XeroTaxRate | undefined {
  const usable = rates.filter((r) => (r.Status ?? 'ACTIVE') === 'ACTIVE' && r.CanApplyToExpenses !== false && r.EffectiveRate > 0);
  const tolerance = Math.max(1, lines);
  return usable
    .map((r) => ({ r, off: Math.abs(Math.round((subtotal * r.EffectiveRate) / 100) - tax) }))
    .filter((x) => x.off <= tolerance)
    .sort((a, b) => a.off - b.off)[0]?.r;
}

/**
 * The draft bill of one extracted invoice document. Refused (no bill): no supplier name, no
 * total, subtotal + tax not equal to the total, negative amounts. Written with a warning: tax or
 * subtotal derived from the others, line items that do not add up (one line for the subtotal
 * instead), no invoice number, dates or currency, a due date before the invoice date, a tax
 * rate the organisation lacks, low-confidence fields. Tax-exclusive lines (they add up to the
 * subtotal) are sent Exclusive, tax-inclusive lines (they add up to the total) Inclusive, an
 * invoice without tax NoTax; each taxed line carries its TaxAmount, so the bill's SubTotal,
 * TotalTax and Total are the invoice's.
 */
export function billOfInvoice(doc: Record<string, unknown>, opts: BillOptions = {}): BillOutcome {
  const file = text(doc.name) ?? 'the invoice';
  const f = record(doc.fields);
  const refuse = (reason: string): BillOutcome => ({ ok: false, file, reason });
  const vendor = text(f.vendor_name);
  if (!vendor) return refuse("the supplier's name was not found on the invoice, so the bill would have no contact");
  const total = centsOf(f.total);
  if (total === undefined) return refuse('no total was found on the invoice');
  if (total <= 0) return refuse(`its total is ${fmt(total)}; a bill needs a total above zero`);
  const warnings = invoiceWarnings(doc);
  let subtotal = centsOf(f.subtotal);
  let tax = centsOf(f.tax);
  const lines = linesOf(doc.lineItems);
  const lineSum = lines?.reduce((n, l) => n + l.cents, 0);
  if (subtotal !== undefined && tax !== undefined) {
    if (subtotal + tax !== total) return refuse(`its subtotal ${fmt(subtotal)} plus tax ${fmt(tax)} is ${fmt(subtotal + tax)}, not its total ${fmt(total)}`);
  } else if (subtotal !== undefined) {
    tax = total - subtotal;
    warnings.push(`The tax was taken as the total minus the subtotal: ${fmt(tax)}.`);
  } else if (tax !== undefined) {
    subtotal = total - tax;
    warnings.push(`The subtotal was taken as the total minus the tax: ${fmt(subtotal)}.`);
  } else if (lineSum !== undefined && lineSum > 0 && lineSum < total) {
    subtotal = lineSum;
    tax = total - lineSum;
    warnings.push(`The tax was taken as the total minus the line items: ${fmt(tax)}.`);
  } else {
    subtotal = total;
    tax = 0;
    warnings.push(`The bill carries no tax (its total is ${fmt(total)}): check whether VAT applies.`);
  }
  if (subtotal < 0 || tax < 0) return refuse(`its subtotal ${fmt(subtotal)} and tax ${fmt(tax)} cannot both be right for a total of ${fmt(total)}`);

  let mode: DraftBill['LineAmountTypes'] = tax === 0 ? 'NoTax' : 'Exclusive';
  let used: Line[];
  if (lines && lines.length && lineSum === subtotal) used = lines;
  else if (lines && lines.length && tax > 0 && lineSum === total) {
    used = lines;
    mode = 'Inclusive';
  } else {
    if (lines === undefined) warnings.push('A line item has no amount, so the bill has one line for the subtotal: add the lines in Xero from the invoice.');
    else if (lines.length)
      warnings.push(
        `The ${lines.length} line items read add up to ${fmt(lineSum!)}, which is neither the subtotal ${fmt(subtotal)} nor the total ${fmt(total)}: the bill has one line for the subtotal; add the lines in Xero from the invoice.`,
      );
    const number = text(f.invoice_number);
    used = [{ description: number ? `Invoice ${number}` : `Invoice from ${vendor}`, quantity: 1, unit: subtotal / 100, cents: subtotal }];
  }

  let taxes: number[] = used.map(() => 0);
  let taxType: string | undefined;
  if (mode !== 'NoTax') {
    const rate = opts.taxRates ? matchingRate(opts.taxRates, subtotal, tax, used.length) : undefined;
    const pct = ((tax / subtotal) * 100).toFixed(2).replace(/\.?0+$/, '');
    if (rate) {
      taxType = rate.TaxType;
      const r = rate.EffectiveRate / 100;
      const computed = used.map((l) => Math.round(mode === 'Inclusive' ? (l.cents * r) / (1 + r) : l.cents * r));
      taxes =
        computed.reduce((n, x) => n + x, 0) === tax
          ? computed
          : allocate(
              tax,
              used.map((l) => l.cents),
            );
    } else {
      taxes = allocate(
        tax,
        used.map((l) => l.cents),
      );
      warnings.push(
        opts.taxRates
          ? `The tax is ${pct}% of the subtotal, which is none of your Xero organisation's purchase tax rates: the lines carry the invoice's tax amounts under Xero's default tax rate; check the tax rate in Xero.`
          : `${opts.taxRatesNote ?? "Xero's tax rates could not be read"}: the lines carry the invoice's tax amounts under Xero's default tax rate; check the tax rate in Xero.`,
      );
    }
  }

  const LineItems: BillLine[] = used.map((l, i) => ({
    Description: l.description,
    ...quantityAndUnit(l, warnings),
    ...(taxType ? { TaxType: taxType } : {}),
    ...(mode !== 'NoTax' ? { TaxAmount: taxes[i] / 100 } : {}),
    ...(opts.accountCode ? { AccountCode: opts.accountCode } : {}),
  }));

  const number = text(f.invoice_number);
  const date = text(f.invoice_date);
  const due = text(f.due_date);
  const currency = text(f.currency)?.toUpperCase();
  const iso = (d: string | undefined) => (d && /^\d{4}-\d{2}-\d{2}$/.test(d) ? d : undefined);
  if (date && !iso(date)) warnings.push(`The invoice date "${date}" is not a date Xero takes: the bill has none; set it in Xero.`);
  if (due && !iso(due)) warnings.push(`The due date "${due}" is not a date Xero takes: the bill has none; set it in Xero.`);
  if (iso(date) && iso(due) && due! < date!)
    warnings.push(`The due date ${due} is before the invoice date ${date}: check both (a date may have been read month-first).`);
  if (currency && !/^[A-Z]{3}$/.test(currency))
    warnings.push(`The currency "${currency}" is not a currency code: the bill is in your organisation's base currency; check it.`);
  else if (!currency) warnings.push("The bill is in your organisation's base currency, as the invoice's currency was not found: check it.");
  const bill: DraftBill = {
    Type: 'ACCPAY',
    Status: 'DRAFT',
    ...(number ? { InvoiceNumber: number.slice(0, 255) } : {}),
    ...(iso(date) ? { Date: date } : {}),
    ...(iso(due) ? { DueDate: due } : {}),
    ...(currency && /^[A-Z]{3}$/.test(currency) ? { CurrencyCode: currency } : {}),
    LineAmountTypes: mode,
    LineItems,
  };
  return { ok: true, file, vendor, bill, expected: { SubTotal: subtotal / 100, TotalTax: tax / 100, Total: total / 100 }, warnings };
}
