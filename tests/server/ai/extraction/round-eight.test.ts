/**
 * Layouts from the eighth round of real documents (issue 20, chosen on its dev documents): a
 * Dutch SAP invoice (a post-office box in the return-address line, "Factuurontvanger", "BTW
 * plichtig bedrag", a rate with its "%" set apart), a French platform's form view (typographic
 * hyphens, "Nom du vendeur / de l'acheteur"), a LaTeX invoice (both parties' VAT ids in their
 * address blocks, rows set far apart), a billing service's invoice whose terms open with
 * "Seller's", line tables whose headings run together or name a description and a price alone, and
 * hotel folios (Date | Description | Charges | Credits, a payment in a column not kept).
 */
import { findLineItems } from '../../../../src/server/ai/extraction/line-items';
import { indexPhrases } from '../../../../src/server/ai/extraction/phrases';
import { expectFields, extractCorpusPdf, page } from './helpers';

const extract = extractCorpusPdf;
const lines = (runs: [number, number, string, number?][]) => findLineItems(indexPhrases([page(runs)]).lines).items.map(({ confidence: _, ...line }) => line);

describe('a Dutch SAP invoice (Lenze, dev)', () => {
  it('reads the sender from its return-address line with a post-office box, the recipient by its heading, and the totals by their Dutch labels', async () => {
    const r = await extract('nl-lenze-98559514.pdf');
    expectFields(r, {
      invoice_number: '98559514',
      invoice_date: '2017-02-16',
      vendor_name: 'Lenze B.V.',
      customer_name: 'Supertape B.V.',
      vendor_vat_id: 'NL004271920B01',
      customer_vat_id: 'NL001901308B01',
      currency: 'EUR',
      // "BTW plichtig bedrag 554,82", "Af te dragen BTW | 21,00 | % | 116,51", "Rekeningsbedrag 671,33"
      subtotal: 554.82,
      tax: 116.51,
      total: 671.33,
    });
    expect(r.fields.total?.confidence).toBeGreaterThanOrEqual(0.9);
  });
});

describe("a French platform's form view (Iopole sandbox, dev)", () => {
  it('reads a number and dates printed with typographic hyphens, and the parties after "Nom du vendeur" and "Nom de l\'acheteur"', async () => {
    const r = await extract('fr-iopole-sandbox-jdz7fEbj4Va.pdf');
    expectFields(r, {
      invoice_number: 'IOPOLE-jdz7fEbj4Va',
      invoice_date: '2026-08-18',
      due_date: '2026-08-25',
      vendor_name: 'COMPAGNIE TIRE PAS LA NAPPE',
      customer_name: 'LES COACHS SOLIDAIRES',
      subtotal: 972,
      tax: 194.4,
      total: 1166.4,
    });
    // "Somme des montants nets des lignes de facture 972,00" is a total, not a line
    expect(r.lineItems.map((l) => l.description)).not.toContain('Somme des montants nets des lignes de facture');
  });
});

describe('a LaTeX invoice (Yoyodyne, dev)', () => {
  it('takes the second address block, with a VAT id under its name, for the buyer, and reads table rows set far apart', async () => {
    const r = await extract('en-yoyodyne-20-A0091.pdf');
    expectFields(r, { vendor_name: 'Yoyodyne Inc', customer_name: 'Erika Mustermann', customer_vat_id: 'DE837566332' });
    expect(r.fields.customer_address?.value).toBe('Musterallee 1, 12345 Musterstadt, Germany');
    expect(r.lineItems.map((l) => [l.description, l.quantity, l.unit_price, l.amount])).toEqual([
      ['Miscellaneous aerospace supplies', 7, 320.33, 2668.35],
      ['Tristero System installation and callibration', 1, 7120, 8472.8],
    ]);
  });
});

describe("a billing service's invoice (Invoiced, dev)", () => {
  it('never takes "Seller\'s commencement of work …" in its terms for a seller label', async () => {
    const r = await extract('en-invoiced-INV-102993.pdf');
    expectFields(r, { vendor_name: 'Dunder Mifflin, Inc.', customer_name: 'Sherlock Holmes1' });
  });
});

describe('line-table headers', () => {
  it('splits headings run together into one phrase ("UNIT PRICE QUANTITY TOTAL PRICE") and knows "Item Code" and "Item Desc."', () => {
    expect(
      lines([
        [40, 100, 'Item Code'],
        [120, 100, 'Item Desc.'],
        [260, 100, 'UNIT PRICE QUANTITY TOTAL PRICE'],
        [40, 120, 'MA197'],
        [120, 120, 'STRETCHWRAP ROLL'],
        [260, 120, '16.62'],
        [340, 120, '5'],
        [430, 120, '83.10'],
      ]),
    ).toEqual([{ description: 'STRETCHWRAP ROLL', quantity: 5, unit_price: 16.62, amount: 83.1 }]);
  });

  it('reads a header of a description and a price alone, the price as the amount ("Pos. Beschreibung | Preis")', () => {
    expect(
      lines([
        [40, 100, 'Pos. Beschreibung'],
        [400, 100, 'Preis'],
        [40, 120, '1. Beratung'],
        [394, 120, '200,00€'],
        [40, 135, '2. Reisekosten'],
        [394, 135, '150,20€'],
        [340, 155, 'Summe:'],
        [394, 155, '350,20€'],
      ]).map((l) => l.amount),
    ).toEqual([200, 150.2]);
  });

  it('cuts a count and its unit off a description that starts left of its centred heading ("3 unid Stock útiles")', () => {
    expect(
      lines([
        [40, 100, 'CÓDIGO CANTIDAD'],
        [200, 100, 'DESCRIPCIÓN'],
        [330, 100, 'PRECIO UNIT.'],
        [450, 100, 'TOTAL ITEM'],
        [40, 120, '00002'],
        [90, 120, '3 unid Stock útiles y papelería'],
        [340, 120, '2.000'],
        [460, 120, '6.000'],
        [40, 135, '00026'],
        [100, 135, '2 Honorarios abogados'],
        [340, 135, '3.500'],
        [460, 135, '7.000'],
      ]),
    ).toEqual([
      { description: 'Stock útiles y papelería', quantity: 3, unit_price: 2000, amount: 6000 },
      { description: 'Honorarios abogados', quantity: 2, unit_price: 3500, amount: 7000 },
    ]);
  });
});

describe("a hotel folio's charges", () => {
  it('reads "Date | Description | Charges | Credits" as a header, a payment in the credits column as no line, and the card number under it as no description', () => {
    expect(
      lines([
        [40, 100, 'Date'],
        [120, 100, 'Description'],
        [400, 100, 'Charges'],
        [500, 100, 'Payments'],
        [40, 120, '14.05.19'],
        [120, 120, 'Accommodation Charge'],
        [406, 120, '192.00'],
        [40, 135, '15.05.19'],
        [120, 135, 'Accommodation Charge'],
        [406, 135, '194.00'],
        [40, 150, '18.05.19'],
        [120, 150, 'Euro / Mastercard EFT'],
        [506, 150, '386.00'],
        [120, 165, '531000XXXXXX5052 10/20'],
      ]),
    ).toEqual([
      { description: 'Accommodation Charge', amount: 192 },
      { description: 'Accommodation Charge', amount: 194 },
    ]);
  });

  it('takes words set left of a centred "Concepto" heading, in a column not kept, for the description, and a number OCR read with a "]" after it', () => {
    expect(
      lines([
        [40, 100, 'Fecha'],
        [150, 100, 'Habitación'],
        [330, 100, 'Concepto'],
        [450, 100, 'Cargo'],
        [520, 100, 'Abono'],
        [40, 120, '16/09/19'],
        [160, 120, '606'],
        [230, 120, 'Habitación'],
        [456, 120, '168,30'],
        [40, 135, '19/09/19'],
        [160, 135, '608'],
        [230, 135, 'Angelita'],
        [456, 135, '217,80]'],
      ]),
    ).toEqual([
      { description: 'Habitación', amount: 168.3 },
      { description: 'Angelita', amount: 217.8 },
    ]);
  });
});
