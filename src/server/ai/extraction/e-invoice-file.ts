import { DocumentReadError, readInWorker } from '../pdf/errors';
import { MAX_E_INVOICE_BYTES, MAX_XML_DEPTH, readEInvoice, xmlDepth, type EInvoice } from './e-invoice';

/**
 * An XML e-invoice uploaded as the file itself (an XRechnung, a Peppol UBL invoice, a Factur-X
 * CII file without its PDF): read in a bounded worker like a PDF, so a file built to be slow to
 * parse costs at most its budget and never blocks the request thread.
 */

/** The sentence for XML that is not one of the e-invoice standards the reader knows. */
export const NOT_AN_E_INVOICE_MESSAGE =
  'This XML file is not an e-invoice the reader knows: it reads UBL invoices and credit notes (Peppol, XRechnung) and UN/CEFACT Cross Industry Invoices (XRechnung, Factur-X, ZUGFeRD).';

/** The worker's side: the bytes as UTF-8 XML, read as an e-invoice, or a DocumentReadError saying why not. */
export function readEInvoiceFileTask(input: { bytes: Uint8Array; name: string }): EInvoice {
  if (input.bytes.length === 0) throw new DocumentReadError('The file is empty.', 'empty');
  if (input.bytes.length > MAX_E_INVOICE_BYTES) {
    throw new DocumentReadError(`This XML file is larger than ${MAX_E_INVOICE_BYTES / (1024 * 1024)} MB, more than an e-invoice is read at.`, 'too-large');
  }
  let xml: string;
  try {
    xml = new TextDecoder('utf-8', { fatal: true }).decode(input.bytes);
  } catch {
    throw new DocumentReadError('This XML file is not UTF-8 text; save it again as UTF-8.', 'unsupported');
  }
  const read = readEInvoice(xml, input.name, { withPdf: true });
  if (read) return read;
  // readEInvoice refuses XML nested too deep before parsing it; say so rather than "not an e-invoice"
  if (xmlDepth(xml) > MAX_XML_DEPTH) {
    throw new DocumentReadError(`This XML file nests its elements more than ${MAX_XML_DEPTH} levels deep, far deeper than an e-invoice does.`, 'unsupported');
  }
  throw new DocumentReadError(NOT_AN_E_INVOICE_MESSAGE, 'unsupported');
}

/** Reads an uploaded XML e-invoice in a bounded worker. Refusals are DocumentReadErrors with a sentence about the file. */
export function readEInvoiceFile(bytes: Uint8Array, name: string): Promise<EInvoice> {
  return readInWorker<EInvoice>(
    __filename,
    'readEInvoiceFileTask',
    { bytes, name },
    { time: 'This XML file takes longer to read than an upload may take.', memory: 'This XML file needs more memory to read than an upload may use.' },
    // the KoSIT suite's largest file (240 kB) reads in well under a second
    { timeoutMs: 10_000 },
  );
}
