import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { extractInvoiceFromDocument, readEInvoice, withEInvoice, type EInvoice } from '../../../../src/server/ai/extraction/e-invoice';
import { extractInvoice, type InvoiceExtraction } from '../../../../src/server/ai/extraction/invoice';
import { pagesText } from '../../../../src/server/ai/layout/group';
import { readDocument } from '../../../../src/server/ai/extraction/read-document';
import type { InvoiceData } from '../../../support/invoices/random-invoice';
import { renderInvoicePdf } from '../../../support/invoices/render';
import { noOcr } from './helpers';

const CII_NS =
  'xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"';
const d102 = (iso: string) => `<udt:DateTimeString format="102">${iso.replace(/-/g, '')}</udt:DateTimeString>`;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** A Factur-X (EN 16931) CII document for invoice data, as an issuer's software writes one; `total` may be set apart from the data's. */
function ciiOf(data: InvoiceData, opts: { total?: number; number?: string; typeCode?: string; postcode?: string; city?: string } = {}): string {
  const lines = data.lines
    .map(
      (l, i) => `<ram:IncludedSupplyChainTradeLineItem>
      <ram:AssociatedDocumentLineDocument><ram:LineID>${i + 1}</ram:LineID></ram:AssociatedDocumentLineDocument>
      <ram:SpecifiedTradeProduct><ram:Name>${esc(l.description)}</ram:Name></ram:SpecifiedTradeProduct>
      <ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>${l.unitPrice.toFixed(2)}</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>
      <ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="H87">${l.quantity}</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
      <ram:SpecifiedLineTradeSettlement><ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>${l.amount.toFixed(2)}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement>
    </ram:IncludedSupplyChainTradeLineItem>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice ${CII_NS}>
  <rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
  <rsm:ExchangedDocument>
    <ram:ID>${esc(opts.number ?? data.invoiceNumber)}</ram:ID>
    <ram:TypeCode>${opts.typeCode ?? '380'}</ram:TypeCode>
    <ram:IssueDateTime>${d102(data.invoiceDate)}</ram:IssueDateTime>
  </rsm:ExchangedDocument>
  <rsm:SupplyChainTradeTransaction>
    ${lines}
    <ram:ApplicableHeaderTradeAgreement>
      <ram:SellerTradeParty>
        <ram:Name>${esc(data.vendorName)}</ram:Name>
        <ram:PostalTradeAddress><ram:PostcodeCode>${opts.postcode ?? ''}</ram:PostcodeCode><ram:LineOne>${esc(data.vendorAddress[0])}</ram:LineOne><ram:CityName>${opts.city ?? ''}</ram:CityName><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress>
        <ram:SpecifiedTaxRegistration><ram:ID schemeID="FC">201/113/40209</ram:ID></ram:SpecifiedTaxRegistration>
        <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE 123 456 789</ram:ID></ram:SpecifiedTaxRegistration>
      </ram:SellerTradeParty>
      <ram:BuyerTradeParty><ram:Name>${esc(data.customerName)}</ram:Name></ram:BuyerTradeParty>
    </ram:ApplicableHeaderTradeAgreement>
    <ram:ApplicableHeaderTradeDelivery/>
    <ram:ApplicableHeaderTradeSettlement>
      <ram:InvoiceCurrencyCode>${data.currency}</ram:InvoiceCurrencyCode>
      <ram:SpecifiedTradePaymentTerms><ram:Description>${esc(data.paymentTerms)}</ram:Description><ram:DueDateDateTime>${d102(data.dueDate)}</ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>
      <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
        <ram:LineTotalAmount>${data.subtotal.toFixed(2)}</ram:LineTotalAmount>
        <ram:TaxBasisTotalAmount>${data.subtotal.toFixed(2)}</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="${data.currency}">${data.tax.toFixed(2)}</ram:TaxTotalAmount>
        <ram:GrandTotalAmount>${(opts.total ?? data.total).toFixed(2)}</ram:GrandTotalAmount>
        <ram:DuePayableAmount>${(opts.total ?? data.total).toFixed(2)}</ram:DuePayableAmount>
      </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
    </ram:ApplicableHeaderTradeSettlement>
  </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>`;
}

/** The PDF with a file attached, as Factur-X writers attach their XML. */
async function withAttachment(pdf: Uint8Array, name: string, content: string | Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf);
  await doc.attach(typeof content === 'string' ? Buffer.from(content, 'utf8') : content, name, { mimeType: 'text/xml', description: 'Factur-X' });
  return doc.save();
}

const valueOf = (r: InvoiceExtraction) => Object.fromEntries(Object.entries(r.fields).map(([k, f]) => [k, f!.value]));

describe('readEInvoice: the standards a PDF may carry', () => {
  it('reads a Factur-X / ZUGFeRD 2 CII invoice: every field and line, the VAT id from the VA registration, the tax in the invoice currency', async () => {
    const inv = await renderInvoicePdf({ seed: 11, layout: 'classic', font: 'helvetica' });
    const read = readEInvoice(ciiOf(inv.data, { postcode: '10115', city: 'Berlin' }), 'factur-x.xml')!;
    expect(read.format).toBe('Factur-X / ZUGFeRD (CII)');
    expect(read.credit).toBe(false);
    expect(read.fields).toEqual({
      invoice_number: inv.data.invoiceNumber,
      invoice_date: inv.data.invoiceDate,
      due_date: inv.data.dueDate,
      vendor_name: inv.data.vendorName,
      vendor_address: `${inv.data.vendorAddress[0]}, 10115 Berlin`,
      vendor_vat_id: 'DE123456789',
      customer_name: inv.data.customerName,
      subtotal: inv.data.subtotal,
      tax: inv.data.tax,
      total: inv.data.total,
      currency: inv.data.currency,
      payment_terms: inv.data.paymentTerms,
    });
    expect(read.lineItems).toEqual(
      inv.data.lines.map((l) => ({ description: l.description, quantity: l.quantity, unit_price: l.unitPrice, amount: l.amount })),
    );
  });

  it('reads a ZUGFeRD 1.0 Cross Industry Document, whose parts are named differently', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15">
  <rsm:HeaderExchangedDocument><ram:ID>RE-2016-001</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime>${d102('2016-03-01')}</ram:IssueDateTime></rsm:HeaderExchangedDocument>
  <rsm:SpecifiedSupplyChainTradeTransaction>
    <ram:ApplicableSupplyChainTradeAgreement>
      <ram:SellerTradeParty><ram:Name>Lieferant GmbH</ram:Name><ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE999999999</ram:ID></ram:SpecifiedTaxRegistration></ram:SellerTradeParty>
      <ram:BuyerTradeParty><ram:Name>Kunde AG</ram:Name></ram:BuyerTradeParty>
    </ram:ApplicableSupplyChainTradeAgreement>
    <ram:ApplicableSupplyChainTradeSettlement>
      <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
      <ram:SpecifiedTradeSettlementMonetarySummation>
        <ram:LineTotalAmount currencyID="EUR">200.00</ram:LineTotalAmount>
        <ram:TaxBasisTotalAmount currencyID="EUR">200.00</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="EUR">38.00</ram:TaxTotalAmount>
        <ram:GrandTotalAmount currencyID="EUR">238.00</ram:GrandTotalAmount>
      </ram:SpecifiedTradeSettlementMonetarySummation>
    </ram:ApplicableSupplyChainTradeSettlement>
    <ram:IncludedSupplyChainTradeLineItem>
      <ram:SpecifiedSupplyChainTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount currencyID="EUR">20.0000</ram:ChargeAmount><ram:BasisQuantity unitCode="C62">10.0000</ram:BasisQuantity></ram:NetPriceProductTradePrice></ram:SpecifiedSupplyChainTradeAgreement>
      <ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="C62">100.0000</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery>
      <ram:SpecifiedSupplyChainTradeSettlement><ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount currencyID="EUR">200.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation></ram:SpecifiedSupplyChainTradeSettlement>
      <ram:SpecifiedTradeProduct><ram:Name>Schrauben M6</ram:Name></ram:SpecifiedTradeProduct>
    </ram:IncludedSupplyChainTradeLineItem>
  </rsm:SpecifiedSupplyChainTradeTransaction>
</rsm:CrossIndustryDocument>`;
    const read = readEInvoice(xml, 'ZUGFeRD-invoice.xml')!;
    expect(read.format).toBe('ZUGFeRD 1.0');
    expect(read.fields).toEqual({
      invoice_number: 'RE-2016-001',
      invoice_date: '2016-03-01',
      vendor_name: 'Lieferant GmbH',
      vendor_vat_id: 'DE999999999',
      customer_name: 'Kunde AG',
      subtotal: 200,
      tax: 38,
      total: 238,
      currency: 'EUR',
    });
    // a price per 10 pieces: 2.00 a piece
    expect(read.lineItems).toEqual([{ description: 'Schrauben M6', quantity: 100, unit_price: 2, amount: 200 }]);
  });

  it('reads a UBL Invoice and a UBL CreditNote (a credit note is marked as one)', () => {
    const ubl = (root: 'Invoice' | 'CreditNote') => `<?xml version="1.0" encoding="UTF-8"?>
<${root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:ID>F-2024-17</cbc:ID>
  <cbc:IssueDate>2024-05-02</cbc:IssueDate>
  ${root === 'Invoice' ? '<cbc:DueDate>2024-06-01</cbc:DueDate>' : ''}
  <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  <cac:OrderReference><cbc:ID>PO-77</cbc:ID></cac:OrderReference>
  <cac:AccountingSupplierParty><cac:Party>
    <cac:PartyName><cbc:Name>Leverancier</cbc:Name></cac:PartyName>
    <cac:PostalAddress><cbc:StreetName>Kerkstraat 1</cbc:StreetName><cbc:CityName>Gent</cbc:CityName><cbc:PostalZone>9000</cbc:PostalZone><cac:Country><cbc:IdentificationCode>BE</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
    <cac:PartyTaxScheme><cbc:CompanyID>BE0123456749</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
    <cac:PartyLegalEntity><cbc:RegistrationName>Leverancier BV</cbc:RegistrationName></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty><cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>Klant NV</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingCustomerParty>
  <cac:PaymentTerms><cbc:Note>30 dagen netto</cbc:Note></cac:PaymentTerms>
  <cac:TaxTotal><cbc:TaxAmount currencyID="EUR">21.00</cbc:TaxAmount></cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="EUR">100.00</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="EUR">100.00</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="EUR">121.00</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount currencyID="EUR">121.00</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
  <cac:${root}Line>
    <cbc:ID>1</cbc:ID>
    <cbc:${root === 'Invoice' ? 'Invoiced' : 'Credited'}Quantity unitCode="HUR">4</cbc:${root === 'Invoice' ? 'Invoiced' : 'Credited'}Quantity>
    <cbc:LineExtensionAmount currencyID="EUR">100.00</cbc:LineExtensionAmount>
    <cac:Item><cbc:Name>Advies</cbc:Name></cac:Item>
    <cac:Price><cbc:PriceAmount currencyID="EUR">25.00</cbc:PriceAmount></cac:Price>
  </cac:${root}Line>
</${root}>`;
    const invoice = readEInvoice(ubl('Invoice'), 'invoice.xml')!;
    expect(invoice.format).toBe('UBL');
    expect(invoice.credit).toBe(false);
    expect(invoice.fields).toEqual({
      invoice_number: 'F-2024-17',
      invoice_date: '2024-05-02',
      due_date: '2024-06-01',
      vendor_name: 'Leverancier BV',
      vendor_address: 'Kerkstraat 1, 9000 Gent',
      vendor_vat_id: 'BE0123456749',
      customer_name: 'Klant NV',
      po_number: 'PO-77',
      subtotal: 100,
      tax: 21,
      total: 121,
      currency: 'EUR',
      payment_terms: '30 dagen netto',
    });
    expect(invoice.lineItems).toEqual([{ description: 'Advies', quantity: 4, unit_price: 25, amount: 100 }]);
    const credit = readEInvoice(ubl('CreditNote'), 'credit.xml')!;
    expect(credit.credit).toBe(true);
    expect(credit.fields.due_date).toBeUndefined();
    expect(credit.lineItems).toEqual([{ description: 'Advies', quantity: 4, unit_price: 25, amount: 100 }]);
  });

  it('is no e-invoice: XML of another kind, XML with no number and no total, broken XML, text that is not XML', () => {
    expect(readEInvoice('<?xml version="1.0"?><order><id>1</id></order>', 'order.xml')).toBeUndefined();
    expect(readEInvoice(`<rsm:CrossIndustryInvoice ${CII_NS}><rsm:ExchangedDocument/></rsm:CrossIndustryInvoice>`, 'x.xml')).toBeUndefined();
    expect(readEInvoice('<rsm:CrossIndustryInvoice><rsm:ExchangedDocument><ram:ID>1', 'broken.xml')).toBeUndefined();
    expect(readEInvoice('%PDF-1.7 not xml', 'a.xml')).toBeUndefined();
    // a date that does not exist is left out, the rest is read
    const badDate = readEInvoice(
      `<rsm:CrossIndustryInvoice ${CII_NS}><rsm:ExchangedDocument><ram:ID>7</ram:ID><ram:IssueDateTime>${d102('2024-02-30')}</ram:IssueDateTime></rsm:ExchangedDocument></rsm:CrossIndustryInvoice>`,
      'x.xml',
    );
    expect(badDate?.fields).toEqual({ invoice_number: '7' });
  });

  it('expands no entity a document declares (a "billion laughs" file stays small and is read as written)', () => {
    const laughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<Invoice xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:ID>&lol3;</cbc:ID></Invoice>`;
    const read = readEInvoice(laughs, 'lol.xml');
    expect(String(read?.fields.invoice_number ?? '').length).toBeLessThan(40);
  });
});

describe('withEInvoice: the data laid over the page, checked against it', () => {
  it('takes every value of a PDF that carries its e-invoice: certain where the page agrees, with the data’s exact line items', async () => {
    const inv = await renderInvoicePdf({ seed: 21, layout: 'classic', font: 'helvetica' });
    const pdf = await withAttachment(inv.pdf, 'factur-x.xml', ciiOf(inv.data));
    const read = await readDocument(pdf, 'pdf', { ocr: noOcr });
    expect(read.eInvoice?.attachment).toBe('factur-x.xml');
    const result = extractInvoiceFromDocument(read.pages, { text: pagesText(read.pages), read });
    expect(result.eInvoice).toEqual({ format: 'Factur-X / ZUGFeRD (CII)', attachment: 'factur-x.xml' });
    const page = extractInvoice(read.pages);
    for (const field of ['invoice_number', 'invoice_date', 'due_date', 'customer_name', 'subtotal', 'tax', 'total', 'currency'] as const) {
      expect(result.fields[field]?.value).toEqual(inv.truth[field]);
      // the page's own reading found the same value: certain
      if (page.fields[field]?.value === inv.truth[field]) expect(result.fields[field]?.confidence).toBe(0.99);
    }
    // printed nowhere on the page: taken from the data, not shown as certain
    expect(result.fields.vendor_vat_id).toEqual({ value: 'DE123456789', confidence: 0.7 });
    // the page's own reading found each line too: certain
    expect(result.lineItems).toEqual(
      inv.data.lines.map((l) => ({ description: l.description, quantity: l.quantity, unit_price: l.unitPrice, amount: l.amount, confidence: 0.99 })),
    );
    expect(result.warnings).toEqual([]);
  });

  it('asks for a look when the page is sure of another total, keeping the page’s and naming both', async () => {
    const inv = await renderInvoicePdf({ seed: 22, layout: 'classic', font: 'helvetica' });
    const pdf = await withAttachment(inv.pdf, 'factur-x.xml', ciiOf(inv.data, { total: inv.data.total + 100 }));
    const read = await readDocument(pdf, 'pdf', { ocr: noOcr });
    const page = extractInvoice(read.pages);
    expect(page.fields.total).toMatchObject({ value: inv.data.total });
    expect(page.fields.total!.confidence).toBeGreaterThanOrEqual(0.9);
    const result = extractInvoiceFromDocument(read.pages, { text: pagesText(read.pages), read });
    expect(result.fields.total).toMatchObject({ value: inv.data.total, confidence: 0.55, needs_review: true });
    expect(result.warnings[0]).toBe(
      `The e-invoice data in the PDF gives ${(inv.data.total + 100).toFixed(2)} for the total, but the page reads ${inv.data.total.toFixed(2)}: check which is right.`,
    );
    expect(result.fields.subtotal?.value).toBe(inv.data.subtotal);
  });

  it('leaves out data written for another invoice (its number printed nowhere), saying so', async () => {
    const inv = await renderInvoicePdf({ seed: 23, layout: 'classic', font: 'helvetica' });
    const pdf = await withAttachment(inv.pdf, 'factur-x.xml', ciiOf(inv.data, { number: 'OTHER-4711', total: 1 }));
    const read = await readDocument(pdf, 'pdf', { ocr: noOcr });
    const page = extractInvoice(read.pages);
    const result = extractInvoiceFromDocument(read.pages, { text: pagesText(read.pages), read });
    expect(valueOf(result)).toEqual(valueOf(page));
    expect(result.eInvoice).toBeUndefined();
    expect(result.warnings[0]).toBe(
      `The e-invoice data in the PDF (factur-x.xml) is for invoice OTHER-4711, not ${page.fields.invoice_number!.value} as the page reads: it was not used.`,
    );
  });

  it('takes the data’s whole value where the page read a part of it ("GmbH" of "Lieferant GmbH"), with nothing to dispute', () => {
    const eInvoice: EInvoice = {
      format: 'Factur-X / ZUGFeRD (CII)',
      attachment: 'factur-x.xml',
      credit: false,
      sums: {},
      fields: { vendor_name: 'Lieferant GmbH', payment_terms: 'Zahlbar innerhalb 30 Tagen netto.' },
      lineItems: [],
    };
    const page: InvoiceExtraction = {
      fields: { vendor_name: { value: 'GmbH', confidence: 0.95 }, payment_terms: { value: 'Zahlbar innerhalb', confidence: 0.85 } },
      lineItems: [],
      warnings: [],
    };
    const result = withEInvoice(page, eInvoice, 'Lieferant GmbH\nLieferantenstraße 20\nZahlbar innerhalb 30 Tagen netto.');
    expect(result.fields.vendor_name).toEqual({ value: 'Lieferant GmbH', confidence: 0.85 });
    expect(result.fields.payment_terms).toEqual({ value: 'Zahlbar innerhalb 30 Tagen netto.', confidence: 0.85 });
    expect(result.warnings.filter((w) => w.startsWith('The e-invoice'))).toEqual([]);
    // the page's own reading is left as it was read
    expect(page.fields.vendor_name).toEqual({ value: 'GmbH', confidence: 0.95 });
  });

  it('gives a credit note’s amounts the sign the page prints them with', () => {
    const eInvoice: EInvoice = {
      format: 'UBL',
      attachment: 'credit.xml',
      credit: true,
      sums: {},
      fields: { invoice_number: 'AV-1', subtotal: 100, tax: 20, total: 120 },
      lineItems: [{ description: 'Retour', quantity: 2, unit_price: 50, amount: 100 }],
    };
    const text = 'Avoir AV-1\nRetour 2 50,00 € -100,00 €\nTotal HT -100,00 €\nTVA -20,00 €\nTotal TTC -120,00 €';
    const result = withEInvoice({ fields: {}, lineItems: [], warnings: [] }, eInvoice, text);
    expect(valueOf(result)).toEqual({ invoice_number: 'AV-1', subtotal: -100, tax: -20, total: -120 });
    // printed on the page, but not read by its reader (no page reading was given here): likely, not certain
    expect(result.lineItems).toEqual([{ description: 'Retour', quantity: 2, unit_price: 50, amount: -100, confidence: 0.85 }]);
    expect(result.fields.total?.confidence).toBe(0.85);
    // printed positive, a credit note's amounts stay as the data gives them
    const positive = withEInvoice({ fields: {}, lineItems: [], warnings: [] }, eInvoice, 'Credit note AV-1\nTotal 120.00');
    expect(positive.fields.total?.value).toBe(120);
  });

  it('reads a real Factur-X credit note (FNFE-MPE sample, tests/fixtures/real-invoices) as its page prints it', async () => {
    const file = path.join(__dirname, '../../../fixtures/real-invoices/fr-Avoir_FR_type381_BASIC.pdf');
    const read = await readDocument(new Uint8Array(readFileSync(file)), 'pdf', { ocr: noOcr });
    const result = extractInvoiceFromDocument(read.pages, { text: pagesText(read.pages), read });
    expect(result.eInvoice).toEqual({ format: 'Factur-X / ZUGFeRD (CII)', attachment: 'factur-x.xml' });
    expect(valueOf(result)).toMatchObject({
      invoice_number: 'AV-2017-0005',
      invoice_date: '2017-11-16',
      due_date: '2017-11-16',
      vendor_name: 'Au bon moulin',
      vendor_vat_id: 'FR11999999998',
      customer_name: 'Ma jolie boutique',
      customer_vat_id: 'FR19787878784',
      po_number: 'PO445',
      currency: 'EUR',
      subtotal: -218.48,
      tax: -14.99,
      total: -233.47,
    });
    expect(result.lineItems.map(({ confidence: _, ...l }) => l)).toEqual([
      { description: "Nougat de l'Abbaye 250g", quantity: 5, unit_price: 4.1, amount: -20.48 },
      { description: "Huile d'olive à l'ancienne", quantity: 10, unit_price: 19.8, amount: -198 },
    ]);
    // the page's own reading found these too: certain
    for (const name of ['invoice_number', 'total', 'subtotal', 'tax'] as const) expect(result.fields[name]!.confidence).toBe(0.99);
  });

  it('ignores an XML attachment that is no invoice, and one larger than an e-invoice may be', async () => {
    const inv = await renderInvoicePdf({ seed: 24, layout: 'classic', font: 'helvetica' });
    const notInvoice = await withAttachment(inv.pdf, 'settings.xml', '<?xml version="1.0"?><settings><a>1</a></settings>');
    expect((await readDocument(notInvoice, 'pdf', { ocr: noOcr })).eInvoice).toBeUndefined();
    const huge = await withAttachment(inv.pdf, 'factur-x.xml', ciiOf(inv.data) + ' '.repeat(2 * 1024 * 1024 + 1));
    expect((await readDocument(huge, 'pdf', { ocr: noOcr })).eInvoice).toBeUndefined();
  });
});
