import { extractInvoice } from '../../../../src/server/ai/extraction/invoice';
import { findLineItems } from '../../../../src/server/ai/extraction/line-items';
import { indexPhrases } from '../../../../src/server/ai/extraction/phrases';
import { page } from './helpers';

type Runs = [number, number, string, number?][];

/** The line items of a document of one or more hand-laid pages, confidences to two places. */
const items = (...pages: Runs[]) =>
  findLineItems(indexPhrases(pages.map((runs, i) => page(runs, i + 1))).lines).items.map(({ confidence, ...rest }) => ({
    ...rest,
    confidence: Math.round(confidence * 100) / 100,
  }));

describe('findLineItems: two price columns, a discount column, a credit note', () => {
  it('reads "Prix unitaire" (over and under the header line) as the unit price and "Prix HT" as the amount, and takes the discount off the unit price', () => {
    expect(
      items([
        [419, 353, 'Prix', 10],
        [154, 359, 'Description', 10],
        [344, 359, 'Quantité', 10],
        [466, 359, 'Rem.', 10],
        [513, 359, 'Prix HT', 10],
        [410, 365, 'unitaire', 10],
        [34, 382, "Nougat de l'Abbaye 250g", 9],
        [340, 382, '5 Unit(s)', 9],
        [425, 382, '4,55 €', 9],
        [476, 382, '10%', 9],
        [520, 382, '-20,48 €', 9],
        [34, 400, "Huile d'olive", 9],
        [330, 400, '10 Liter(s)', 9],
        [420, 400, '19,80 €', 9],
        [516, 400, '-198,00 €', 9],
        [454, 421, 'Total HT', 10],
        [520, 421, '-218,48 €', 10],
      ]),
    ).toEqual([
      // 4,55 less 10 % = 4,095: five of them make the 20,48 credited
      { description: "Nougat de l'Abbaye 250g", quantity: 5, unit_price: 4.095, amount: -20.48, confidence: 1 },
      { description: "Huile d'olive", quantity: 10, unit_price: 19.8, amount: -198, confidence: 1 },
    ]);
  });

  it('keeps the printed unit price when the discount does not make the amount', () => {
    expect(
      items([
        [40, 100, 'Description', 10],
        [250, 100, 'Qty', 10],
        [320, 100, 'Price', 10],
        [400, 100, 'Discount', 10],
        [480, 100, 'Amount', 10],
        [40, 120, 'Cable drum', 10],
        [250, 120, '2', 10],
        [320, 120, '50.00', 10],
        [400, 120, '5%', 10],
        [480, 120, '100.00', 10],
      ]),
    ).toEqual([{ description: 'Cable drum', quantity: 2, unit_price: 50, amount: 100, confidence: 1 }]);
  });
});

describe('findLineItems: gross and net headings', () => {
  it('reads "Bruttopreis" as the unit price and "Bruttobetrag" as the amount, and "Prix unitaire TTC" / "Montant TTC" likewise', () => {
    expect(
      items([
        [40, 100, 'Beschreibung', 10],
        [250, 100, 'Menge', 10],
        [320, 100, 'Bruttopreis', 10],
        [460, 100, 'Bruttobetrag', 10],
        [40, 120, 'Kfz-Versicherung', 10],
        [250, 120, '1', 10],
        [320, 120, '238,00', 10],
        [460, 120, '238,00', 10],
      ]),
    ).toEqual([{ description: 'Kfz-Versicherung', quantity: 1, unit_price: 238, amount: 238, confidence: 1 }]);
    expect(
      items([
        [40, 100, 'Désignation', 10],
        [250, 100, 'Qté', 10],
        [320, 100, 'Prix unitaire TTC', 10],
        [460, 100, 'Montant TTC', 10],
        [40, 120, 'Café moulu 1 kg', 10],
        [250, 120, '3', 10],
        [320, 120, '12,00', 10],
        [460, 120, '36,00', 10],
      ]),
    ).toEqual([{ description: 'Café moulu 1 kg', quantity: 3, unit_price: 12, amount: 36, confidence: 1 }]);
  });
});

describe('findLineItems: a description set half a line over its numbers row', () => {
  it('gives the description to the row it overlaps, even when that row has words of its own in the description column', () => {
    expect(
      items([
        [49, 355, 'Ligne CODE ARTICLE, NOM & DESIGNATION', 7],
        [299, 356, 'P.U. HT', 7],
        [386, 356, 'Qté', 7],
        [476, 356, 'TOTAL HT', 7],
        [125, 379, 'PRESTATION SUPPORT', 7],
        [54, 384, '1', 7],
        [323, 384, '60,00', 7],
        [398, 384, '1,00', 7],
        [497, 384, '60,00', 7],
        [125, 388, 'Période de décembre', 7],
        [125, 405, 'FOURNITURES DIVERSES', 7],
        [54, 410, '2', 7],
        [76, 410, '# ligne BC: 3', 7],
        [323, 410, '10,00', 7],
        [398, 410, '3,00', 7],
        [497, 410, '30,00', 7],
        [125, 414, 'Date début : 01/12/2018', 7],
        [340, 440, 'Total HT', 7],
        [497, 440, '90,00', 7],
      ]),
    ).toEqual([
      // the position numbers stand in the description column here (no column of their own)
      { description: 'PRESTATION SUPPORT 1 Période de décembre', quantity: 1, unit_price: 60, amount: 60, confidence: 1 },
      { description: 'FOURNITURES DIVERSES 2 # ligne BC: 3 Date début : 01/12/2018', quantity: 3, unit_price: 10, amount: 30, confidence: 1 },
    ]);
  });
});

describe('findLineItems: a table that goes on over the page', () => {
  const first: Runs = [
    [40, 40, 'Muster GmbH', 14],
    [40, 200, 'Description', 10],
    [300, 200, 'Menge', 10],
    [380, 200, 'Preis', 10],
    [480, 200, 'Betrag', 10],
    [40, 220, 'Schrauben M6', 10],
    [300, 220, '100', 10],
    [380, 220, '0,10', 10],
    [480, 220, '10,00', 10],
    [40, 234, 'Muttern M6', 10],
    [300, 234, '200', 10],
    [380, 234, '0,05', 10],
    [480, 234, '10,00', 10],
    [450, 800, 'Seite 1 von 2', 8],
  ];
  const second: Runs = [
    [40, 40, 'Muster GmbH', 14],
    [40, 60, 'Rechnung 4711, Seite 2 von 2', 8],
    [40, 100, 'Unterlegscheiben', 10],
    [300, 100, '50', 10],
    [380, 100, '0,02', 10],
    [480, 100, '1,00', 10],
    [40, 114, 'Kabelbinder, schwarz,', 10],
    [300, 114, '10', 10],
    [380, 114, '0,50', 10],
    [480, 114, '5,00', 10],
    [40, 126, '200 mm', 10],
    [380, 160, 'Summe netto', 10],
    [480, 160, '26,00', 10],
  ];

  it('reads the rows on the next page in the same columns, past its letterhead, up to the totals', () => {
    expect(items(first, second)).toEqual([
      { description: 'Schrauben M6', quantity: 100, unit_price: 0.1, amount: 10, confidence: 1 },
      { description: 'Muttern M6', quantity: 200, unit_price: 0.05, amount: 10, confidence: 1 },
      { description: 'Unterlegscheiben', quantity: 50, unit_price: 0.02, amount: 1, confidence: 1 },
      { description: 'Kabelbinder, schwarz, 200 mm', quantity: 10, unit_price: 0.5, amount: 5, confidence: 1 },
    ]);
  });

  it('reads a carried-forward row ("Übertrag") at the foot of one page and the head of the next as no line, and goes on after it', () => {
    const carried: Runs = [...first, [300, 248, 'Übertrag', 10], [480, 248, '20,00', 10]];
    const next: Runs = [second[0], second[1], [300, 84, 'Übertrag', 10], [480, 84, '20,00', 10], ...second.slice(2)];
    expect(items(carried, next).map((i) => [i.description, i.amount])).toEqual([
      ['Schrauben M6', 10],
      ['Muttern M6', 10],
      ['Unterlegscheiben', 1],
      ['Kabelbinder, schwarz, 200 mm', 5],
    ]);
  });

  it('does not go on when the totals are printed under the table on its own page', () => {
    const closed: Runs = [...first, [380, 260, 'Summe netto', 10], [480, 260, '20,00', 10]];
    expect(items(closed, second).map((i) => i.description)).toEqual(['Schrauben M6', 'Muttern M6']);
  });
});

describe('extractInvoice: parties by general layout rules', () => {
  it("reads the sender's address from its return-address line, not from the customer's block under it, and the customer's address under the customer", () => {
    const r = extractInvoice([
      page([
        [71, 128, 'Acme GmbH | Europa-Allee 1980 | 60486 Frankfurt,', 8],
        [71, 149, 'Herr', 10],
        [71, 163, 'Karl E. Coyote', 10],
        [71, 176, 'Uferstraße 113', 10],
        [71, 189, '88045 Friedrichshafen', 10],
        [71, 278, 'Rechnung Nr. 42', 12],
      ]),
    ]);
    expect(r.fields.vendor_name).toEqual({ value: 'Acme GmbH', confidence: 0.85 });
    expect(r.fields.vendor_address).toEqual({ value: 'Europa-Allee 1980, 60486 Frankfurt', confidence: 0.75, raw: 'Europa-Allee 1980\n60486 Frankfurt' });
    expect(r.fields.customer_name).toEqual({ value: 'Karl E. Coyote', confidence: 0.6 });
    expect(r.fields.customer_address).toEqual({
      value: 'Uferstraße 113, 88045 Friedrichshafen',
      confidence: 0.55,
      raw: 'Uferstraße 113\n88045 Friedrichshafen',
    });
  });

  it('takes "Customer:2" for a customer number that heads no block, and finds the customer under the return-address line', () => {
    const r = extractInvoice([
      page([
        [82, 156, 'Bei Spiel GmbH ● Ecke 12 ● 12345 Stadthausen ● Germany', 6],
        [71, 169, 'Theodor Est', 14],
        [71, 198, 'Bahnstr. 42', 12],
        [71, 225, '88802 Spielkreis', 12],
        [57, 310, 'Customer:2', 12],
        [57, 337, 'Your order AB321', 14],
        [60, 396, 'Amount', 12],
        [120, 396, 'Product', 12],
      ]),
    ]);
    expect(r.fields.customer_name).toEqual({ value: 'Theodor Est', confidence: 0.6 });
    expect(r.fields.vendor_name?.value).toBe('Bei Spiel GmbH');
  });

  it('reads a name with an accented letter before "tel" ("Hôtel Saint Denis") as a name, not as a phone line', () => {
    const r = extractInvoice([
      page([
        [31, 93, 'Facture FA-2017-0009', 19],
        [37, 124, 'Bill to', 10],
        [37, 141, 'Hôtel Saint Denis', 10],
        [37, 152, '42 rue du stade', 10],
        [37, 164, '97400 Saint Denis', 10],
      ]),
    ]);
    expect(r.fields.customer_name).toEqual({ value: 'Hôtel Saint Denis', confidence: 0.85 });
    expect(r.fields.customer_address).toEqual({ value: '42 rue du stade, 97400 Saint Denis', confidence: 0.85, raw: '42 rue du stade\n97400 Saint Denis' });
  });
});

describe('extractInvoice: the lines that add up to the subtotal', () => {
  const table: Runs = [
    [40, 40, 'Rechnung Nr. 77 vom 02.03.2026', 12],
    [40, 100, 'Beschreibung', 10],
    [250, 100, 'Menge', 10],
    [320, 100, 'Einzelpreis', 10],
    [460, 100, 'Betrag', 10],
    [40, 120, 'Wartung Heizung', 10],
    [250, 120, '2', 10],
    [320, 120, '50,00', 10],
    [460, 120, '100,00', 10],
  ];
  const totals = (subtotal: string, tax: string, total: string): Runs => [
    [320, 180, 'Summe netto', 10],
    [460, 180, subtotal, 10],
    [320, 194, 'Umsatzsteuer 19%', 10],
    [460, 194, tax, 10],
    [320, 208, 'Gesamtbetrag', 10],
    [460, 208, total, 10],
  ];

  it('reads a row with an amount alone as a line of its own when that makes the subtotal', () => {
    const r = extractInvoice([page([...table, [40, 134, 'Anfahrtspauschale', 10], [460, 134, '20,00', 10], ...totals('120,00', '22,80', '142,80')])]);
    expect(r.lineItems).toEqual([
      { description: 'Wartung Heizung', quantity: 2, unit_price: 50, amount: 100, confidence: 1 },
      { description: 'Anfahrtspauschale', amount: 20, confidence: 0.8 },
    ]);
    expect(r.warnings).toEqual([]);
  });

  it('keeps it a note on the line above when the subtotal leaves it out', () => {
    const r = extractInvoice([page([...table, [40, 134, 'davon Material', 10], [460, 134, '20,00', 10], ...totals('100,00', '19,00', '119,00')])]);
    expect(r.lineItems).toEqual([{ description: 'Wartung Heizung davon Material', quantity: 2, unit_price: 50, amount: 100, confidence: 1 }]);
    expect(r.warnings).toEqual([]);
  });
});

describe('findLineItems: a heading the vocabulary does not know', () => {
  it('keeps the cells under "Periode van - | tot en met" out of the description and the quantity, and reads "Totaalbedrag" as the amount', () => {
    expect(
      items([
        [35, 344, 'Omschrijving', 7],
        [214, 344, 'Periode van -', 7],
        [267, 344, 'tot en met', 7],
        [397, 344, 'Aantal', 7],
        [476, 344, 'Prijs', 7],
        [514, 344, 'Totaalbedrag', 7],
        [35, 363, 'Exact voor Boekhouden', 7],
        [214, 363, '30-04-2016', 7],
        [269, 363, '29-05-2016', 7],
        [407, 363, '1', 7],
        [457, 363, '€', 7],
        [474, 363, '31,00', 7],
        [517, 363, '€', 7],
        [540, 363, '31,00', 7],
      ]),
    ).toEqual([{ description: 'Exact voor Boekhouden', quantity: 1, unit_price: 31, amount: 31, confidence: 1 }]);
  });
});
