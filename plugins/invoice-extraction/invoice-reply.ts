import type { extractInvoice, JobView } from '../../src/server';

export type InvoiceExtraction = ReturnType<typeof extractInvoice>;
type FieldName = keyof InvoiceExtraction['fields'];

/** Every invoice field the page lists, in reading order (a missing one is shown as not found). */
export const INVOICE_FIELD_ORDER: readonly FieldName[] = [
  'invoice_number',
  'invoice_date',
  'due_date',
  'vendor_name',
  'vendor_address',
  'customer_name',
  'customer_address',
  'po_number',
  'subtotal',
  'tax',
  'total',
  'currency',
  'payment_terms',
];

/**
 * Fields listed only when the reader found them, each after the field it belongs with: a VAT id
 * is printed on many invoices but not on all, so "not found" would mostly be noise.
 */
export const INVOICE_FIELDS_WHEN_FOUND: ReadonlyArray<[FieldName, FieldName]> = [
  ['vendor_vat_id', 'vendor_address'],
  ['customer_vat_id', 'customer_address'],
];

/** One field of the reply: its value (null when not found) and how sure the reader is (0..1). */
export interface InvoiceFieldReply {
  name: FieldName;
  value: string | number | null;
  confidence: number | null;
  /** The text it was read from, when it differs from the value. */
  raw?: string;
}

/** The reply of service/extract_data and the invoice status call once the job has succeeded. */
export interface InvoiceReply {
  Status: 'SUCCEEDED';
  Job_ID: string;
  bucket: string;
  key: string;
  name: string;
  pages: number;
  /** the pages read (fewer than `pages` when the page cap cut a long document) */
  pages_read: number;
  ocr_pages: number[];
  fields: InvoiceFieldReply[];
  line_items: InvoiceExtraction['lineItems'];
  /** Sentences: totals that disagree, a total that was not found. */
  warnings: string[];
  /** Set when the values came from e-invoice data: a PDF's (checked against the page), or the XML file itself (`standalone`). */
  e_invoice?: InvoiceExtraction['eInvoice'];
}

/** The reply while the job runs: its id, progress 0..100 and what it is doing. */
export interface InvoicePending {
  Status: 'IN_PROGRESS';
  Job_ID: string;
  progress: number;
  message: string;
}

/**
 * Turns a succeeded invoice job into the page's reply: every field in INVOICE_FIELD_ORDER
 * (null when the reader did not find it), the VAT ids it found (INVOICE_FIELDS_WHEN_FOUND), the
 * line items and the cross-check warnings.
 */
export function invoiceReply(view: JobView<InvoiceExtraction>): InvoiceReply | InvoicePending {
  if (view.Status === 'IN_PROGRESS' || !view.outcome) {
    return { Status: 'IN_PROGRESS', Job_ID: view.Job_ID, progress: view.progress, message: view.message };
  }
  const { result, name, pages, pagesRead, ocrPages } = view.outcome;
  return {
    Status: 'SUCCEEDED',
    Job_ID: view.Job_ID,
    bucket: view.data.bucket,
    key: view.data.key,
    name,
    pages,
    pages_read: pagesRead ?? pages,
    ocr_pages: ocrPages,
    fields: INVOICE_FIELD_ORDER.flatMap((field) => {
      const extra = INVOICE_FIELDS_WHEN_FOUND.filter(([name, after]) => after === field && result.fields[name]).map(([name]) => name);
      return [field, ...extra].map((name) => {
        const f = result.fields[name];
        return f ? { name, value: f.value, confidence: f.confidence, ...(f.raw !== undefined ? { raw: f.raw } : {}) } : { name, value: null, confidence: null };
      });
    }),
    line_items: result.lineItems,
    warnings: result.warnings,
    ...(result.eInvoice ? { e_invoice: result.eInvoice } : {}),
  };
}
