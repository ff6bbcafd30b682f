import { languageHits, otherLanguage } from '../../../../src/server/ai/ocr/page-language';

const OWN = ['deu', 'eng'];
const OTHERS = ['fra', 'spa', 'ita', 'nld'];

describe('the language of a page read by OCR', () => {
  it('counts each word of a language once, whatever its case', () => {
    expect(languageHits('FACTURA Fecha factura Habitación Habitación 168,30 Saldo')).toEqual({ spa: 4 });
  });

  it("names the page's other language when it has at least three words of its own and more than German", () => {
    expect(otherLanguage('Only YOU FACTURA FECHA Huésped Llegada Salida Habitación Concepto Cargo Abono Saldo', OWN, OTHERS)).toBe('spa');
    expect(otherLanguage('FACTURE N° 12 Montant TTC TVA 20 % Désignation Prix unitaire', OWN, OTHERS)).toBe('fra');
    expect(otherLanguage('Fattura n. 211 Descrizione Quantità Prezzo Importo Totale', OWN, OTHERS)).toBe('ita');
    expect(otherLanguage('Factuur Omschrijving Aantal Prijs Bedrag Totaal excl. BTW', OWN, OTHERS)).toBe('nld');
  });

  it('a folio printed in French and English is French: it is read again in French with English', () => {
    const folio =
      'nom et adresse name & address chambre/ room date d’arrivée/ arrival date tarif/ rate Montant/Amount montant total total amount numéro de compte account no.';
    expect(otherLanguage(folio, OWN, OTHERS)).toBe('fra');
  });

  it('names none for German or English pages, a stray foreign word or two, or a page of numbers', () => {
    expect(otherLanguage('Rechnung Datum Menge Einzelpreis Betrag Summe MwSt netto brutto Vielen Dank', OWN, OTHERS)).toBeUndefined();
    expect(otherLanguage('INVOICE Description Qty Price Amount Subtotal Tax Total due Thank you', OWN, OTHERS)).toBeUndefined();
    expect(otherLanguage('Invoice for the Café du Parc et Bar: amount due 12.50', OWN, OTHERS)).toBeUndefined();
    expect(otherLanguage('12,50 3 x 1,99 4711 0815', OWN, OTHERS)).toBeUndefined();
    // a language not offered is not named
    expect(otherLanguage('Factuur Omschrijving Aantal Prijs Bedrag Totaal', OWN, ['fra', 'spa'])).toBeUndefined();
  });
});
