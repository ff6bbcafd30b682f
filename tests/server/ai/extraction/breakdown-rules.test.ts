import { extractInvoice } from '../../../../src/server/ai/extraction/invoice';
import { expectFields, ocrPage, page } from './helpers';

/** A two-page hotel folio laid out as the Leonardo Amsterdam one of the dev corpus (its "Debit €" heading lost by OCR). */
function folio() {
  const head = (n: number): [number, number, string][] => [
    [60, 40, 'Staalmeesterslaan 410'],
    [60, 55, 'NL-1057 PH Amsterdam'],
    [60, 200, `Page No.     : ${n} of 2`],
    [310, 215, 'Invoice No'],
    [428, 215, ': 030405755 / 1'],
    [310, 230, 'Reservation No.'],
    [428, 230, ': 24191929'],
    [310, 245, 'Reference'],
    [428, 245, ': 2562107298'],
  ];
  const one = page([
    ...head(1),
    [62, 300, 'Date'],
    [118, 300, 'Description'],
    [492, 300, 'Credit'],
    [62, 320, '02-10-19'],
    [118, 320, 'Accommodation'],
    [440, 320, '130.00'],
    [62, 335, '02-10-19'],
    [118, 335, 'City Tax'],
    [452, 335, '8.35'],
    [62, 350, '03-10-19'],
    [118, 350, 'Breakfast'],
    [446, 350, '19.00'],
    [62, 365, '11-10-19'],
    [118, 365, 'MasterCard EMV'],
    [500, 365, '157.35'],
    [330, 390, 'Total'],
    [440, 390, '157.35'],
    [500, 390, '157.35'],
  ]);
  const two = page(
    [
      ...head(2),
      [330, 300, 'Balance'],
      [458, 300, '0.00'],
      [60, 330, 'VAT Breakdown'],
      [220, 330, 'Net'],
      [300, 330, 'VAT'],
      [380, 330, 'Total'],
      [60, 345, 'Deductable 9%'],
      [200, 345, '136.70'],
      [290, 345, '12.30'],
      [370, 345, '149.00'],
      [60, 360, 'City Tax'],
      [200, 360, '8.35'],
      [382, 360, '8.35'],
      [370, 375, '157.35'],
      [60, 400, 'City Tax Breakdown'],
      [220, 400, 'Net'],
      [60, 415, 'Total Rooms'],
      [200, 415, '119.27'],
      [60, 430, 'Total Breakfast'],
      [206, 430, '17.43'],
    ],
    2,
  );
  return [one, two];
}

describe('a hotel folio with a VAT breakdown and a payment in the credit column', () => {
  it('takes the invoice number over a bare "Reference", with its part after a spaced slash', () => {
    expectFields(extractInvoice(folio()), { invoice_number: '030405755/1' });
  });

  it("reads the charges and not the payment in the column right of them, and the folio's total, not a rate's row of its breakdown nor a part total", () => {
    const r = extractInvoice(folio());
    expect(r.lineItems.map((i) => [i.description, i.amount])).toEqual([
      ['Accommodation', 130],
      ['City Tax', 8.35],
      ['Breakfast', 19],
    ]);
    expectFields(r, { total: 157.35 });
    // the 9% row's net is no subtotal of the whole (its city tax is outside it)
    expect(r.fields.subtotal).toBeUndefined();
  });

  it('a bare "Reference" still gives the number when nothing else does', () => {
    expectFields(
      extractInvoice([
        page([
          [40, 40, 'Example Ltd'],
          [40, 80, 'Reference: INV-2211'],
          [300, 200, 'Total 10.00'],
        ]),
      ]),
      { invoice_number: 'INV-2211' },
    );
  });
});

describe('a hotel receipt read by OCR', () => {
  it('reads "excl," for "excl." in a label, skips "To Pay" among the rows, and takes no amount for a party name', () => {
    const r = extractInvoice([
      ocrPage([
        [60, 40, 'ORIGINAL RECEIPT'],
        [60, 70, 'Guest (D:'],
        [60, 85, '9,190.00 U0 SEK'],
        [57, 200, 'Date'],
        [206, 200, 'Description'],
        [450, 200, 'Sum'],
        [56, 220, '30.04.19 Accommodation'],
        [420, 220, '4,000.00'],
        [56, 235, '01.05.19 Accommodation'],
        [420, 235, '5,190.00'],
        [300, 260, 'To Pay:'],
        [449, 260, '0.00'],
        [57, 290, 'Total incl. Vat'],
        [300, 290, '9,190.00 SEK'],
        [57, 305, 'Total excl, Vat'],
        [300, 305, '8,205.36 SEK'],
      ]),
    ]);
    expectFields(r, { subtotal: 8205.36, total: 9190 });
    expect(r.lineItems.map((i) => [i.description, i.amount])).toEqual([
      ['Accommodation', 4000],
      ['Accommodation', 5190],
    ]);
    expect(r.fields.customer_name).toBeUndefined();
  });
});

describe('a Belgian till receipt', () => {
  it('reads the nine-digit Belgian VAT number of before 2007 as the VAT id, and "BTW/TVA no." as no tax amount', () => {
    const r = extractInvoice([
      page([
        [200, 40, 'PAUL'],
        [40, 100, '1 CAPPUCCINO'],
        [300, 100, '3,60'],
        [200, 130, 'Total (EURO) :'],
        [300, 130, '3,60'],
        [100, 300, 'SA LE MONDE DU PAIN NV'],
        [100, 315, 'BTW/TVA no. BE 885 463 114'],
      ]),
    ]);
    expectFields(r, { vendor_vat_id: 'BE885463114', total: 3.6 });
    expect(r.fields.tax).toBeUndefined();
  });
});

describe('a tax breakdown of one row per rate and no row of sums', () => {
  it("takes the sum of a till receipt's per-rate VAT as its tax when the gross amounts add up to the total", () => {
    const r = extractInvoice([
      page([
        [200, 40, 'Bakery Example'],
        [40, 100, '1 CAPPUCCINO'],
        [300, 100, '3,60'],
        [40, 115, '1 BEIGNET'],
        [300, 115, '2,80'],
        [200, 140, 'Total (EURO) :'],
        [300, 140, '6,40'],
        [40, 180, '% TVA'],
        [120, 180, 'TVA Excl'],
        [220, 180, 'TVA'],
        [300, 180, 'TVA incl'],
        [40, 195, 'B'],
        [60, 195, '12'],
        [120, 195, '2,50'],
        [220, 195, '0,30'],
        [300, 195, '2,80'],
        [40, 210, 'A'],
        [60, 210, '21'],
        [120, 210, '2,98'],
        [220, 210, '0,62'],
        [300, 210, '3,60'],
      ]),
    ]);
    expectFields(r, { total: 6.4, tax: 0.92 });
    // the nets' sum is printed nowhere: no subtotal is read
    expect(r.fields.subtotal).toBeUndefined();
  });

  it("takes a hotel invoice's total and tax from the breakdown's rows, not from its first rate's row (the heading's column)", () => {
    const r = extractInvoice([
      page([
        [40, 40, 'The Cloud One Prague'],
        [40, 100, 'Rechnungsnummer: 856004006'],
        [40, 160, 'Bestpreis mit Frühstück'],
        [300, 160, '5'],
        [360, 160, '3.214,38'],
        [470, 160, '16.071,90'],
        [40, 200, 'Rechnungsbetrag'],
        [490, 200, '0,00'],
        [40, 240, 'Steuersatz'],
        [200, 240, 'Netto CZK'],
        [320, 240, 'Steuer CZK'],
        [440, 240, 'Brutto CZK'],
        [40, 255, '0,00 % (0% TAX)'],
        [200, 255, '249,75'],
        [320, 255, '0,00'],
        [440, 255, '249,75'],
        [40, 270, '12,00 % (TAX)'],
        [200, 270, '14.126,92'],
        [320, 270, '1.695,23'],
        [440, 270, '15.822,15'],
      ]),
    ]);
    expectFields(r, { total: 16071.9, tax: 1695.23 });
    expect(r.fields.subtotal).toBeUndefined();
  });
});

describe('a Spanish till slip "C. CONCEPTO | PRECIO IMPORTE"', () => {
  it('reads the count at the start of each description, a price and an amount set close together, and mends one misread amount by the total', () => {
    const r = extractInvoice([
      ocrPage([
        [40, 100, 'Factura Simplificada: 107793'],
        [40, 200, 'C. CONCEPTO'],
        [400, 200, 'PRECIO IMPORTE'],
        [58, 220, '1 Capuccino'],
        [400, 220, '3,00 € 3,00 €'],
        [58, 240, '2 Americano'],
        [400, 240, '1,35 € 2,20€'],
        [58, 260, '1 FRENCH CLASSIC'],
        [400, 260, '6,95 € 6,95 €'],
        [300, 300, 'Base imponible'],
        [480, 300, '11,50'],
        [300, 320, 'Total:'],
        [480, 320, '12,65 €'],
      ]),
    ]);
    expect(r.lineItems.map((i) => [i.description, i.quantity, i.unit_price, i.amount])).toEqual([
      ['Capuccino', 1, 3, 3],
      ['Americano', 2, 1.35, 2.7],
      ['FRENCH CLASSIC', 1, 6.95, 6.95],
    ]);
    expect(r.warnings.join(' ')).toMatch(/Line 2's amount was read as 2.20; 2.70/);
  });
});

describe('a Norwegian invoice', () => {
  it('reads its labels (Fakturanr., Fakturadato, Forfallsdato), its "NO … MVA" VAT number, its table and amounts grouped by plain spaces', () => {
    const r = extractInvoice([
      page([
        [300, 40, 'Rør og Rygg Entreprenør AS'],
        [300, 55, 'Karihaugveien 89, 1086 OSLO, Norge'],
        [300, 70, 'Foretaksregisteret: NO 931 793 403 MVA'],
        [300, 120, 'FAKTURA'],
        [300, 135, 'Fakturanr.:'],
        [440, 135, '1077'],
        [300, 150, 'Fakturadato:'],
        [420, 150, '2024-04-04'],
        [300, 165, 'Forfallsdato:'],
        [420, 165, '2024-04-07'],
        [40, 240, 'Beskrivelse'],
        [250, 240, 'Antall'],
        [300, 240, 'Enh.pris'],
        [380, 240, 'Beløp'],
        [40, 260, 'Arbeid etter avtale.'],
        [260, 260, '1'],
        [300, 260, '22 000,00'],
        [380, 260, '22 000,00'],
        [40, 275, 'Materiell.'],
        [260, 275, '1'],
        [300, 275, '13 311,41'],
        [380, 275, '13 311,41'],
        [40, 300, 'Sum'],
        [380, 300, '35 311,41'],
        [450, 300, '8 827,85'],
        [510, 300, '44 139,26'],
      ]),
    ]);
    expectFields(r, {
      invoice_number: '1077',
      invoice_date: '2024-04-04',
      due_date: '2024-04-07',
      vendor_vat_id: 'NO931793403MVA',
      subtotal: 35311.41,
      tax: 8827.85,
      total: 44139.26,
    });
    expect(r.lineItems.map((i) => [i.description, i.quantity, i.unit_price, i.amount])).toEqual([
      ['Arbeid etter avtale.', 1, 22000, 22000],
      ['Materiell.', 1, 13311.41, 13311.41],
    ]);
  });
});

describe('a till receipt with a rewards block', () => {
  it('takes "TOTAL $821.14", not the "Total Points: 3,247" printed under it', () => {
    const r = extractInvoice([
      page([
        [20, 40, 'TECHMART ELECTRONICS'],
        [20, 100, 'SUBTOTAL $863.91'],
        [20, 115, 'Sales Tax (8.5%) $66.23'],
        [20, 130, 'TOTAL $821.14'],
        [20, 200, 'Total Points: 3,247'],
      ]),
    ]);
    expectFields(r, { total: 821.14 });
  });
});
