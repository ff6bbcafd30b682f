/** Words a field name spells in capitals when written in lower case ("po_number" → "PO number"). */
const INITIALISMS = new Set(['po', 'vat', 'id', 'iban', 'bic', 'url', 'pdf', 'csv']);

/**
 * A field name as the pages show it (spec section 2): underscores turned into spaces, runs of
 * spaces collapsed, initialisms in capitals and the first letter capitalised ("invoice_number" →
 * "Invoice number", "vendor_vat_id" → "Vendor VAT ID").
 */
export function humaniseLabel(label: string): string {
  const spaced = label
    .replace(/_+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\b[a-z]+\b/g, (w) => (INITIALISMS.has(w) ? w.toUpperCase() : w));
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
