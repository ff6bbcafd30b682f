import { newId, type SandboxAccount, type SandboxContact, type SandboxInvoice, type SandboxLineItem } from './sandbox-state';

/**
 * The sandbox's Xero accounting model for POST /Invoices, after Xero's Invoices, LineItems,
 * TaxRates and rounding references: line amounts Exclusive, Inclusive or NoTax of tax (Exclusive
 * when not given), LineAmount = Quantity × UnitAmount to the cent, tax per line from the line's
 * TaxType rate unless a TaxAmount is given (then that amount), rounded per line, and the totals
 * summed from the lines (a SubTotal / TotalTax / Total sent in the request is not used).
 */

/** The sandbox organisation: a UK company, base currency GBP, with Xero's UK VAT rates. */
export const BASE_CURRENCY = 'GBP';

export interface SandboxTaxRate {
  Name: string;
  TaxType: string;
  ReportTaxType: string;
  Status: 'ACTIVE';
  EffectiveRate: number;
  DisplayTaxRate: number;
  CanApplyToExpenses: boolean;
  CanApplyToRevenue: boolean;
  TaxComponents: Array<{ Name: string; Rate: number; IsCompound: boolean; IsNonRecoverable: boolean }>;
}

function rate(TaxType: string, Name: string, pct: number, side: 'INPUT' | 'OUTPUT' | 'BOTH'): SandboxTaxRate {
  return {
    Name,
    TaxType,
    ReportTaxType: side === 'BOTH' ? 'NONE' : side,
    Status: 'ACTIVE',
    EffectiveRate: pct,
    DisplayTaxRate: pct,
    CanApplyToExpenses: side !== 'OUTPUT',
    CanApplyToRevenue: side !== 'INPUT',
    TaxComponents: [{ Name: 'VAT', Rate: pct, IsCompound: false, IsNonRecoverable: false }],
  };
}

export const TAX_RATES: SandboxTaxRate[] = [
  rate('INPUT2', '20% (VAT on Expenses)', 20, 'INPUT'),
  rate('OUTPUT2', '20% (VAT on Income)', 20, 'OUTPUT'),
  rate('RRINPUT', '5% (VAT on Expenses)', 5, 'INPUT'),
  rate('RROUTPUT', '5% (VAT on Income)', 5, 'OUTPUT'),
  rate('ZERORATEDINPUT', 'Zero Rated Expenses', 0, 'INPUT'),
  rate('ZERORATEDOUTPUT', 'Zero Rated Income', 0, 'OUTPUT'),
  rate('EXEMPTINPUT', 'Exempt Expenses', 0, 'INPUT'),
  rate('NONE', 'No VAT', 0, 'BOTH'),
];

/** The tax type a line gets when it names none (the default of the sandbox's purchase and sales accounts). */
const DEFAULT_TAX_TYPE = { ACCPAY: 'INPUT2', ACCREC: 'OUTPUT2' } as const;

const cents = (n: number) => Math.round(n * 100);
const money = (c: number) => c / 100;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

type Given = Record<string, any>;

function numberOf(v: unknown): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : NaN;
}

/** One invoice of a POST, checked and computed; `errors` are Xero's validation messages. */
export function buildInvoice(
  inv: Given,
  acc: SandboxAccount,
  opts: { unitdp: 2 | 4 },
): { invoice: SandboxInvoice; errors: string[]; newContact?: SandboxContact } {
  const errors: string[] = [];
  const type = inv.Type === 'ACCPAY' || inv.Type === 'ACCREC' ? (inv.Type as 'ACCPAY' | 'ACCREC') : undefined;
  if (!type) errors.push('Invoice Type must be specified (ACCPAY or ACCREC).');
  let contact = acc.contacts.find(
    (c) =>
      (inv.Contact?.ContactID && c.ContactID === inv.Contact.ContactID) ||
      (!inv.Contact?.ContactID && inv.Contact?.Name && c.Name.toLowerCase() === String(inv.Contact.Name).toLowerCase()),
  );
  let newContact: SandboxContact | undefined;
  if (!contact && !inv.Contact?.ContactID && typeof inv.Contact?.Name === 'string' && inv.Contact.Name.trim())
    contact = newContact = { ContactID: newId('contact_'), Name: inv.Contact.Name.trim() };
  if (!contact) errors.push(inv.Contact?.ContactID ? 'The contact could not be found.' : 'A Contact must be specified for this type of transaction.');
  const amountTypes = inv.LineAmountTypes ?? 'Exclusive';
  if (!['Exclusive', 'Inclusive', 'NoTax'].includes(amountTypes))
    errors.push(`'${String(amountTypes)}' is not a valid LineAmountTypes value (Exclusive, Inclusive or NoTax).`);
  for (const [k, v] of [
    ['Date', inv.Date],
    ['DueDate', inv.DueDate],
  ] as const)
    if (v !== undefined && !(typeof v === 'string' && DATE.test(v) && !Number.isNaN(Date.parse(v)))) errors.push(`${k} must be a date (YYYY-MM-DD).`);
  if (inv.CurrencyCode !== undefined && !(typeof inv.CurrencyCode === 'string' && /^[A-Z]{3}$/.test(inv.CurrencyCode)))
    errors.push('The currency code is not valid.');
  const status = inv.Status ?? 'DRAFT';
  if (!['DRAFT', 'SUBMITTED', 'AUTHORISED'].includes(status)) errors.push(`'${String(status)}' is not a valid Status for a new invoice.`);
  const given: Given[] = Array.isArray(inv.LineItems) ? inv.LineItems : [];
  if (!given.length) errors.push('At least one line item must be specified.');
  const lines: SandboxLineItem[] = given.map((l, i) => {
    const n = i + 1;
    const description = typeof l.Description === 'string' ? l.Description : '';
    if (!description.trim()) errors.push(`Line ${n}: Description needs to be at least 1 character long.`);
    let q = numberOf(l.Quantity);
    let u = numberOf(l.UnitAmount);
    const la = numberOf(l.LineAmount);
    const t = numberOf(l.TaxAmount);
    if ([q, u, la, t].some((x) => Number.isNaN(x))) errors.push(`Line ${n}: amounts must be numbers.`);
    if (u !== undefined) u = Math.round(u * 10 ** opts.unitdp) / 10 ** opts.unitdp;
    if (q === undefined) q = 1;
    if (u === undefined) u = la !== undefined ? la / q : 0;
    const lineCents = cents(q * u);
    if (la !== undefined && cents(la) !== lineCents)
      errors.push(`Line ${n}: the line total ${la.toFixed(2)} does not match the expected line total ${money(lineCents).toFixed(2)}.`);
    let taxType = typeof l.TaxType === 'string' && l.TaxType ? l.TaxType : amountTypes === 'NoTax' ? 'NONE' : DEFAULT_TAX_TYPE[type ?? 'ACCPAY'];
    const taxRate = TAX_RATES.find((r) => r.TaxType === taxType);
    if (!taxRate || (type === 'ACCPAY' && !taxRate.CanApplyToExpenses) || (type === 'ACCREC' && !taxRate.CanApplyToRevenue))
      errors.push(`Line ${n}: the TaxType code '${taxType}' does not exist or cannot be used with this type of transaction.`);
    let taxCents: number;
    if (amountTypes === 'NoTax') {
      taxType = 'NONE';
      taxCents = 0;
    } else if (t !== undefined && !Number.isNaN(t)) {
      taxCents = cents(t);
    } else {
      const r = (taxRate?.EffectiveRate ?? 0) / 100;
      taxCents = Math.round(amountTypes === 'Inclusive' ? (lineCents * r) / (1 + r) : lineCents * r);
    }
    return {
      LineItemID: newId('line_'),
      Description: description,
      Quantity: q,
      UnitAmount: u,
      LineAmount: money(lineCents),
      ...(l.AccountCode ? { AccountCode: String(l.AccountCode) } : {}),
      TaxType: taxType,
      TaxAmount: money(taxCents),
    };
  });
  const lineSum = lines.reduce((n, l) => n + cents(l.LineAmount), 0);
  const taxSum = lines.reduce((n, l) => n + cents(l.TaxAmount), 0);
  const subTotal = amountTypes === 'Inclusive' ? lineSum - taxSum : lineSum;
  const invoice: SandboxInvoice = {
    InvoiceID: newId('inv_'),
    Type: type ?? String(inv.Type),
    Status: status,
    ...(typeof inv.InvoiceNumber === 'string' && inv.InvoiceNumber ? { InvoiceNumber: inv.InvoiceNumber } : {}),
    // Reference is a sales-invoice (ACCREC) field; on a bill Xero shows the InvoiceNumber as its reference
    ...(type === 'ACCREC' && typeof inv.Reference === 'string' ? { Reference: inv.Reference } : {}),
    Contact: contact ?? { ContactID: '', Name: '' },
    ...(inv.Date ? { Date: inv.Date } : {}),
    ...(inv.DueDate ? { DueDate: inv.DueDate } : {}),
    CurrencyCode: inv.CurrencyCode ?? BASE_CURRENCY,
    LineAmountTypes: amountTypes,
    LineItems: lines,
    SubTotal: money(subTotal),
    TotalTax: money(taxSum),
    Total: money(subTotal + taxSum),
    UpdatedDateUTC: new Date().toISOString(),
  };
  return { invoice, errors, newContact };
}

/** An invoice as the API answers it: dates also in Xero's "/Date(ms+0000)/" form with DateString. */
export function wireInvoice(i: SandboxInvoice): Record<string, unknown> {
  const msDate = (d: string) => `/Date(${Date.parse(`${d}T00:00:00Z`)}+0000)/`;
  return {
    ...i,
    ...(i.Date ? { Date: msDate(i.Date), DateString: `${i.Date}T00:00:00` } : {}),
    ...(i.DueDate ? { DueDate: msDate(i.DueDate), DueDateString: `${i.DueDate}T00:00:00` } : {}),
    AmountDue: i.Total,
    AmountPaid: 0,
    HasErrors: false,
    UpdatedDateUTC: `/Date(${Date.parse(i.UpdatedDateUTC)}+0000)/`,
  };
}

/** Xero's reply to a request with validation errors (HTTP 400): each element with its messages. */
export function validationReply(elements: Array<{ invoice: SandboxInvoice; errors: string[] }>) {
  return {
    ErrorNumber: 10,
    Type: 'ValidationException',
    Message: 'A validation exception occurred',
    Elements: elements.map((e) => ({ ...wireInvoice(e.invoice), HasErrors: e.errors.length > 0, ValidationErrors: e.errors.map((Message) => ({ Message })) })),
  };
}
