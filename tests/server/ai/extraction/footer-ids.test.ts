import { extractInvoice } from '../../../../src/server/ai/extraction/invoice';
import { page } from './helpers';

// A German invoice's footer (the Dachdecker-Einkauf dev document of the real corpus): a row of
// headings, the bank's among them, and the VAT id after its own key at the end of the row.
const footer = (row: string) =>
  extractInvoice([
    page([
      [40, 40, 'Dachdecker-Einkauf Süd eG', 14],
      [40, 60, 'Postfach 710252, 68222 Mannheim'],
      [360, 90, 'Rechnungsnummer / Datum'],
      [360, 102, '94165608 / 30.08.2018'],
      [40, 300, 'Summe Positionen'],
      [400, 300, '10,80'],
      [40, 314, 'Mehrwertsteuer 19,00 %'],
      [400, 314, '2,05'],
      [40, 328, 'Endbetrag'],
      [400, 328, '12,85 EUR'],
      [40, 760, row, 7],
    ]),
  ]).fields.vendor_vat_id?.value;

describe("a VAT id in a footer's row of headings", () => {
  it('is read after its own key, though the bank words stand before it in the row', () => {
    expect(footer('Verwaltung Banken BLZ Konto-Nr. BIC IBAN USt-IdNr.: DE 129511151')).toBe('DE129511151');
  });

  it('is still no VAT id when a bank word is the nearest key before it', () => {
    expect(footer('USt-IdNr. siehe oben, Konto-Nr. DE 123 456 789')).toBeUndefined();
    expect(footer('Verwaltung Banken BLZ Konto-Nr. DE 123 456 789')).toBeUndefined();
  });
});
