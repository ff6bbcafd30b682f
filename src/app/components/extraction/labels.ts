import { capitaliseInitialisms } from '../../../core/labels';

/**
 * A field name as the pages show it (spec section 2): underscores turned into spaces, runs of
 * spaces collapsed, initialisms in capitals and the first letter capitalised ("invoice_number" →
 * "Invoice number", "vendor_vat_id" → "Vendor VAT ID").
 */
export function humaniseLabel(label: string): string {
  const spaced = capitaliseInitialisms(label.replace(/_+/g, ' ').replace(/\s+/g, ' ').trim());
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
