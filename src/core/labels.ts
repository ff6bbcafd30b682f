/** Words a field name spells in capitals ("po" → "PO", "vat" → "VAT"), on the pages and in a job's step output alike. */
const INITIALISMS = new Set(['po', 'vat', 'id', 'iban', 'bic', 'url', 'pdf', 'csv']);

/** `text` with each lower-case word that is an initialism in capitals ("vendor vat id" → "vendor VAT ID"); other words as they are. */
export function capitaliseInitialisms(text: string): string {
  return text.replace(/(?<![A-Za-z])[a-z]+(?![A-Za-z])/g, (w) => (INITIALISMS.has(w) ? w.toUpperCase() : w));
}
