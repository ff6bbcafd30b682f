import { extractInvoice } from '../../../../src/server/ai/extraction/invoice';
import { expectFields, ocrPage, slipPage } from './helpers';

// Pages laid out by hand as the round-thirteen dev scans of the real corpus print them
// (tests/fixtures/real-invoices/README.md): each rule below failed on its page before it was made.

/** A scanned till slip (300 × 1200 px) from [x, y, text, size?] runs, extracted. */
const slip = (runs: [number, number, string, number?][]) => extractInvoice([slipPage(runs, 1200)]);

describe('a German DIY store’s slip', () => {
  // the sum printed in double height under its label, the tax's row with its class letter and net, the VAT id under it
  const obi = () =>
    slip([
      [20, 40, 'OBI GmbH&Co. Deutschland KG', 10],
      [20, 55, 'Miltitzer Str. 13'],
      [20, 70, '04178 Leipzig'],
      [20, 100, '06493 06 3793 0060 04.10.2022 09:03:13'],
      [20, 130, '4007872523763 Flachkreppturm'],
      [20, 145, '1 ST B'],
      [240, 145, '5,99'],
      [20, 160, '5411183117730 OBI Bau-Silikon'],
      [20, 175, '1 ST B'],
      [240, 175, '22,07'],
      [20, 200, 'Endsumme in €'],
      [200, 214, '28,06', 22],
      [20, 260, 'MasterCard'],
      [240, 260, '28,06'],
      [20, 400, 'Die Endsumme enthält an MwSt'],
      [20, 415, '19,00 % MwSt'],
      [110, 415, 'B'],
      [160, 415, '23,58'],
      [240, 415, '4,48'],
      [20, 440, 'USt-IdNr.: DE 123711890'],
    ]);

  it('reads the sum printed large under "Endsumme in €" as the total', () => {
    expectFields(obi(), { total: 28.06 });
  });

  it('reads the tax of a rate’s row whose net stands after a tax class’s letter, and no amount from the VAT id under it', () => {
    expectFields(obi(), { tax: 4.48, subtotal: 23.58, vendor_vat_id: 'DE123711890' });
  });
});

describe('a VAT id under a tax’s label', () => {
  it('takes no amount from a VAT id printed under a tax’s label', () => {
    const r = slip([
      [20, 40, 'OBI GmbH&Co. Deutschland KG', 10],
      [20, 200, 'SUMME EUR'],
      [240, 200, '28,06'],
      [20, 415, 'MwSt 19%'],
      [20, 430, 'USt-IdNr.: DE 123711890'],
    ]);
    expect(r.fields.tax?.value).toBeUndefined();
    expectFields(r, { vendor_vat_id: 'DE123711890' });
  });
});

describe('a US supermarket slip', () => {
  it('reads a row whose amount is followed by its tax flag ("4.99 S", "4.99 §" as OCR reads the S)', () => {
    const r = slip([
      [40, 30, 'SAFEWAY', 30],
      [40, 100, '645 San Antonio Road'],
      [40, 120, 'MOUNTAIN VIEW CA 94040'],
      [40, 200, 'GROCERY'],
      [40, 230, 'SAHALE TANGERINE 1.25 S'],
      [40, 260, 'BAKED GOODS'],
      [40, 290, 'COOKIES OATMEAL RAAC 4.99 §'],
      [40, 320, 'PRODUCE'],
      [40, 350, 'KIWI PINEAPPLE 4.99 F'],
      [40, 380, 'TAX 0.00'],
      [40, 410, '**** BALANCE 11.23'],
    ]);
    expect(r.lineItems.map((l) => [l.description, l.amount])).toEqual([
      ['SAHALE TANGERINE', 1.25],
      ['COOKIES OATMEAL RAAC', 4.99],
      ['KIWI PINEAPPLE', 4.99],
    ]);
    expectFields(r, { total: 11.23 });
  });
});

describe('a German fuel station’s slip', () => {
  it('reads the litres and the price per litre under the fuel’s row, and leaves the till’s article number out of its name', () => {
    const r = slip([
      [20, 40, 'Aral Tankstelle', 24],
      [20, 80, 'Ludwig-Landmann-Straße 90'],
      [20, 95, '60488 Frankfurt a.M.'],
      [20, 130, 'Beleg-Nr. 6229/016/00001 21.08.20 15:22'],
      [20, 170, '#000003 Diesel 36,07 EUR Ax'],
      [20, 185, '*Zp 07 33,43 1 1,079 EUR/1 *'],
      [20, 220, 'Gesamtbetrag 36,07 EUR'],
    ]);
    expect(r.lineItems.map((l) => ({ description: l.description, quantity: l.quantity, unit_price: l.unit_price, amount: l.amount }))).toEqual([
      { description: 'Diesel', quantity: 33.43, unit_price: 1.079, amount: 36.07 },
    ]);
  });
});

describe('a card slip’s caption', () => {
  it('never reads "Customer Copy" as a customer named "Copy"', () => {
    const r = slip([
      [20, 40, 'Shell Maybury', 12],
      [20, 60, '166 Glasgow Road, Edinburgh'],
      [20, 100, 'Regular Diesel £ 33.59 E'],
      [20, 130, 'Total £ 33.59'],
      [20, 200, '2019-08-30 19:10:40'],
      [20, 230, 'Customer Copy'],
      [20, 260, 'Terminal ID : 05048702'],
    ]);
    expect(r.fields.customer_name).toBeUndefined();
  });
});

describe('a hotel bill with no date of its own', () => {
  const folio = (dateRow: [number, number, string][]) =>
    extractInvoice([
      ocrPage([
        [60, 170, 'OZO Wesley Hong Kong 22 Hennessy Road, Wanchai, Hong Kong'],
        [60, 370, 'INFORMATION INVOICE'],
        [400, 483, 'Confirmation No. 5056563'],
        [400, 528, 'Room No. 2109'],
        [400, 568, 'Arrival 06.07.19 09:13'],
        [400, 612, 'Departure 13-07-19'],
        ...dateRow.map(([x, y, t]) => [x, y, t] as [number, number, string]),
        [60, 887, 'Date'],
        [60, 948, '06-07-19 Accommodation'],
        [480, 948, '1,125.00'],
        [60, 1543, 'Total HKD :'],
        [480, 1543, '1,125.00'],
      ]),
    ]).fields.invoice_date?.value;

  it('takes the departure date for the bill’s date, not the first posting’s under the folio’s "Date" column', () => {
    expect(folio([])).toBe('2019-07-13');
  });

  it('keeps a date the bill gives as its own', () => {
    expect(folio([[60, 420, 'Date: 10.07.19']])).toBe('2019-07-10');
  });
});

describe('a Hilton folio’s number', () => {
  it('keeps the window’s letter of a folio number alone in its cell ("797026 A")', () => {
    const r = extractInvoice([
      ocrPage([
        [60, 40, 'PARC 55 SAN FRANCISCO', 0.95, 16],
        [60, 244, 'Arrival Date: 5/10/2019 1:46:00 PM'],
        [400, 600, 'Folio No.'],
        [400, 615, '797026 A'],
        [60, 700, 'BALANCE'],
        [480, 700, '$663.08'],
      ]),
    ]);
    expectFields(r, { invoice_number: '797026 A' });
  });
});

describe('a shop’s slip whose letterhead OCR read poorly', () => {
  it('never takes a street with a range of numbers, nor a postcode and town, for the sender', () => {
    const r = extractInvoice([
      ocrPage(
        [
          [20, 216, 'IC', 0.69, 33],
          [20, 486, 'DECATHLON LEIPZIG PETERSBOGEN', 0.9, 30],
          [20, 528, 'Petersstraße 36-44', 0.68, 31],
          [20, 571, '04109 Leipzig', 0.92, 36],
          [20, 906, 'RS 500 MID X3 BLACK 43/46', 0.91, 28],
          [700, 955, '6.99€', 0.85, 30],
          [20, 1088, 'Gesamt 6.99€', 0.91, 30],
          [20, 2215, 'DECATHLON Deutschland SE & Co KG Filsallee 19, 73207', 0.68, 31],
          [20, 2256, 'Plochingen, Deutschland , USt-IdNr. DE 124 645 601 ,', 0.78, 30],
        ],
        { width: 930, height: 3200 },
      ),
    ]);
    expect(r.fields.vendor_name?.value).not.toMatch(/Petersstraße|04109/);
  });
});

describe('a Canadian slip', () => {
  it('reads the GST/HST number (a business number and its RT account) as the vendor’s tax id', () => {
    const vat = (line: string) =>
      slip([
        [20, 40, 'METRO', 24],
        [20, 80, '1 Avenue du Mont-Royal, Montréal'],
        [20, 200, 'TOTAL'],
        [240, 200, '14,91'],
        [20, 250, line],
        [20, 265, 'TVQ 1202454191 TQ 0001'],
      ]).fields.vendor_vat_id?.value;
    expect(vat('TPS 865143622 RT 0001')).toBe('865143622RT0001');
    expect(vat('GST/HST# 815579586RT0001')).toBe('815579586RT0001');
  });
});
