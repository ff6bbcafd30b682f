/** The invoice fields the extractor returns (besides line items). */
export const INVOICE_FIELDS = [
  'invoice_number', 'invoice_date', 'due_date', 'vendor_name', 'vendor_address', 'customer_name',
  'customer_address', 'po_number', 'subtotal', 'tax', 'total', 'currency', 'payment_terms',
] as const;
export type InvoiceFieldName = (typeof INVOICE_FIELDS)[number];

export type ValueKind = 'id' | 'date' | 'amount' | 'text' | 'party' | 'currency';

/** A label an invoice field is announced by, with how strongly it points at the field. */
export interface LabelSpec {
  field: InvoiceFieldName;
  kind: ValueKind;
  pattern: RegExp;
  weight: number;
}

// Patterns match at the start of a phrase, case-insensitively; a trailing ':', '#', '.' is allowed.
const L = (field: InvoiceFieldName, kind: ValueKind, weight: number, source: string): LabelSpec => ({
  field,
  kind,
  weight,
  // The label ends at a separator or a word boundary, but not inside a value such as "PO-1234".
  pattern: new RegExp(`^(?:${source})(?:\\s*[:#.]|\\b(?![-/]\\w))`, 'i'),
});

/**
 * Label synonyms seen on real invoices, most specific first (the longest matching label wins,
 * so "Total Tax" is tax and "Sub Total" is not the total).
 */
export const LABELS: LabelSpec[] = [
  L('invoice_number', 'id', 1, '(?:tax\\s+)?invoice\\s*(?:no\\.?|number|num\\.?|nr\\.?|#|id|ref(?:erence)?)|inv\\.?\\s*(?:no\\.?|number|#|nr\\.?)|invoice\\s*#|bill\\s*(?:no\\.?|number|#)|document\\s*(?:no\\.?|number)|reference\\s*(?:no\\.?|number)?'),
  L('po_number', 'id', 1, 'p\\.?\\s?o\\.?\\s*(?:no\\.?|number|#|num\\.?|ref(?:erence)?)?|purchase\\s*order(?:\\s*(?:no\\.?|number|#|ref(?:erence)?))?|order\\s*(?:no\\.?|number|#)|your\\s*(?:order|ref(?:erence)?)'),
  L('invoice_date', 'date', 1, 'invoice\\s*date|date\\s*of\\s*(?:issue|invoice)|issue\\s*date|issued(?:\\s*on)?|date\\s*issued|bill(?:ing)?\\s*date|invoice\\s*dt'),
  L('invoice_date', 'date', 0.8, 'date'),
  L('due_date', 'date', 1, 'due\\s*date|payment\\s*due(?:\\s*date)?|due\\s*(?:by|on)|date\\s*due|pay(?:ment)?\\s*by|payable\\s*by'),
  L('subtotal', 'amount', 1, 'sub[\\s-]?total|net\\s*(?:amount|total|value)|total\\s*net|total\\s*(?:excl\\.?|excluding|before)\\s*(?:vat|tax|gst)|amount\\s*before\\s*tax|taxable\\s*amount'),
  L('tax', 'amount', 1, '(?:total\\s*)?(?:sales\\s*)?(?:tax|vat|gst|hst|pst|iva|mwst)(?:\\s*\\(?@?\\s*\\d+(?:[.,]\\d+)?\\s*%\\)?)?(?!\\s*(?:id|no\\.?|number|reg|registration|#|exempt|rate\\s*:))(?:\\s*amount)?'),
  L('total', 'amount', 1, 'grand\\s*total|total\\s*(?:amount\\s*)?(?:due|payable)|amount\\s*(?:due|payable)|balance\\s*(?:due|payable)?|invoice\\s*total|total\\s*(?:incl\\.?|including|inc\\.?)\\s*(?:vat|tax|gst)|please\\s*pay|total\\s*(?:amount|usd|eur|gbp)?'),
  L('currency', 'currency', 1, 'currency'),
  L('payment_terms', 'text', 1, 'payment\\s*terms|terms\\s*(?:of\\s*payment)?|payment\\s*conditions|terms\\s*&\\s*conditions'),
  L('vendor_name', 'party', 1, 'from|vendor|supplier|seller|sold\\s*by|billed\\s*by|bill\\s*from|remit\\s*to|pay\\s*to|issued\\s*by'),
  L('customer_name', 'party', 1, 'bill(?:ed)?\\s*to|invoice\\s*to|sold\\s*to|customer(?:\\s*name)?|client(?:\\s*name)?|buyer|to'),
  L('customer_name', 'party', 0.5, 'ship(?:ped)?\\s*to|deliver(?:y|ed)?\\s*to'),
];

/** The longest label at the start of a phrase's text, with the text that follows it. */
export function matchLabel(text: string): { spec: LabelSpec; rest: string; length: number } | undefined {
  let best: { spec: LabelSpec; rest: string; length: number } | undefined;
  for (const spec of LABELS) {
    const m = spec.pattern.exec(text);
    if (!m) continue;
    const length = m[0].length;
    if (!best || length > best.length || (length === best.length && spec.weight > best.spec.weight)) {
      best = { spec, rest: text.slice(length).replace(/^[\s:#.\-–]+/, '').trim(), length };
    }
  }
  return best;
}

/** Words that title a document rather than name its sender. */
export const TITLE_WORDS = /^(?:tax\s+)?(?:invoice|bill|receipt|statement|credit\s*note|pro\s*forma(?:\s*invoice)?|quotation|quote)$/i;

/** Line-item table header words by column role. */
export const COLUMN_HEADERS: { role: 'description' | 'quantity' | 'unit_price' | 'amount'; pattern: RegExp }[] = [
  { role: 'description', pattern: /^(?:description|item(?:\s*description)?|product|service|details|particulars|article|items?\s*&\s*description)$/i },
  { role: 'quantity', pattern: /^(?:qty\.?|quantity|hours|hrs\.?|units|no\.\s*of\s*units|q'?ty)$/i },
  { role: 'unit_price', pattern: /^(?:unit\s*price|price|rate|unit\s*cost|price\s*per\s*unit|each|unit\s*rate|hourly\s*rate|cost)$/i },
  { role: 'amount', pattern: /^(?:amount|total|line\s*total|net\s*amount|ext\.?\s*price|extended|subtotal|value|sum)$/i },
];
