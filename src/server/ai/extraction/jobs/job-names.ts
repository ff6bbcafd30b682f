/** The queue's name for a document extraction job (workflow 10006: label/result fields). */
export const DOCUMENT_EXTRACTION_JOB = 'document-extraction.extract';

/** The queue's name for an invoice extraction job (workflow 10004: invoice fields and line items). */
export const INVOICE_EXTRACTION_JOB = 'invoice-extraction.extract';
