import { findLineItems } from '../../../../src/server/ai/extraction/line-items';
import { extractInvoice } from '../../../../src/server/ai/extraction/invoice';
import { indexPhrases } from '../../../../src/server/ai/extraction/phrases';
import { page } from './helpers';

const items = (runs: [number, number, string, number?][]) =>
  findLineItems(indexPhrases([page(runs)]).lines).items.map(({ confidence, ...rest }) => ({ ...rest, confidence: Math.round(confidence * 100) / 100 }));

describe('findLineItems on real-world table layouts', () => {
  it('joins a heading written over several lines ("Positions-" / "betrag" / "ohne USt.") and keeps notes, prices in words and sub-rows out of the lines', () => {
    expect(
      items([
        [470, 90, 'Positions-', 8],
        [470, 99, 'betrag', 8],
        [40, 105, 'Pos', 8],
        [150, 105, 'Beschreibung', 8],
        [260, 105, 'Nettopreis', 8],
        [350, 105, 'Menge', 8],
        [420, 105, 'USt.', 8],
        [470, 111, 'ohne', 8],
        [470, 120, 'USt.', 8],
        [40, 135, '1', 8],
        [150, 135, 'Wirkarbeit', 8],
        [260, 135, '0,0520', 8],
        [350, 135, '1000 KWH', 8],
        [420, 135, '19 %', 8],
        [480, 135, '52,00', 8],
        [150, 146, 'Bruttopreis : 0,0520', 8],
        [150, 157, 'Gültig ab 20.09.2018 15:39 Uhr bis 20.09.2018 17:39 Uhr', 8],
        [470, 168, '100,00', 8],
        [40, 190, '2', 8],
        [150, 190, 'Inklusiv-Kilometer waren: 873', 8],
        [40, 225, '3', 8],
        [150, 225, 'Vollkasko', 8],
        [260, 225, '23,1000', 8],
        [350, 225, '2', 8],
        [420, 225, '19 %', 8],
        [480, 225, '46,20', 8],
        [150, 260, 'Zahlungsbedingungen: 30 Tage', 8],
      ]),
    ).toEqual([
      {
        description: 'Wirkarbeit Bruttopreis : 0,0520 Gültig ab 20.09.2018 15:39 Uhr bis 20.09.2018 17:39 Uhr',
        quantity: 1000,
        unit_price: 0.052,
        amount: 52,
        confidence: 1,
      },
      { description: 'Vollkasko', quantity: 2, unit_price: 23.1, amount: 46.2, confidence: 1 },
    ]);
  });

  it('splits two headings run together ("VAT % Line Amount Excl. VAT"), joins "Unit Price Excl." over "VAT", and keeps an unnamed column (a date) out of the quantity', () => {
    expect(
      items([
        [220, 369, 'Shipment', 8],
        [330, 369, 'Unit Price Excl.', 8],
        [40, 379, 'No.', 8],
        [90, 379, 'Description', 8],
        [220, 379, 'Date', 8],
        [270, 379, 'Quantity', 8],
        [390, 379, 'VAT', 8],
        [430, 379, 'VAT % Line Amount Excl. VAT', 8],
        [40, 402, '1908-S', 8],
        [90, 402, 'LONDON Schreibtischstuhl,', 8],
        [220, 402, '02/17/26', 8],
        [290, 402, '3 Piece', 8],
        [385, 402, '191.00', 8],
        [440, 402, '19', 8],
        [530, 402, '573.00', 8],
        [90, 413, 'blau', 8],
        [340, 448, 'Subtotal', 8],
        [530, 448, '573.00', 8],
      ]),
    ).toEqual([{ description: 'LONDON Schreibtischstuhl, blau', quantity: 3, unit_price: 191, amount: 573, confidence: 1 }]);
  });

  it('reads "Amount | Product | VAT | Price | Total" as quantity, description, price and amount', () => {
    expect(
      items([
        [60, 396, 'Amount', 8],
        [120, 396, 'Product', 8],
        [290, 396, 'VAT', 8],
        [346, 396, 'Price', 8],
        [421, 396, 'Total', 8],
        [60, 415, '400.00', 8],
        [120, 415, 'Ballons: various colors,', 8],
        [290, 415, '19%', 8],
        [346, 415, '0.79 €', 8],
        [421, 415, '316.00 €', 8],
        [120, 428, '~ 2000ml', 8],
        [60, 447, '800.00', 8],
        [120, 447, 'Hot air (litres):', 8],
        [290, 447, '19%', 8],
        [346, 447, '0.025 €', 8],
        [421, 447, '20.00 €', 8],
        [57, 470, 'Net total: 336.00 €', 8],
      ]),
    ).toEqual([
      { description: 'Ballons: various colors, ~ 2000ml', quantity: 400, unit_price: 0.79, amount: 316, confidence: 1 },
      { description: 'Hot air (litres):', quantity: 800, unit_price: 0.025, amount: 20, confidence: 1 },
    ]);
  });

  it('works out a unit price the page leaves empty from the amount and the quantity, less sure (its amount on the row under it, unchecked)', () => {
    expect(
      items([
        [40, 85, 'Pos', 8],
        [150, 85, 'Beschreibung', 8],
        [300, 85, 'Nettopreis', 8],
        [360, 85, 'Menge', 8],
        [420, 85, 'Steuersatz', 8],
        [480, 85, 'Nettobetrag', 8],
        [40, 114, '1', 8],
        [150, 114, 'Stahlcoil', 8],
        [365, 114, '10 Stk', 8],
        [430, 114, '0 %', 8],
        [490, 123, '1.000,00', 8],
        [150, 145, 'Herkunftsland: DE', 8],
      ]),
    ).toEqual([{ description: 'Stahlcoil Herkunftsland: DE', quantity: 10, unit_price: 100, amount: 1000, confidence: 0.64 }]);
  });
});

describe('findLineItems: descriptions above their numbers, cells set close together, allowances', () => {
  it('gives a description printed over its numbers to the line under it, and splits "60,00 10,00%" into the amount and the tax rate', () => {
    expect(
      items([
        [50, 355, 'Ligne CODE ARTICLE, NOM & DESIGNATION', 7],
        [300, 356, 'P.U. HT (EUR)', 7],
        [386, 356, 'Qté', 7],
        [476, 351, 'TOTAL HT', 7],
        [526, 356, 'TVA', 7],
        [483, 360, '(EUR)', 7],
        [125, 379, 'PRESTATION SUPPORT', 7],
        [54, 384, '1', 7],
        [323, 384, '60,00', 7],
        [398, 384, '1,00', 7],
        [497, 384, '60,00 10,00%', 7],
        [125, 388, 'Période de décembre', 7],
        [125, 405, 'APPEL', 7],
        [54, 410, '3', 7],
        [327, 410, '5,00', 7],
        [398, 410, '1,00', 7],
        [501, 410, '5,00 10,00%', 7],
        [340, 440, 'Total HT', 7],
        [500, 440, '65,00', 7],
      ]),
    ).toEqual([
      { description: 'PRESTATION SUPPORT 1 Période de décembre', quantity: 1, unit_price: 60, amount: 60, confidence: 1 },
      { description: 'APPEL 3', quantity: 1, unit_price: 5, amount: 5, confidence: 1 },
    ]);
  });

  it('reads the words of an article-number cell that run into the description column as description, and an allowance under a line as no line', () => {
    expect(
      items([
        [40, 100, 'Pos', 8],
        [80, 100, 'Art-Nr', 8],
        [160, 100, 'Beschreibung', 8],
        [300, 100, 'Nettopreis', 8],
        [370, 100, 'Menge', 8],
        [480, 100, 'Betrag', 8],
        [40, 120, '3', 8],
        [160, 120, 'Kommissionierer', 8],
        [300, 120, '10,5000', 8],
        [370, 120, '27,5 Std', 8],
        [480, 120, '288,75', 8],
        [75, 131, '4260331811362 Muster', 8],
        [160, 142, 'Abschlag Direktbelieferung', 8],
        [480, 142, '-50,00', 8],
        [160, 175, 'Summe', 8],
        [480, 175, '288,75', 8],
      ]),
    ).toEqual([{ description: 'Kommissionierer Muster Abschlag Direktbelieferung', quantity: 27.5, unit_price: 10.5, amount: 288.75, confidence: 1 }]);
  });
});

describe('extractInvoice: an unlabelled issue date under the title, page numbers', () => {
  it('reads the date alone under "Invoice 103767" as the issue date (less sure), and never a page number as a party', () => {
    const r = extractInvoice([
      page([
        [57, 30, 'Invoice 103767', 14],
        [57, 57, 'February 17, 2026', 10],
        [57, 71, 'Page 1 / 1', 10],
        [57, 111, 'Adatum Corporation', 10],
        [480, 111, 'CRONUS DE', 10],
        [57, 126, 'Station Road, 21', 10],
        [480, 126, 'Hofstraße 12', 10],
      ]),
    ]);
    expect(r.fields.invoice_number).toEqual({ value: '103767', confidence: 0.8 });
    expect(r.fields.invoice_date).toEqual({ value: '2026-02-17', confidence: 0.7, raw: 'February 17, 2026' });
    expect(Object.values(r.fields).map((f) => f?.value)).not.toContain('Page 1 / 1');
  });
});

describe('extractInvoice: a date inside a sentence is not the value of its label', () => {
  it('abstains on "Fälligkeit 06.12.2018 den Beitrag … abbuchen" and reads "Fälligkeit: 20.12.2018"', () => {
    const prose = extractInvoice([
      page([
        [57, 30, 'Rechnung Nr. 4711 vom 01.12.2018', 12],
        [70, 133, 'Fälligkeit 06.12.2018 den Beitrag von dem uns bekannten Konto abbuchen.', 9],
      ]),
    ]);
    expect(prose.fields.due_date).toBeUndefined();
    const labelled = extractInvoice([
      page([
        [57, 30, 'Rechnung Nr. 4711 vom 01.12.2018', 12],
        [70, 133, 'Fälligkeit: 20.12.2018', 9],
      ]),
    ]);
    expect(labelled.fields.due_date?.value).toBe('2018-12-20');
  });
});

describe('rows that end a line table', () => {
  const rows: [number, number, string, number?][] = [
    [40, 120, 'Hotel room, two nights'],
    [300, 120, '2'],
    [360, 120, '80.00'],
    [460, 120, '160.00'],
    [40, 135, 'Taxi ride to the airport'],
    [300, 135, '1'],
    [360, 135, '45.00'],
    [460, 135, '45.00'],
    [40, 150, 'Discounted room upgrade'],
    [300, 150, '1'],
    [360, 150, '12.50'],
    [460, 150, '12.50'],
    [40, 175, 'Total'],
    [460, 175, '217.50'],
  ];
  const lines = [
    { description: 'Hotel room, two nights', quantity: 2, unit_price: 80, amount: 160 },
    { description: 'Taxi ride to the airport', quantity: 1, unit_price: 45, amount: 45 },
    { description: 'Discounted room upgrade', quantity: 1, unit_price: 12.5, amount: 12.5 },
  ];
  const read = (r: { lineItems: { description: string; quantity?: number; unit_price?: number; amount?: number }[] }) =>
    r.lineItems.map(({ description, quantity, unit_price, amount }) => ({ description, quantity, unit_price, amount }));

  it('a line whose description only begins like a totals word ("Taxi", "Discounted") is a line, under a heading or none', () => {
    const headed = extractInvoice([page([[40, 100, 'Description'], [300, 100, 'Qty'], [360, 100, 'Unit price'], [460, 100, 'Amount'], ...rows])]);
    expect(read(headed)).toEqual(lines);
    expect(read(extractInvoice([page(rows)]))).toEqual(lines);
  });
});

describe('a heading the vocabulary does not know', () => {
  it('is the amount when it is the last of a header with a description, a quantity and a unit price but no amount', () => {
    const rows: [number, number, string, number?][] = [
      [40, 120, 'A23'],
      [120, 120, 'Holzdiele'],
      [260, 120, '5'],
      [330, 120, '50,00 EURO'],
      [450, 120, '250,00 EURO'],
      [40, 135, '245'],
      [120, 135, 'Malen'],
      [260, 135, '2'],
      [330, 135, '30,00 EURO'],
      [450, 135, '60,00 EURO'],
    ];
    const header = (last: string): [number, number, string, number?][] => [
      [40, 100, 'ARTIKELNR'],
      [120, 100, 'PRODUKT'],
      [260, 100, 'MENGE'],
      [330, 100, 'EINZELPREIS'],
      [450, 100, last],
    ];
    // as printed on a real invoice ("GESSAMTPRES"), with a numeric article number in its own column
    expect(items([...header('GESSAMTPRES'), ...rows]).map(({ description, amount }) => [description, amount])).toEqual([
      ['Holzdiele', 250],
      ['Malen', 60],
    ]);
    // a number or a mark there is no heading
    expect(items([...header('12.5'), ...rows])).toEqual(items(rows));
  });
});
