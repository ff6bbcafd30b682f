import { extractInvoice } from '../../../../src/server/ai/extraction/invoice';
import { expectFields, ocrPage, page } from './helpers';

// Pages laid out by hand as the round-ten dev documents of the real corpus print them
// (tests/fixtures/real-invoices/README.md): each rule below failed on its page before it was made.

describe('senders, buyers and numbers', () => {
  it('reads a return address parted by spaces only over the window, a "Rechnungs.-Nr." and a VAT id printed in groups of three', () => {
    const r = extractInvoice([
      page([
        [36, 139, 'MADISON Hotel GmbH Schaarsteinweg 4 20459 Hamburg', 7],
        [36, 168, 'APImeister Consulting GmbH', 9],
        [36, 179, 'Friedrichstr. 123', 9],
        [36, 189, '10117 Berlin', 9],
        [360, 230, 'RECHNUNG'],
        [360, 245, 'Rechnungs.-Nr. 508189 / Anreise : 04.08.19'],
        [360, 260, 'Datum: 09.08.19'],
        [36, 300, 'Datum'],
        [100, 300, 'Beschreibung'],
        [480, 300, 'Belastung'],
        [36, 315, '04.08.19'],
        [100, 315, 'Übernachtung'],
        [490, 315, '110.00'],
        [36, 330, '09.08.19'],
        [100, 330, 'Beleg Nr. : 39335'],
        [300, 360, 'Total'],
        [490, 360, '110.00'],
        [36, 780, 'Germany madisonhotel.de VAT: DE118 696 407', 8],
      ]),
    ]);
    expectFields(r, {
      invoice_number: '508189',
      vendor_name: 'MADISON Hotel GmbH',
      customer_name: 'APImeister Consulting GmbH',
      vendor_vat_id: 'DE118696407',
    });
  });

  it('takes a travel receipt’s booking reference, never a flight’s line for its sender, and the total after a zero tax column', () => {
    const r = extractInvoice([
      page([
        [40, 40, 'Travel Receipt'],
        [300, 40, 'Booking reference: KQMDM9'],
        [40, 80, 'Product description'],
        [330, 80, 'VAT (EUR)'],
        [460, 80, 'Total (EUR)'],
        [40, 95, 'San Francisco-Oakland - Tallinn PremiumFlex'],
        [330, 95, '0.00 (0%)'],
        [470, 95, '954.77'],
        [40, 110, 'DY4551 Stockholm-Arlanda - Tallinn - 14 May. 2019 18:50'],
        [40, 125, 'Passenger Charge (YA)'],
        [330, 125, '0.00 (0%)'],
        [476, 125, '51.72'],
        [40, 150, 'Total Amount'],
        [330, 150, '0.00'],
        [470, 150, '1006.49'],
        [40, 700, 'Norwegian Air Shuttle - PB 115, N-1366 Lysaker, Norway - Tel: +47 2149 0015', 8],
      ]),
    ]);
    expectFields(r, { invoice_number: 'KQMDM9', vendor_name: 'Norwegian Air Shuttle', total: 1006.49 });
  });

  it('never takes a "Name & Adresse" heading for the buyer, and names the company that the foot of the page names twice', () => {
    const r = extractInvoice([
      ocrPage([
        [60, 40, 'Hamburg City (Zentrum)', 0.95, 14],
        [60, 60, 'Willy-Brandt-Straße 21'],
        [60, 75, '20457 Hamburg'],
        [60, 140, 'Name & Adresse'],
        [60, 155, 'APIMEISTER CONSULTING GmbH'],
        [60, 170, 'Friedrichstr. 123'],
        [60, 185, '10117 Berlin'],
        [330, 210, 'Rechnungsnummer GABCI19014325'],
        [60, 500, 'Gesamt (Rechnungsbetrag) EUR 550,60'],
        [60, 800, 'Premier Inn GmbH ist ein Mitglied der Whitbread Group PLC Gruppe.', 0.95, 8],
        [60, 812, 'Sitz der Premier Inn GmbH:', 0.95, 8],
        [60, 824, 'Friedrich-Ebert-Anlage 49, 60308 Frankfurt am Main.', 0.95, 8],
      ]),
    ]);
    expectFields(r, { vendor_name: 'Premier Inn GmbH', customer_name: 'APIMEISTER CONSULTING GmbH', total: 550.6 });
  });

  it('passes over a colon set apart after a label, and reads a VAT id after its key however its digits are spaced', () => {
    const r = extractInvoice([
      ocrPage([
        [60, 40, 'Ibis Styles Konstanz', 0.95, 14],
        [60, 200, 'Rechnungsnr.'],
        [190, 200, ':'],
        [230, 200, '9282-52756'],
        [400, 200, 'Datum'],
        [470, 200, ':'],
        [490, 200, '02.10.18'],
        [60, 850, 'USt.IdNr: DE 173 52 7 162', 0.95, 8],
      ]),
    ]);
    expectFields(r, { invoice_number: '9282-52756', invoice_date: '2018-10-02', vendor_vat_id: 'DE173527162' });
  });
});

describe('totals and values of till slips', () => {
  it('reads "Gesamt EUR inkl. MwSt." and "Gesamt EUR ohne MwSt," with the currency between the words', () => {
    const r = extractInvoice([
      ocrPage([
        [60, 40, 'WARDOW GmbH - Nauener Straße 3 - 14641 Wustermark', 0.95, 8],
        [300, 400, 'Gesamt EUR inkl. MwSt.'],
        [520, 400, '110,26'],
        [300, 415, '19% MwSt.'],
        [526, 415, '17,60'],
        [300, 430, 'Gesamt EUR ohne MwSt,'],
        [526, 430, '92,66'],
      ]),
    ]);
    expectFields(r, { subtotal: 92.66, tax: 17.6, total: 110.26 });
  });

  it('takes what a taxi slip says was paid for its total, a tax breakdown with the tax first, and the number and date under one heading row', () => {
    const r = extractInvoice([
      ocrPage([
        [40, 40, 'TODOROVIC Dragan', 0.95, 14],
        [40, 60, 'Taxiunternehmen'],
        [40, 75, 'A-1300 Wien-Flughafen'],
        [40, 120, 'BARBELEG'],
        [40, 140, 'Beleg Trans'],
        [250, 140, 'Zeit Datum'],
        [40, 155, '0927'],
        [130, 155, '5593'],
        [250, 155, '13:00 14/12/23'],
        [40, 200, 'Fahrpreis'],
        [300, 200, '66,60'],
        [40, 220, 'BEZAHLT (EUR):'],
        [300, 220, '66,60'],
        [40, 260, 'MWSt EUR Netto Brutto'],
        [40, 275, 'A 10%:'],
        [150, 275, '6,05'],
        [220, 275, '60,55'],
        [300, 275, '66,60'],
      ]),
    ]);
    expectFields(r, { invoice_number: '0927', invoice_date: '2023-12-14', subtotal: 60.55, tax: 6.05, total: 66.6 });
  });

  it('reads a Québec bill’s "ADDITION #", and no number from a time stamp’s line or amount from a tax registration number', () => {
    const r = extractInvoice([
      ocrPage([
        [40, 40, 'Ben & Florentine 13', 0.95, 14],
        [40, 60, '1215 MANSFIELD'],
        [40, 100, 'ADDITION #593603-1'],
        [40, 130, '1 OEUFS CHOR PAIN DORE'],
        [300, 130, '$13.75'],
        [40, 160, 'TOTAL'],
        [300, 160, '$15.81'],
        [40, 200, 'TVA : 773004126 RT0001'],
        [40, 240, 'FACTURE ORIGINALE'],
        [40, 255, 'le 018-09-27 08:16: 54'],
      ]),
    ]);
    expectFields(r, { invoice_number: '593603-1', tax: undefined, total: 15.81 });
    const stamp = extractInvoice([
      ocrPage([
        [40, 40, 'Ben & Florentine 13', 0.95, 14],
        [40, 160, 'TOTAL'],
        [300, 160, '$15.81'],
        [40, 240, 'FACTURE ORIGINALE'],
        [40, 255, 'le 018-09-27 08:16: 54'],
      ]),
    ]);
    expectFields(stamp, { invoice_number: undefined });
  });

  it('reads a restaurant’s "Check number", the currency after a total’s words ("Total HKD :"), and no name from a speck read unsure', () => {
    const slip = extractInvoice([
      ocrPage([
        [60, 40, 'Bastard Burgers Hötorget', 0.95, 14],
        [60, 60, 'Hötorget 2-4'],
        [60, 100, 'Check number 3047 2024-02-08 18:01'],
        [60, 130, '1 South West Meal'],
        [300, 130, '185.00'],
        [60, 160, 'Total'],
        [300, 160, '185.00'],
      ]),
    ]);
    expectFields(slip, { invoice_number: '3047', total: 185 });
    const folio = extractInvoice([
      ocrPage([
        [60, 20, 'OZO Wesley Hong Kong', 0.95, 14],
        [60, 60, 'YOUR BILL'],
        [60, 80, 'li', 0.13],
        [60, 300, '06-07-19 Accommodation'],
        [400, 300, '1,125.00'],
        [250, 330, 'Total HKD :'],
        [400, 330, '1,125.00'],
      ]),
    ]);
    expectFields(folio, { currency: 'HKD', customer_name: undefined, total: 1125 });
  });

  it('finds an amount far right of its label where the label’s line runs at the page’s skew, a line lower', () => {
    // every word 0.0265 px lower per px to the right, as on a page scanned askew
    const askew = (runs: [number, number, string][]): [number, number, string, number, number][] =>
      runs.flatMap(([x, y, text]) => {
        const out: [number, number, string, number, number][] = [];
        let at = x;
        for (const word of text.split(' ')) {
          out.push([at, Math.round(y + 0.0265 * at), word, 0.95, 19]);
          at += (word.length + 1) * 19 * 0.6;
        }
        return out;
      });
    const r = extractInvoice([
      {
        ...ocrPage(
          askew([
            [130, 100, 'Gardiner & Theobald LLP'],
            [130, 300, 'Provision of Project Management Services relative to Estates Strategy'],
            [130, 400, 'Sub Total Exclusive of VAT'],
            [960, 400, '25,474.00'],
            [130, 445, 'Value Added Tax @ 20%'],
            [960, 445, '5,094.80'],
            [130, 490, 'TOTAL AMOUNT DUE'],
            [940, 490, '£30,568.80'],
            [130, 600, 'Cheques to be made payable to Gardiner Theobald LLP alternatively'],
            [130, 640, 'payment may be made directly to our bank account'],
          ]),
        ),
        width: 1240,
        height: 1754,
      },
    ]);
    expectFields(r, { subtotal: 25474, tax: 5094.8, total: 30568.8 });
  });

  it('takes the one company the foot of a scanned slip names with its legal form for the brand over it, never a bank or the buyer', () => {
    const slip = (foot: [number, number, string][]) =>
      extractInvoice([ocrPage([[200, 40, 'PAUL', 0.95, 24], [60, 120, '1 CAPPUCCINO'], [300, 120, '3,60'], [60, 150, 'TOTAL'], [300, 150, '3,60'], ...foot])]);
    expectFields(
      slip([
        [60, 700, 'SA LE MONDE DU PAIN NV'],
        [60, 715, 'Borsbeeksebrug 34 bus 4'],
        [60, 730, 'B-2600 Berchem'],
      ]),
      { vendor_name: 'LE MONDE DU PAIN NV' },
    );
    expectFields(slip([[60, 700, 'HSBC Bank PLC Sort Code 40-02-02']]), { vendor_name: 'PAUL' });
    expectFields(
      slip([
        [60, 700, 'LE MONDE DU PAIN NV'],
        [60, 715, 'Payable to Gardiner Theobald LLP'],
      ]),
      { vendor_name: 'PAUL' },
    );
  });

  it('reads "2 x Priority Boarding" on a priced row as two of them, with no quantity column', () => {
    const r = extractInvoice([
      page([
        [40, 80, 'Product description'],
        [460, 80, 'Total (EUR)'],
        [40, 95, 'Premium Menü'],
        [476, 95, '0.00'],
        [40, 110, '2 x Priority Boarding'],
        [476, 110, '0.00'],
        [40, 125, '2 x YQ Tax'],
        [470, 125, '18.00'],
        [40, 150, 'Total Amount'],
        [470, 150, '18.00'],
      ]),
    ]);
    expect(r.lineItems.map((l) => [l.description, l.quantity, l.amount])).toEqual([
      ['Premium Menü', undefined, 0],
      ['Priority Boarding', 2, 0],
      ['YQ Tax', 2, 18],
    ]);
  });
});
