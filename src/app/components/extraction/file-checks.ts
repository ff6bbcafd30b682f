/** The document kinds both extraction pages accept, as the file picker's `accept`. */
export const DOCUMENT_ACCEPT = '.pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg';
/** The invoice page takes XML e-invoices besides (XRechnung, Peppol UBL, Factur-X / ZUGFeRD CII). */
export const INVOICE_ACCEPT = `${DOCUMENT_ACCEPT},.xml,application/xml,text/xml`;

/** The largest file the pages send: the server's default MAX_UPLOAD_MB (it checks again). */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

export const WRONG_TYPE_MESSAGE = 'This file type is not supported: choose a PDF, PNG or JPEG file.';
export const INVOICE_WRONG_TYPE_MESSAGE = 'This file type is not supported: choose a PDF, PNG or JPEG file, or an XML e-invoice.';
export const EMPTY_FILE_MESSAGE = 'The chosen file is empty: choose a PDF, PNG or JPEG file with content.';
export const TOO_LARGE_MESSAGE = `The file is larger than the ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB limit.`;

const TYPES = ['application/pdf', 'image/png', 'image/jpeg'];
const XML_TYPES = ['application/xml', 'text/xml'];

/**
 * Why a chosen file cannot be sent, or undefined when it may be: checked before the upload so
 * the page answers at once; the server decides the type by content and checks again.
 * `eInvoices` also takes XML files (the invoice page).
 */
export function checkDocumentFile(file: File, maxBytes = MAX_DOCUMENT_BYTES, eInvoices = false): string | undefined {
  const byName = (eInvoices ? /\.(pdf|png|jpe?g|xml)$/i : /\.(pdf|png|jpe?g)$/i).test(file.name);
  const byType = TYPES.includes(file.type) || (eInvoices && XML_TYPES.includes(file.type));
  if (!byName && !byType) return eInvoices ? INVOICE_WRONG_TYPE_MESSAGE : WRONG_TYPE_MESSAGE;
  if (file.size === 0) return EMPTY_FILE_MESSAGE;
  if (file.size > maxBytes) return TOO_LARGE_MESSAGE;
  return undefined;
}
