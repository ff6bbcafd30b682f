/**
 * Layouts from the sixth round of real documents (issue 20, chosen on its dev documents): a time
 * tracker's invoice (durations as quantities, "Einzelbetrag", "Rechnungsendbetrag") as a page image,
 * its return-address line read by OCR with "+" and "*" for the dots.
 */
import { extractInvoice } from '../../../../src/server/ai/extraction/invoice';
import { hoursOf } from '../../../../src/server/ai/extraction/line-items';
import { ocrPage, page } from './helpers';

const values = (r: ReturnType<typeof extractInvoice>) => Object.fromEntries(Object.entries(r.fields).map(([k, f]) => [k, f!.value]));

describe("a time tracker's invoice", () => {
  it('reads a duration as hours', () => {
    expect(hoursOf('05:58 h')).toBe(5.9667);
    expect(hoursOf('1:30')).toBe(1.5);
    expect(hoursOf('02:15:00 Std.')).toBe(2.25);
    expect(hoursOf('12:75')).toBeUndefined();
    expect(hoursOf('5 h')).toBeUndefined();
  });

  it('reads its line of hours at an hourly price ("Einzelbetrag") and its total ("Rechnungsendbetrag")', () => {
    const r = extractInvoice([
      page([
        [300, 20, 'Kitten Example GmbH', 14],
        [40, 200, 'Pos.'],
        [80, 200, 'Beschreibung'],
        [300, 200, 'Anzahl'],
        [380, 200, 'Einzelbetrag'],
        [480, 200, 'Gesamtpreis'],
        [40, 220, '1'],
        [80, 220, 'Veniam ut: Non nemo'],
        [300, 220, '05:58 h'],
        [390, 220, '109,00 €'],
        [490, 220, '650,37 €'],
        [330, 245, 'Rechnungsendbetrag'],
        [490, 245, '650,37 €'],
      ]),
    ]);
    expect(r.lineItems.map(({ confidence: _, ...line }) => line)).toEqual([
      { description: 'Veniam ut: Non nemo', quantity: 5.9667, unit_price: 109, amount: 650.37 },
    ]);
    expect(values(r).total).toBe(650.37);
  });
});

describe('totals under groups of lines', () => {
  it('takes the net invoice amount ("Rechnungsbetrag (netto)") as the subtotal over the groups\' "Zwischensumme" rows, since it and the tax make the total', () => {
    const r = extractInvoice([
      page([
        [40, 20, 'My Company', 14],
        [200, 100, 'Zwischensumme:'],
        [480, 100, '405,00 €'],
        [200, 140, 'Zwischensumme:'],
        [480, 140, '360,00 €'],
        [330, 180, 'Rechnungsbetrag (netto)'],
        [480, 180, '765,00 €'],
        [330, 195, 'Umsatzsteuer (19 %)'],
        [480, 195, '145,35 €'],
        [330, 210, 'Rechnungsendbetrag'],
        [480, 210, '910,35 €'],
      ]),
    ]);
    expect(values(r)).toMatchObject({ subtotal: 765, tax: 145.35, total: 910.35 });
    expect(r.fields.total!.confidence).toBeGreaterThanOrEqual(0.9);
  });
});

describe('a return-address line read by OCR', () => {
  it('parts the line at a "+" or "*" read for its dots, the recipient under it, and leaves the terms beside it out', () => {
    const r = extractInvoice([
      ocrPage([
        [300, 40, 'Rechnung', 0.95, 14],
        // the dots read unsure ("+" and "*" for "•") do not make the sender's name unsure
        [90, 205, 'Kitten Example GmbH', 0.9, 7],
        [174, 205, '+', 0.3, 7],
        [182.4, 205, 'KatzenstraBe 1', 0.9, 7],
        [245.4, 205, '*', 0.3, 7],
        [253.8, 205, '42424 Miauhausen', 0.9, 7],
        [430, 203, 'Zahlungsziel: 06.10.2022'],
        [90, 222, 'Test GmbH'],
        [90, 239, 'Max Mustermann'],
        [90, 256, 'Musterweg 3'],
        [90, 273, '12345 Musterstadt'],
      ]),
    ]);
    expect(values(r)).toMatchObject({ vendor_name: 'Kitten Example GmbH', customer_name: 'Test GmbH', vendor_address: 'KatzenstraBe 1, 42424 Miauhausen' });
    // on a text layer a "+" stays part of a name ("Müller + Partner")
    const text = extractInvoice([
      page([
        [90, 205, 'Müller + Partner * Hauptstraße 1 * 12345 Berlin', 7],
        [90, 222, 'Test GmbH'],
      ]),
    ]);
    expect(text.fields.customer_name?.value).not.toBe('Test GmbH');
  });
});
