/**
 * Till receipts and scanned pages (issue 20): layouts and OCR noise expected in the world, laid
 * out by hand — receipt rows with no header checked against the totals, an article number with
 * its numbers over the article's name, a total found by arithmetic, a date with no label, a
 * currency named only in a heading, amounts whose digits OCR read as letters.
 */
import { findAmounts } from '../../../../src/server/ai/extraction/amount';
import { extractInvoice } from '../../../../src/server/ai/extraction/invoice';
import { receiptRows, rowsByArithmetic } from '../../../../src/server/ai/extraction/line-items';
import { fixOcrDigits, joinSplitAmounts, withOcrDigits } from '../../../../src/server/ai/extraction/ocr-noise';
import { indexPhrases } from '../../../../src/server/ai/extraction/phrases';
import { buildPage } from '../../../../src/server/ai/layout/group';
import { ocrPage as scannedPage, page } from './helpers';

const values = (r: ReturnType<typeof extractInvoice>) => Object.fromEntries(Object.entries(r.fields).map(([k, f]) => [k, f!.value]));

const lines = (runs: [number, number, string, number?][]) => extractInvoice([page(runs)]).lineItems.map(({ confidence: _, ...rest }) => rest);
/** The rows read by arithmetic alone (no header), without their confidence. */
const arithmeticRows = (runs: [number, number, string, number?][]) =>
  rowsByArithmetic(indexPhrases([page(runs)]).lines).map(({ confidence: _, ...rest }) => rest);

describe('till receipts', () => {
  it('reads rows of words and one amount above the totals when they add up, a leading count as the quantity', () => {
    const runs: [number, number, string, number?][] = [
      [200, 20, 'Contoso', 16],
      [100, 60, '123 Main Street'],
      [100, 75, 'Redmond, WA 98052'],
      [100, 110, '6/10/2019 13:59'],
      [100, 150, '2 Surface Pro 6'],
      [300, 150, '$1,998.00'],
      [100, 165, '3 Surface Pen'],
      [310, 165, '$299.97'],
      [160, 200, 'Sub-Total'],
      [300, 200, '$2,297.97'],
      [160, 215, 'Tax'],
      [310, 215, '$218.31'],
      [160, 240, 'Total'],
      [300, 240, '$2,516.28'],
    ];
    expect(lines(runs)).toEqual([
      { description: 'Surface Pro 6', quantity: 2, unit_price: 999, amount: 1998 },
      { description: 'Surface Pen', quantity: 3, unit_price: 99.99, amount: 299.97 },
    ]);
    const r = extractInvoice([page(runs)]);
    // the one date on the receipt, with no label: the issue date, marked as unsure
    expect(r.fields.invoice_date?.value).toBe('2019-06-10');
    expect(r.fields.invoice_date!.confidence).toBeLessThanOrEqual(0.6);
  });

  it('takes gross rows that add up to the total, with a tax class after the amount and a "2 x 0,99" row under a line', () => {
    const runs: [number, number, string, number?][] = [
      [100, 20, 'Frischmarkt GmbH', 14],
      [100, 40, 'Hauptstr. 1, 12345 Musterstadt'],
      [100, 80, 'Bio Bananen'],
      [300, 80, '1,29 A'],
      [100, 95, 'Vollmilch 1,5%'],
      [300, 95, '1,98 A'],
      [110, 110, '2 x 0,99'],
      [100, 125, 'Pfand'],
      [300, 125, '-0,25 B'],
      [100, 150, 'SUMME'],
      [300, 150, '3,02'],
      [100, 180, 'MwSt 7% 0,20'],
    ];
    // "Vollmilch 1,5%" names a fat content, not a tax rate: the row is an article
    expect(lines(runs)).toEqual([
      { description: 'Bio Bananen', amount: 1.29 },
      { description: 'Vollmilch 1,5%', quantity: 2, unit_price: 0.99, amount: 1.98 },
      { description: 'Pfand', amount: -0.25 },
    ]);
    // offered whole, then nearest the totals first
    expect(receiptRows(indexPhrases([page(runs)]).lines).map((l) => l.length)).toEqual([3, 2, 1]);
  });

  it('reads a service invoice whose table has only a description and an amount under its two headings, and marks lines that do not add up', () => {
    const runs: [number, number, string, number?][] = [
      [40, 20, 'Muster Consulting GmbH', 14],
      [40, 60, 'Zahlungsbedingungen: 14 Tage netto'],
      [40, 100, 'Leistung'],
      [450, 100, 'Betrag'],
      [40, 120, 'Beratung März 2024'],
      [450, 120, '1.200,00'],
      [40, 135, 'Reisekosten'],
      [462, 135, '85,50'],
      [300, 170, 'Zwischensumme'],
      [450, 170, '1.285,50'],
      [300, 185, 'USt 19%'],
      [456, 185, '244,25'],
      [300, 200, 'Gesamtbetrag'],
      [450, 200, '1.529,75'],
    ];
    expect(lines(runs)).toEqual([
      { description: 'Beratung März 2024', amount: 1200 },
      { description: 'Reisekosten', amount: 85.5 },
    ]);
    // "Leistung | Betrag" is a header: its rows are lines even when they do not add up, and the
    // check says so (a table found by its header, not a guess from rows that add up)
    const off = extractInvoice([page(runs.map((r) => (r[2] === '85,50' ? [r[0], r[1], '91,00'] : r)))]);
    expect(off.lineItems.map((l) => l.amount)).toEqual([1200, 91]);
    expect(off.warnings.join(' ')).toMatch(/lines? .*(?:add|sum)/i);
  });

  it('reads gross line prices with the euro sign set on them, adding up to the total, and a tax labelled after its rate', () => {
    const r = extractInvoice([
      page([
        [40, 20, 'Kerstin Humm', 14],
        [40, 100, 'Pos. Beschreibung'],
        [450, 100, 'Preis'],
        [40, 120, '1. The first service provided. The'],
        [55, 135, 'first service provided'],
        [450, 120, '200,00€'],
        [40, 150, '2. The second service provided'],
        [450, 150, '150,20€'],
        [400, 170, 'Summe:'],
        [450, 170, '283,66€'],
        [330, 185, '19% Mehrwertsteuer:'],
        [456, 185, '66,54€'],
        [400, 200, 'Gesamt: 350,20€'],
      ]),
    ]);
    expect(r.lineItems.map((l) => l.amount)).toEqual([200, 150.2]);
    expect(Object.fromEntries(Object.entries(r.fields).map(([k, f]) => [k, f!.value]))).toMatchObject({ subtotal: 283.66, tax: 66.54, total: 350.2 });
  });

  it('reads an article number and its numbers on one row and the name under it', () => {
    const runs: [number, number, string, number?][] = [
      [20, 100, '1 23530028 03'],
      [130, 100, '2,00'],
      [180, 100, '14,99'],
      [240, 100, '29,98 1'],
      [40, 113, 'Duschvorhang'],
      [20, 130, '2 02770034 01'],
      [130, 130, '1,00'],
      [180, 130, '9,99'],
      [240, 130, '9,99 1'],
      [40, 143, 'WC-Garnitur'],
      [20, 170, 'Summe'],
      [240, 170, '39,97'],
    ];
    expect(arithmeticRows(runs)).toEqual([
      { description: 'Duschvorhang', quantity: 2, unit_price: 14.99, amount: 29.98 },
      { description: 'WC-Garnitur', quantity: 1, unit_price: 9.99, amount: 9.99 },
    ]);
  });

  it('reads a row whose name follows its numeric article number, with no header it knows', () => {
    const runs: [number, number, string, number?][] = [
      [20, 100, '4711'],
      [80, 100, 'Schrauben M6'],
      [200, 100, '12'],
      [250, 100, '0,25'],
      [310, 100, '3,00'],
      [20, 115, '80512'],
      [80, 115, 'Dübel 8 mm'],
      [200, 115, '2'],
      [250, 115, '4,50'],
      [310, 115, '9,00'],
      [20, 140, 'Summe'],
      [310, 140, '12,00'],
    ];
    expect(arithmeticRows(runs)).toEqual([
      { description: 'Schrauben M6', quantity: 12, unit_price: 0.25, amount: 3 },
      { description: 'Dübel 8 mm', quantity: 2, unit_price: 4.5, amount: 9 },
    ]);
  });

  it('finds a total with no label it knows as the amount that is net plus tax, not certain, and a currency named only in a heading', () => {
    const r = extractInvoice([
      page([
        [100, 20, 'Möbelhaus Muster', 16],
        [40, 80, 'Pos Artikel Menge €/Stk €/Ges'],
        [40, 120, 'elec.-cash'],
        [300, 120, '59,96'],
        [140, 150, 'Netto'],
        [220, 150, 'MwSt.'],
        [140, 165, '50,38'],
        [220, 165, '9,58'],
      ]),
    ]);
    expect(r.fields.subtotal?.value).toBe(50.38);
    expect(r.fields.tax?.value).toBe(9.58);
    expect(r.fields.total?.value).toBe(59.96);
    expect(r.fields.total!.confidence).toBeLessThan(0.9);
    expect(r.fields.currency).toMatchObject({ value: 'EUR', confidence: 0.6 });
  });

  it('does not take a delivery date under a bare "Date" label for the issue date; the date alone at the top is', () => {
    const r = extractInvoice([
      page([
        [40, 30, '2020-11-21'],
        [40, 120, 'Invoice # RE-42'],
        [40, 135, 'Date of delivery 2020-11-10'],
        [40, 300, 'Please remit until 2020-12-12'],
      ]),
    ]);
    expect(r.fields.invoice_date?.value).toBe('2020-11-21');
    expect(r.fields.invoice_date!.confidence).toBeLessThan(0.6);
    expect(r.fields.due_date?.value).toBe('2020-12-12');
  });

  it('reads a US receipt\'s "TAX1" (its first tax rate) as the tax, and the three totals as adding up', () => {
    const r = extractInvoice([
      page([
        [100, 20, 'CHO EUN', 16],
        [60, 100, 'BIBIM.OCTOPU T1'],
        [260, 100, '$13.99'],
        [60, 115, 'LA BEEF RIB T1'],
        [260, 115, '$41.97'],
        [60, 140, 'SUBTOTAL'],
        [260, 140, '$55.96'],
        [60, 155, 'TAX1'],
        [260, 155, '$4.48'],
        [60, 170, 'TOTAL'],
        [260, 170, '$60.44'],
      ]),
    ]);
    expect([r.fields.subtotal?.value, r.fields.tax?.value, r.fields.total?.value]).toEqual([55.96, 4.48, 60.44]);
    expect(r.fields.tax!.confidence).toBeGreaterThanOrEqual(0.9);
  });
});

/** A page read by OCR from [x, y, text, confidence?] runs, 10-pixel text, `width` × `height` pixels. */
function ocrPage(runs: [number, number, string, number?][], width: number, height: number) {
  return scannedPage(runs, { width, height, confidence: 0.9 });
}

describe('scanned till receipts', () => {
  it('names the shop by its web address when its logo reads as noise, takes its number after "Bon-Nr.", and finds no buyer on the strip', () => {
    const r = extractInvoice([
      ocrPage(
        [
          [60, 20, 'QILER', 0.3],
          [40, 60, 'Senefelder Straße 2'],
          [45, 75, '33100 Paderborn'],
          [40, 90, 'Tel. 05251 / 5099-0'],
          [40, 120, 'Bon-Nr. 05R024747'],
          [40, 135, 'Datum: 26.09.2016 13:56'],
          [20, 170, 'Duschvorhang'],
          [150, 170, '29,98 A'],
          [20, 190, 'SUMME'],
          [150, 190, '29,98'],
          [40, 230, 'www.roller.de', 0.1],
        ],
        250,
        700,
      ),
    ]);
    expect(values(r)).toMatchObject({ vendor_name: 'Roller', invoice_number: '05R024747', invoice_date: '2016-09-26', total: 29.98 });
    expect(r.fields.vendor_name!.confidence).toBeLessThan(0.6);
    expect(r.fields.customer_name).toBeUndefined();
    expect(r.lineItems.map((i) => i.description)).toEqual(['Duschvorhang']);
  });

  it('offers no shop address block as the buyer when a phone or tax number stands under it', () => {
    const r = extractInvoice([
      ocrPage(
        [
          [300, 20, 'DELPHIN', 0.9],
          [40, 100, 'Apotheke am Markt'],
          [40, 115, 'Marktplatz 3'],
          [40, 130, '40213 Düsseldorf'],
          [40, 145, 'USt-IdNr. DE123456789'],
          [40, 300, 'Rechnung Nr. 7'],
        ],
        600,
        850,
      ),
    ]);
    expect(r.fields.customer_name).toBeUndefined();
  });
});

describe('scanned till receipts, round three', () => {
  it('puts an amount OCR split in pieces back together, reads "incl. 19,00% MwSt" as the tax, and an article number\'s row with the name under it', () => {
    const r = extractInvoice([
      ocrPage(
        [
          [40, 100, '2183839'],
          [170, 100, '1.129,00 b'],
          [40, 112, 'DJI'],
          [40, 124, 'MAVIC PRO'],
          [40, 150, 'Total EUR'],
          [170, 150, '1.'],
          [184, 150, '129,'],
          [210, 150, '00'],
          [40, 200, 'incl. 19,00% Mwst (b)'],
          [200, 200, '180,26'],
        ],
        600,
        850,
      ),
    ]);
    expect(values(r)).toMatchObject({ total: 1129, tax: 180.26 });
    expect(r.lineItems.map(({ confidence: _, ...rest }) => rest)).toEqual([{ description: 'DJI', amount: 1129 }]);
    // pieces of a list, or a date and a time, stay apart
    const word = (text: string, x: number) => ({ text, x, y: 0, width: text.length * 6, height: 10, confidence: 0.9 });
    expect(joinSplitAmounts([word('08.09,', 0), word('15:20', 40)]).map((w) => w.text)).toEqual(['08.09,', '15:20']);
    expect(joinSplitAmounts([word('3,', 0), word('25,', 200), word('00', 224)]).map((w) => w.text)).toEqual(['3,', '25,00']);
  });

  it('takes the date with a time after it, net, tax and gross side by side under headings OCR misread (never as certain), and the company in the foot', () => {
    const r = extractInvoice([
      ocrPage(
        [
          [30, 20, 'Wet ana', 0.3],
          [10, 60, '27.02.2020 15:56 Bed.Nr.:120 Kasse 02'],
          [10, 90, '662634502022 BRILLENTUCH'],
          [200, 90, '€1,95 A'],
          [10, 110, 'Total'],
          [10, 140, 'HUST Gruppe'],
          [100, 140, 'Nett0'],
          [150, 140, 'MUST'],
          [200, 140, 'Brutt0'],
          [10, 155, 'Hust Total'],
          [100, 155, '1,64'],
          [150, 155, '0,31'],
          [200, 155, '1,95'],
          [30, 200, 'Bon Nr.:3226'],
          [30, 240, 'VIELEN DANK'],
          [30, 255, 'UKST: 3322 Dirk Rossmann GmbH', 0.4],
          [30, 300, 'Wir fordern ein Verbot vom 28.01.2020'],
        ],
        250,
        900,
      ),
    ]);
    expect(values(r)).toMatchObject({ invoice_date: '2020-02-27', subtotal: 1.64, tax: 0.31, total: 1.95, vendor_name: 'Dirk Rossmann GmbH' });
    for (const f of [r.fields.subtotal, r.fields.tax, r.fields.total]) expect(f!.confidence).toBeLessThan(0.9);
    expect(r.fields.vendor_name!.confidence).toBeLessThan(0.6);
  });

  it("takes no number from a card terminal's slip for the receipt's, and no currency from a sign beside a stray digit", () => {
    const r = extractInvoice([
      ocrPage(
        [
          [60, 20, 'Technikmarkt Paderborn'],
          [40, 100, 'Kabel HDMI'],
          [180, 100, '19,99 b'],
          [40, 130, 'Total EUR'],
          [180, 130, '19,99'],
          [60, 200, '* * Kundenbeleg * *'],
          [40, 230, 'Datum 08.09.17 15:20 Uhr'],
          [40, 245, 'Beleg-Nr. 8059'],
          [40, 260, 'Trace-Nr. 107271'],
          [40, 275, 'Terminal-ID 65130515'],
          [40, 400, '£5', 0.3],
        ],
        250,
        900,
      ),
    ]);
    expect(r.fields.invoice_number).toBeUndefined();
    expect(values(r)).toMatchObject({ total: 19.99, currency: 'EUR', invoice_date: '2017-09-08' });
    // the same number above the items, outside a slip, is the receipt's
    const plain = extractInvoice([
      ocrPage(
        [
          [40, 60, 'Beleg-Nr. 8059'],
          [40, 100, 'Kabel HDMI'],
          [180, 100, '19,99'],
          [40, 130, 'Summe'],
          [180, 130, '19,99'],
        ],
        250,
        900,
      ),
    ]);
    expect(plain.fields.invoice_number?.value).toBe('8059');
  });

  it("takes no street or town line for the shop when its logo is unread, and no line item's name", () => {
    const r = extractInvoice([
      ocrPage(
        [
          [80, 70, 'Main Street'],
          [70, 85, 'Redmond, WA 98052'],
          [60, 120, '6/10/2019 13:59'],
          [40, 160, '1 Cappuccino'],
          [180, 160, '$2.20'],
          [40, 200, 'Total'],
          [180, 200, '$2.20'],
        ],
        300,
        800,
      ),
    ]);
    expect(r.fields.vendor_name).toBeUndefined();
    // a name that only ends like a street is a name
    const hotel = extractInvoice([
      ocrPage(
        [
          [80, 20, 'Hotel Königsallee'],
          [60, 120, '6/10/2019 13:59'],
          [40, 200, 'Total'],
          [180, 200, '$2.20'],
        ],
        300,
        800,
      ),
    ]);
    expect(hotel.fields.vendor_name?.value).toBe('Hotel Königsallee');
    const strip = extractInvoice([
      ocrPage(
        [
          [40, 100, '2183839'],
          [170, 100, '1.129,00 b'],
          [40, 112, 'DJI'],
          [40, 150, 'Total EUR'],
          [170, 150, '1.129,00'],
        ],
        600,
        850,
      ),
    ]);
    expect(strip.lineItems.map((i) => i.description)).toEqual(['DJI']);
    expect(strip.fields.vendor_name).toBeUndefined();
  });

  it('takes the amount beside a label that a skewed scan put on the neighbouring line ("310,00 EURO" a little above "Rechnungsbetrag"), and none from a line that only touches it', () => {
    const word = (text: string, x: number, y: number, height: number) => ({ text, x, y, width: text.length * 7, height, confidence: 0.93 });
    const totals = (amountY: number) =>
      extractInvoice([
        buildPage(1, 1200, 900, 'ocr', [
          word('CONTOSO', 290, 30, 14),
          word('Zwischensumme', 706, 415, 11),
          word('310,00', 820, 415, 11),
          word('EURO', 866, 415, 11),
          word('Steuer', 765, 445, 11),
          word('0,00', 817, 440, 11),
          word('EURO', 845, 440, 11),
          word('310,00', 820, amountY, 10.5),
          word('EURO', 861, amountY, 10.5),
          word('Rechnungsbetrag', 706, 469, 11.5),
        ]),
      ]).fields;
    const skewed = totals(463.5);
    // grouped into two lines: the amount's centre lies above the label's band
    expect(skewed.total).toMatchObject({ value: 310 });
    expect(skewed.total!.confidence).toBeGreaterThanOrEqual(0.9);
    // two lines that share less than 40% of their height are two rows
    expect(totals(461).total?.value).not.toBe(310);
  });

  it('ends the line table at an amount alone that is the sum of its lines, and takes it for the total beside its label a little lower', () => {
    // the dev Spanish restaurant ticket as OCR read it: "19.40" a little above "TOTAL"
    const word = (text: string, x: number, y: number, width: number, height: number) => ({ text, x, y, width, height, confidence: 0.92 });
    const r = extractInvoice([
      buildPage(1, 1200, 893, 'ocr', [
        word('Contoso', 532, 158, 86, 19),
        word('Unid.', 453, 476, 28, 11),
        word('Descripcion', 503, 475, 71, 13),
        word('Precio', 607, 472, 37, 11),
        word('Importe', 659, 471, 46, 13),
        word('REFRESCOS', 501, 497, 70, 12),
        word('3,50', 619, 494, 25, 12),
        word('3,50', 668, 493, 23, 12),
        word('MENU', 502, 521, 40, 11),
        word('DIARIO', 547, 519, 41, 13),
        word('15,90', 614, 517, 32, 13),
        word('15,90', 663, 515, 30, 12),
        word('TOTAL', 476, 587, 67, 18),
        word('19.40', 649, 579, 43, 17),
        word('GRACIAS', 478, 678, 81, 21),
      ]),
    ]);
    expect(r.lineItems.map((l) => [l.description, l.amount])).toEqual([
      ['REFRESCOS', 3.5],
      ['MENU DIARIO', 15.9],
    ]);
    expect(r.fields.total).toMatchObject({ value: 19.4 });
    expect(r.fields.total!.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('reads a row whose tax class OCR read with a mark beside it ("«0")', () => {
    expect(
      lines([
        [40, 100, 'SKANKA Pfanne'],
        [250, 100, '14,99 0'],
        [40, 115, 'POANG Kissen'],
        [250, 115, '10,00 «0'],
        [40, 140, 'Summe'],
        [250, 140, '24,99'],
      ]),
    ).toEqual([
      { description: 'SKANKA Pfanne', amount: 14.99 },
      { description: 'POANG Kissen', amount: 10 },
    ]);
  });
});

describe('OCR noise in amounts and dates', () => {
  it('reads O, o, l, I and | as digits in a word shaped like an amount with cents or a dotted date, and nothing else', () => {
    expect(fixOcrDigits('1O,5O')).toBe('10,50');
    expect(fixOcrDigits('l2.99')).toBe('12.99');
    expect(fixOcrDigits('$1,O99.00')).toBe('$1,099.00');
    expect(fixOcrDigits('Total')).toBe('Total');
    expect(fixOcrDigits('lO,OO')).toBe('lO,OO');
    expect(fixOcrDigits('12,50')).toBe('12,50');
    expect(fixOcrDigits('Il.oo')).toBe('Il.oo');
    // dates: a letter for a digit, a comma for one of the dots
    expect(fixOcrDigits('26.O9.2016')).toBe('26.09.2016');
    expect(fixOcrDigits('26,09.2016')).toBe('26.09.2016');
    expect(fixOcrDigits('1,12,20')).toBe('1,12,20');
  });

  it('reads "1.234.56" / "1,234,56" (one separator for thousands and cents) with cents, and a trailing minus as a deduction', () => {
    expect(findAmounts('1.234.56').map((a) => a.value)).toEqual([1234.56]);
    expect(findAmounts('Summe 1,234,56').map((a) => a.value)).toEqual([1234.56]);
    expect(findAmounts('Rabatt 10,00- EUR').map((a) => a.value)).toEqual([-10]);
    // a whole number with a dash after it is no deduction ("Pos 5-", "10-20")
    expect(findAmounts('Pos 5- 10-20')).toEqual([]);
    expect(
      lines([
        [40, 100, 'Beschreibung'],
        [250, 100, 'Menge'],
        [320, 100, 'Einzelpreis'],
        [450, 100, 'Betrag'],
        [40, 120, 'Bohrmaschine'],
        [250, 120, '1'],
        [320, 120, '89,00'],
        [450, 120, '89,00'],
        [40, 135, 'Aktionsrabatt'],
        [250, 135, '1'],
        [320, 135, '10,00-'],
        [450, 135, '10,00-'],
        [300, 170, 'Zwischensumme'],
        [450, 170, '79,00'],
      ]),
    ).toEqual([
      { description: 'Bohrmaschine', quantity: 1, unit_price: 89, amount: 89 },
      { description: 'Aktionsrabatt', quantity: 1, unit_price: -10, amount: -10 },
    ]);
  });

  it('reads a receipt row\'s amount as findAmounts does: "1.234.56" with cents, a minus after it or before its currency sign', () => {
    expect(findAmounts('-$1.99 and −€ 5,00').map((a) => a.value)).toEqual([-1.99, -5]);
    // a minus inside a token is no sign
    expect(findAmounts('Pos-$5.00').map((a) => a.value)).toEqual([5]);
    const runs: [number, number, string, number?][] = [
      [100, 20, 'Elektromarkt GmbH', 14],
      [100, 80, 'Notebook'],
      [300, 80, '1.234.56'],
      [100, 95, 'Rabatt'],
      [300, 95, '10,00-'],
      [100, 110, 'Gutschein'],
      [300, 110, '-€5,00'],
      [100, 125, 'Monitor'],
      [300, 125, '2.469,00'],
      [110, 140, '2 x 1.234,50'],
      [100, 170, 'SUMME'],
      [300, 170, '3.688,56'],
    ];
    const expected = [
      { description: 'Notebook', amount: 1234.56 },
      { description: 'Rabatt', amount: -10 },
      { description: 'Gutschein', amount: -5 },
      { description: 'Monitor', quantity: 2, unit_price: 1234.5, amount: 2469 },
    ];
    expect(lines(runs)).toEqual(expected);
    const ocr = page(runs);
    const r = extractInvoice([{ ...ocr, source: 'ocr' }]);
    expect(r.lineItems.map(({ confidence: _, ...rest }) => rest)).toEqual(expected);
    expect(r.fields.total?.value).toBe(3688.56);
  });

  it('changes OCR pages only', () => {
    const word = (text: string, x: number) => ({ text, x, y: 100, width: 40, height: 10, confidence: 0.8 });
    const ocr = buildPage(1, 600, 800, 'ocr', [word('Total', 100), word('2l,4O', 300)]);
    expect(withOcrDigits(ocr).lines[0].text).toBe('Total 21,40');
    const text = buildPage(1, 600, 800, 'text-layer', [word('Total', 100), word('2l,4O', 300)]);
    expect(withOcrDigits(text)).toBe(text);
  });
});
