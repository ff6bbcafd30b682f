/**
 * Layouts from the seventh round of real documents (issue 20, chosen on its dev documents): a
 * Mexican CFDI (Serie/Folio, RFC, "Datos del emisor / receptor", "ISR Retenido", tax detail rows
 * under each line), a Canary Islands invoice (IGIC, a withholding taken off the total, a
 * right-aligned client block, lines with an amount alone), a French hotel invoice (the buyer's
 * VAT id under its address, "nº" under a large title, "Date limite de règlement"), and dates with
 * month names in every language the extractor reads.
 */
import { findDates } from '../../../../src/server/ai/extraction/date';
import { extractInvoice } from '../../../../src/server/ai/extraction/invoice';
import { expectFields, extractCorpusPdf, page } from './helpers';

const extract = extractCorpusPdf;
const lines = (r: ReturnType<typeof extractInvoice>) => r.lineItems.map(({ confidence: _, ...line }) => line);

describe('dates with month names', () => {
  it('reads them in English, German, French, Dutch, Spanish, Italian and Portuguese, and an ISO date with its time', () => {
    const read = (text: string) => findDates(text).map((d) => d.iso);
    expect(read('le 20 septembre 2023')).toEqual(['2023-09-20']);
    expect(read('1er janvier 2024, 10 déc. 2023')).toEqual(['2024-01-01', '2023-12-10']);
    expect(read('Stand: 31. Dezember 2022; 5. März 2024')).toEqual(['2022-12-31', '2024-03-05']);
    expect(read('3 maart 2023')).toEqual(['2023-03-03']);
    expect(read('12 de enero de 2024')).toEqual(['2024-01-12']);
    expect(read('15 gennaio 2024')).toEqual(['2024-01-15']);
    expect(read('7 de março de 2022')).toEqual(['2022-03-07']);
    expect(read('Dezember 5, 2024')).toEqual(['2024-12-05']);
    expect(read('Fecha y hora de emisión 2017-07-05T09:09:23')).toEqual(['2017-07-05']);
    // a month's name inside a word is none
    expect(read('12 marcos 2024')).toEqual([]);
  });
});

describe('a Mexican CFDI (nodecfdi’s printed CFDI 3.3, dev)', () => {
  it('reads its folio, emission date, parties with their RFC, pesos, lines and totals less the tax withheld, all adding up', async () => {
    const r = await extract('es-cfdi-accem-167ABC.pdf');
    expectFields(r, {
      invoice_number: '167ABC',
      invoice_date: '2017-07-05',
      vendor_name: 'ACCEM SERVICIOS EMPRESARIALES SC',
      vendor_vat_id: 'AAA010101AAA',
      customer_name: 'CARLOS CORTES SOTO',
      customer_vat_id: 'COSC8001137NA',
      currency: 'MXN',
      subtotal: 2269400,
      tax: 363104,
      total: 2382870,
    });
    // 2,269,400.00 + 363,104.00 − 249,634.00 ISR withheld = 2,382,870.00: the sum checks
    expect([r.fields.subtotal!.confidence, r.fields.tax!.confidence, r.fields.total!.confidence]).toEqual([0.97, 0.97, 0.97]);
    expect(r.warnings).toEqual([]);
    // each line's "Traslado … / Retención …" rows are its tax detail, neither lines nor description
    expect(lines(r)).toEqual([
      { description: 'ACERO', quantity: 1.5, unit_price: 1500000, amount: 2250000 },
      { description: 'ALUMINIO', quantity: 1.6, unit_price: 1500, amount: 2400 },
      { description: 'ZAMAC', quantity: 1.7, unit_price: 10000, amount: 17000 },
    ]);
  });
});

describe('a Canary Islands invoice (FacturaScripts AiScan’s test fixture, dev)', () => {
  it('reads IGIC as the tax, takes the withholding off the total, finds the right-aligned client, and reads lines that print an amount alone', async () => {
    const r = await extract('es-aiscan-hotel-paradise-F-2024-007.pdf');
    expectFields(r, {
      invoice_number: 'F-2024/007',
      vendor_name: 'Hotel Paradise SL',
      vendor_vat_id: 'B38678901',
      customer_name: 'Pepita Gómez',
      subtotal: 4345,
      tax: 263.5,
      total: 4076,
    });
    expect([r.fields.subtotal!.confidence, r.fields.tax!.confidence, r.fields.total!.confidence]).toEqual([0.97, 0.97, 0.97]);
    expect(r.warnings).toEqual([]);
    expect(lines(r)).toEqual([
      { description: 'Vídeo promocional 60s', amount: 2800 },
      { description: 'Sesión fotográfica instalaciones', amount: 750 },
      { description: 'Edición y postproducción', amount: 500 },
      { description: 'Licencia música royalty-free', amount: 95 },
      { description: 'Subtitulado EN/DE', amount: 200 },
    ]);
  });
});

describe('a French hotel invoice (Securibox’s Factur-X test PDF, dev, read from its page)', () => {
  it('gives the VAT id under the client’s address to the client, the footer’s to the hotel; reads "nº" under the large title and "Date limite de règlement"', async () => {
    const r = await extract('fr-securibox-pacano-2023-6013.pdf');
    expectFields(r, {
      invoice_number: '2023-6013',
      invoice_date: '2023-09-20',
      due_date: '2023-10-19',
      vendor_vat_id: 'FR40123456824',
      customer_name: 'Securibox SARL',
      customer_vat_id: 'FR38500003710',
      total: 1368.84,
    });
  });
});

describe('a Chilean DTE (SimpleFactura’s demo invoice, dev)', () => {
  it('reads the client after its column of colons, both RUTs as printed, "Fecha Venc." and pesos as CLP, not the document type as the sender', async () => {
    const r = await extract('es-simplefactura-erke-4117.pdf');
    expectFields(r, {
      invoice_number: '4117',
      invoice_date: '2024-06-01',
      due_date: '2024-06-01',
      vendor_name: 'ERKE CHILE SPA',
      vendor_vat_id: '76.269.769-6',
      customer_name: 'Universo Informatico',
      customer_vat_id: '44552142-6',
      currency: 'CLP',
      subtotal: 27166,
      tax: 5162,
      total: 32328,
    });
  });
});

describe('a Brazilian DANFE (BrazilFiscalReport’s test output, dev)', () => {
  it('reads the name under its form box’s key, gives the CPF (a private person’s) to the buyer, and does not take "DANFE" for the sender', async () => {
    const r = await extract('pt-danfe-simples-nacional-000000002.pdf');
    expectFields(r, {
      invoice_date: '2020-01-01',
      vendor_name: 'Empresa Simples Nacional Ltda',
      customer_name: 'NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL',
      customer_vat_id: '765.865.078-12',
      currency: 'BRL',
    });
  });
});

describe('domestic tax ids known by their label', () => {
  it('reads a British VAT number printed without its GB, an RFC, a NIF and a Partita IVA', () => {
    const vat = (text: string) =>
      extractInvoice([
        page([
          [40, 20, 'Example Services Ltd', 14],
          [40, 40, '1 High Street'],
          [40, 55, 'Glasgow G2 1DY'],
          [40, 70, text],
        ]),
      ]).fields.vendor_vat_id?.value;
    expect(vat('VAT Reg. No. 832 7762 12')).toBe('832776212');
    expect(vat('RFC AAA010101AAA')).toBe('AAA010101AAA');
    expect(vat('NIF/CIF: B38678901')).toBe('B38678901');
    expect(vat('P.IVA 01234567897')).toBe('01234567897');
    // a number of that length after another label is none
    expect(vat('Account No. 832 7762 12')).toBeUndefined();
  });
});

describe('totals', () => {
  it('does not call a zero tax certain when the page names a tax of some amount: subtotal and total are then one amount', () => {
    const r = extractInvoice([
      page([
        [40, 20, 'Beispiel GmbH', 14],
        [300, 100, 'Base Imponible:'],
        [480, 100, '100,00 €'],
        [300, 115, 'IGIC 0%'],
        [480, 115, '0,00 €'],
        [300, 130, 'Total IGIC:'],
        [480, 130, '7,00 €'],
        [300, 145, 'Total Bases'],
        [480, 145, '100,00 €'],
      ]),
    ]);
    expect(r.fields.total?.value).toBe(100);
    expect(r.fields.total!.confidence).toBeLessThan(0.9);
  });

  it('takes a "Ritenuta d’acconto" off the total when that makes the sum add up, and reads a Partita IVA by its label', () => {
    const r = extractInvoice([
      page([
        [40, 20, 'Studio Rossi', 14],
        [40, 40, 'P.IVA 01234567897'],
        [300, 100, 'Imponibile'],
        [480, 100, '1.000,00'],
        [300, 115, 'IVA 22%'],
        [480, 115, '220,00'],
        [300, 130, "Ritenuta d'acconto 20%"],
        [480, 130, '-200,00'],
        [300, 145, 'Totale da pagare'],
        [480, 145, '1.020,00'],
      ]),
    ]);
    expectFields(r, { vendor_vat_id: '01234567897', subtotal: 1000, tax: 220, total: 1020 });
    expect(r.fields.total!.confidence).toBe(0.97);
    expect(r.warnings).toEqual([]);
  });
});
