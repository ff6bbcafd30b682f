import { AI_PROVIDER, extractionAction, type InvoiceFields, type StoredDocumentExtractor } from '../../src/server';
import { INVOICE_FIELD_ORDER, type InvoiceExtraction } from './invoice-reply';

/** An invoice as the engine's steps pass it on: field values by name, their confidence, line items and warnings. */
export interface InvoiceStepResult {
  /** every invoice field, null when not found: dates YYYY-MM-DD, amounts as numbers */
  fields: Record<string, string | number | null>;
  /** 0..1 per found field */
  confidence: Record<string, number>;
  lineItems: InvoiceExtraction['lineItems'];
  warnings: string[];
}

/** Flattens the extractor's result into the values later steps (Sheets, Xero, e-mail) read. */
export function invoiceStepResult(result: InvoiceExtraction): InvoiceStepResult {
  const fields: Record<string, string | number | null> = {};
  const confidence: Record<string, number> = {};
  for (const name of INVOICE_FIELD_ORDER) {
    const f = result.fields[name];
    fields[name] = f ? f.value : null;
    if (f) confidence[name] = f.confidence;
  }
  return { fields, confidence, lineItems: result.lineItems, warnings: result.warnings };
}

/**
 * flowmatic_ai:extract_invoice_fields: reads each invoice the run brought (upload, e-mail
 * attachment, Drive download) and returns its fields, line items and warnings.
 */
export function invoiceExtractionSteps(extractor: StoredDocumentExtractor<InvoiceFields>) {
  return [
    extractionAction({
      provider: AI_PROVIDER,
      action: 'extract_invoice_fields',
      title: 'Extract the invoice fields',
      description: 'Reads each invoice of the run (upload, e-mail attachment, Drive download) and returns its fields, line items and warnings.',
      extractor,
      shape: (result) => invoiceStepResult(result as InvoiceExtraction),
    }),
  ];
}
