/**
 * Layouts from the fourth round of real documents (issue 20, chosen on dev documents): delivery
 * invoices whose totals rows also count pieces, and their due-date wording.
 */
import { extractInvoice } from '../../../../src/server/ai/extraction/invoice';
import { ocrPage, page } from './helpers';

const values = (r: ReturnType<typeof extractInvoice>) => Object.fromEntries(Object.entries(r.fields).map(([k, f]) => [k, f!.value]));

describe('delivery invoices', () => {
  it('reads "Total Price" as the total and "Total Pcs." as no amount, and "Payable on or before" as the due date', () => {
    const r = extractInvoice([
      page([
        [40, 20, 'NEXGEN'],
        [200, 60, 'Invoice Number: 3847193'],
        [40, 300, 'Total Pcs.: 27'],
        [300, 300, 'Total Price: 293.52'],
        [40, 315, 'Payable on or before 5/24/2024'],
      ]),
    ]);
    expect(values(r)).toMatchObject({ invoice_number: '3847193', total: 293.52, due_date: '2024-05-24' });
    // "Total pieces", "Total hours", "Total weight": counts, never the total
    for (const count of ['Total pieces: 12', 'Total hours: 40', 'Total Qty 7', 'Total Stück 3'])
      expect(
        extractInvoice([
          page([
            [40, 20, 'ACME'],
            [40, 300, count],
          ]),
        ]).fields.total,
      ).toBeUndefined();
  });

  it('takes the amount at the right margin of a totals row that also counts the pieces, and a priced total over a count on a returns slip', () => {
    const invoice = page([
      [40, 20, 'NEXGEN'],
      [40, 100, 'PRODUCT ID'],
      [150, 100, 'UNIT PRICE'],
      [230, 100, 'QUANTITY'],
      [400, 100, 'TOTAL PRICE'],
      [40, 120, 'H509L'],
      [150, 120, '5.00'],
      [240, 120, '150'],
      [420, 120, '750.00'],
      [40, 140, 'TOTAL'],
      [240, 140, '150'],
      [420, 140, '750.00'],
    ]);
    expect(values(extractInvoice([invoice])).total).toBe(750);
    const returns = page(
      [
        [40, 20, 'NEXGEN'],
        [400, 20, 'RETURNS'],
        [40, 140, 'TOTAL'],
        [240, 140, '150'],
      ],
      2,
    );
    expect(values(extractInvoice([invoice, returns])).total).toBe(750);
    // the same row with its currency set apart at the margin: "TOTAL   150   750.00   EUR"
    const priced = page([
      [40, 20, 'NEXGEN'],
      [40, 140, 'TOTAL'],
      [240, 140, '150'],
      [420, 140, '750.00'],
      [480, 140, 'EUR'],
    ]);
    expect(values(extractInvoice([priced]))).toMatchObject({ total: 750, currency: 'EUR' });
  });
});

describe('receipts sent by mail', () => {
  it('reads "Total Charges" as the total, and a zero balance after the payment as no total', () => {
    const r = extractInvoice([
      page([
        [40, 20, 'Contoso'],
        [40, 60, 'Receipt Number 334567'],
        [300, 200, 'Balance Due'],
        [420, 200, '$0.00'],
        [300, 170, 'Total Charges'],
        [420, 170, '$710.00'],
        [300, 185, 'Payment'],
        [420, 185, '$710.00'],
      ]),
    ]);
    expect(values(r).total).toBe(710);
    // zero when it is the only total there is
    expect(
      values(
        extractInvoice([
          page([
            [40, 20, 'Contoso'],
            [300, 200, 'Balance Due'],
            [420, 200, '$0.00'],
          ]),
        ]),
      ).total,
    ).toBe(0);
  });
});

describe('German tax', () => {
  it('reads "Steuer" alone as the tax, never "Steuernummer", "Steuersatz" or "Steuerberater"', () => {
    const doc = (label: string) =>
      extractInvoice([
        page([
          [40, 20, 'CONTOSO LTD.'],
          [300, 200, 'Zwischensumme'],
          [420, 200, '310,00 EURO'],
          [300, 215, label],
          [420, 215, '0,00 EURO'],
          [300, 230, 'Rechnungsbetrag'],
          [420, 230, '310,00 EURO'],
        ]),
      ]);
    expect(values(doc('Steuer'))).toMatchObject({ subtotal: 310, tax: 0, total: 310 });
    for (const other of ['Steuernummer', 'Steuersatz', 'Steuerberater']) expect(values(doc(other)).tax).toBeUndefined();
  });
});

describe('till receipt photos', () => {
  const receipt: [number, number, string, number?, number?][] = [
    [100, 0, 'EEDEKA', 0.84, 30],
    [100, 40, 'EDEKA Schmitt'],
    [100, 55, 'Heideweg 51'],
    [100, 70, '44267 Dortmund'],
    [300, 100, 'EUR'],
    [20, 120, 'G&G Schlagsahne'],
    [300, 120, '0,99 A'],
    [20, 135, 'Bio Weidemilch'],
    [300, 135, '1,29 AW'],
    [20, 150, 'Gurken mini'],
    [150, 150, '0,89 x 2'],
    [300, 150, '1,78 A'],
    [20, 165, 'Äpfel'],
    [300, 165, '1,85 AW'],
    [40, 180, '1,240 kg x'],
    [150, 180, '1,49 €/kg'],
    [20, 200, 'Summe'],
    [300, 200, '5,91'],
  ];

  it('reads tax classes of two letters, a price and a count after the name, and a weight times a price per kilo under its line', () => {
    const r = extractInvoice([ocrPage(receipt)]);
    expect(r.lineItems.map(({ confidence: _, ...rest }) => rest)).toEqual([
      { description: 'G&G Schlagsahne', amount: 0.99 },
      { description: 'Bio Weidemilch', amount: 1.29 },
      { description: 'Gurken mini', quantity: 2, unit_price: 0.89, amount: 1.78 },
      { description: 'Äpfel', quantity: 1.24, unit_price: 1.49, amount: 1.85 },
    ]);
    expect(values(r)).toMatchObject({ vendor_name: 'EDEKA Schmitt', total: 5.91 });
    expect(r.fields.total!.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('never shows a total as certain when another total is printed under it (here misread), however well the lines add up to it', () => {
    const r = extractInvoice([ocrPage([...receipt, [20, 215, '10 % Theke Wurst'], [290, 215, '-0,18'], [20, 230, 'SUMME €'], [290, 230, '5473', 0.54]])]);
    expect(values(r).total).toBe(5.91);
    expect(r.fields.total!.confidence).toBeLessThan(0.9);
    // misread into no amount at all ("27:68" for 27,63): still a total under the one taken
    const colon = extractInvoice([ocrPage([...receipt, [20, 215, '10 % Theke Wurst'], [290, 215, '-0,18'], [20, 230, 'SUMME €'], [290, 230, '5:73', 0.54]])]);
    expect(values(colon).total).toBe(5.91);
    expect(colon.fields.total!.confidence).toBeLessThan(0.9);
    // a label with nothing readable after it is no second total
    expect(extractInvoice([ocrPage([...receipt, [20, 230, 'SUMME']])]).fields.total!.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('takes a street with its number for an address, never for the shop', () => {
    const r = extractInvoice([
      ocrPage([
        [60, 40, 'Senefelder Straße 2'],
        [60, 55, '33100 Paderborn'],
        [20, 120, 'Duschvorhang'],
        [300, 120, '29,98 A'],
        [20, 140, 'SUMME'],
        [300, 140, '29,98'],
      ]),
    ]);
    expect(r.fields.vendor_name?.value).not.toBe('Senefelder Straße 2');
  });
});

describe('a sender named in the footer only', () => {
  const doc = (footer: string) =>
    extractInvoice([
      page([
        [40, 20, 'Invoice No. 15293'],
        [40, 50, 'Client'],
        [40, 65, 'Fliis Trade, UAB'],
        [40, 80, 'Tax/VAT No.: LT100007828811'],
        [40, 150, 'Product code'],
        [140, 150, 'Product name and additional info'],
        [360, 150, 'Quantity'],
        [430, 150, 'Price'],
        [490, 150, 'Sum'],
        [40, 165, 'SERVER'],
        [140, 165, 'Server hosting'],
        [360, 165, '3 pcs'],
        [430, 165, '6,00'],
        [490, 165, '18,00'],
        [140, 178, 'Kaunas'],
        [400, 220, 'Total (EUR):'],
        [460, 220, '18,00'],
        [40, 760, footer],
        [250, 760, 'Tax/VAT No.: EE101103673'],
      ]),
    ]);

  it('is the footer company with its legal form, with its EU VAT id; a heading that begins with "Product name" heads the descriptions', () => {
    const r = doc('Sound and Vision OÜ');
    expect(values(r)).toMatchObject({ vendor_name: 'Sound and Vision OÜ', vendor_vat_id: 'EE101103673', customer_vat_id: 'LT100007828811' });
    expect(r.fields.vendor_name!.confidence).toBeLessThan(0.6);
    expect(r.lineItems.map(({ confidence: _, ...rest }) => rest)).toEqual([{ description: 'Server hosting Kaunas', quantity: 3, unit_price: 6, amount: 18 }]);
    expect(values(doc('Account Name: Contoso LTD')).vendor_name).toBe('Contoso LTD');
    // a footer line without a legal form names no one
    expect(values(doc('Thank you for your business')).vendor_name).toBeUndefined();
  });
});

describe('a German wholesaler invoice', () => {
  const runs: [number, number, string, number?][] = [
    [40, 20, 'Dachdecker-Einkauf Süd eG - Postfach 710252 - 68222 Mannheim', 7],
    [40, 35, 'Firma'],
    [40, 47, 'Raiffeisen Bezug +'],
    [40, 59, 'Absatz eG'],
    [40, 71, 'Gossetsweiler 101'],
    [40, 83, '88263 Horgenzell'],
    [60, 443, 'Summe Positionen'],
    [490, 443, '10,80'],
    [60, 455, 'Mehrwertsteuer'],
    [180, 455, '19,00'],
    [222, 455, '%'],
    [405, 455, '10,80'],
    [497, 455, '2,05'],
    [60, 467, 'Endbetrag'],
    [490, 467, '12,85'],
    [535, 467, 'EUR'],
    [60, 490, 'Im Endbetrag ist ein nichtskontierfähiger Anteil (Fracht, Leergut) von 2,72 EUR enthalten.'],
  ];

  it('reads the tax at the margin of a row with its rate and base, an amount with its currency set apart, and no value in the sentence under a label', () => {
    expect(values(extractInvoice([page(runs)]))).toMatchObject({ subtotal: 10.8, tax: 2.05, total: 12.85 });
  });

  it('skips "Firma" over the buyer and joins a name that ends in "+" with its next line', () => {
    expect(values(extractInvoice([page(runs)])).customer_name).toBe('Raiffeisen Bezug + Absatz eG');
  });
});

describe('currencies, headings and statements', () => {
  it('takes the code over the sign ("$5,270.00 AUD") and marks a currency read from a shared sign alone for a look', () => {
    const au = extractInvoice([
      page([
        [40, 20, 'ZESTADO EXPRESS'],
        [300, 60, 'Invoice Amount:'],
        [420, 60, '$5,270.00 AUD'],
      ]),
    ]);
    expect(values(au)).toMatchObject({ total: 5270, currency: 'AUD' });
    expect(au.fields.currency!.confidence).toBeGreaterThanOrEqual(0.6);
    const dollar = extractInvoice([
      page([
        [40, 20, 'ACME'],
        [300, 60, 'Total'],
        [420, 60, '$120.00'],
      ]),
    ]);
    expect(values(dollar).currency).toBe('USD');
    expect(dollar.fields.currency!.confidence).toBeLessThan(0.6);
    const us = extractInvoice([
      page([
        [40, 20, 'ACME'],
        [300, 60, 'Total'],
        [420, 60, '$120.00'],
        [40, 80, 'All amounts in USD'],
      ]),
    ]);
    expect(us.fields.currency!.confidence).toBeGreaterThanOrEqual(0.6);
  });

  it('never takes a country or a party heading ("Recipient") for the sender', () => {
    const r = extractInvoice([
      page([
        [40, 20, 'Australia', 14],
        [300, 20, 'Recipient', 14],
        [40, 60, 'Ocean Freight Charge'],
        [300, 60, '$1,500.00'],
      ]),
    ]);
    expect(['Australia', 'Recipient']).not.toContain(r.fields.vendor_name?.value);
  });

  it('reads the amount with cents before specks read as small numbers, and takes the total that the others add up to', () => {
    const r = extractInvoice([
      page([
        [40, 20, 'ZESTADO EXPRESS'],
        [300, 60, 'Invoice Amount:'],
        [420, 60, '$5,270.00'],
        [300, 200, 'TOTAL'],
        [420, 200, '$1,980.00 1 4'],
        [300, 400, 'TOTAL'],
        [420, 400, '$2,080.00'],
        [300, 600, 'TOTAL'],
        [420, 600, '$1,210.00'],
      ]),
    ]);
    expect(values(r).total).toBe(5270);
  });
});

describe('calibration on pages read by OCR', () => {
  it('asks for a look at amounts no sum checks and at names found once; a checked trio stays sure', () => {
    const unchecked = extractInvoice([
      ocrPage([
        [40, 20, 'Contoso Inn', 0.95, 16],
        [300, 200, 'Total'],
        [420, 200, '104.92'],
      ]),
    ]);
    expect(unchecked.fields.total!.confidence).toBeLessThan(0.6);
    expect(unchecked.fields.vendor_name!.confidence).toBeLessThan(0.6);
    const checked = extractInvoice([
      ocrPage([
        [40, 20, 'Contoso Inn', 0.95, 16],
        [300, 170, 'Subtotal'],
        [420, 170, '100.00'],
        [300, 185, 'Tax'],
        [420, 185, '4.92'],
        [300, 200, 'Total'],
        [420, 200, '104.92'],
      ]),
    ]);
    expect(checked.fields.total!.confidence).toBeGreaterThanOrEqual(0.9);
    // the same page with a text layer is not asked about
    expect(
      extractInvoice([
        page([
          [40, 20, 'Contoso Inn', 16],
          [300, 200, 'Total'],
          [420, 200, '104.92'],
        ]),
      ]).fields.total!.confidence,
    ).toBeGreaterThanOrEqual(0.6);
  });
});
