import { DOMParser } from 'linkedom';
import { cents, findAmounts } from './amount';
import { findDates } from './date';
import { crossCheck, extractInvoice, money, nearCent as near, type InvoiceExtraction } from './invoice';
import { pagesText } from '../layout/group';
import type { LayoutPage } from '../layout/types';
import type { InvoiceFieldName } from './labels';
import type { LineItem } from './line-items';

/**
 * E-invoices carried inside a PDF: a Factur-X / ZUGFeRD 2 / XRechnung PDF embeds the invoice as
 * UN/CEFACT Cross Industry Invoice XML (ZUGFeRD 1 as its older Cross Industry Document), and some
 * PDFs carry an OASIS UBL Invoice or CreditNote. That XML is the invoice's data as its issuer's
 * software wrote it, so it is read field by field and then checked against the page (see
 * withEInvoice): what the page's own reading found too is certain, what the page contradicts is
 * put to the user.
 */
export interface EInvoice {
  /** The standard, as the page names it: "Factur-X / ZUGFeRD (CII)", "ZUGFeRD 1.0", "UBL". */
  format: string;
  /** The attachment's file name in the PDF ("factur-x.xml"). */
  attachment: string;
  fields: Partial<Record<InvoiceFieldName, string | number>>;
  lineItems: Omit<LineItem, 'confidence'>[];
  /** A credit note: its data gives amounts positive, where many pages print them negative. */
  credit: boolean;
  /** The sums the data states beside its totals: the lines' total, and document-level allowances and charges. */
  sums: { lines?: number; allowances?: number; charges?: number };
  /**
   * The PDFs the XML carries (UBL EmbeddedDocumentBinaryObject, CII AttachmentBinaryObject), in
   * base64 and in the file's order, at most MAX_XML_PDFS: often the invoice's own page, sometimes
   * an annex (a timesheet, a delivery note) before it. Read only from an XML file uploaded on its
   * own (readEInvoice's `withPdf`); absent when it carries none.
   */
  pdfs?: { name: string; base64: string }[];
}

/** The largest attachment read as XML (the EN 16931 examples are 5-60 kB). */
export const MAX_E_INVOICE_BYTES = 2 * 1024 * 1024;

interface Node {
  localName: string;
  children: ArrayLike<Node>;
  textContent: string | null;
  getAttribute(name: string): string | null;
}

const nameOf = (e: Node) => e.localName.replace(/^.*:/, '');
const childrenOf = (e: Node | undefined, name: string): Node[] => (e ? Array.from(e.children).filter((c) => nameOf(c) === name) : []);
/** The first element down a path of local names (namespace prefixes differ between writers). */
function at(e: Node | undefined, ...path: string[]): Node | undefined {
  let cur = e;
  for (const step of path) cur = childrenOf(cur, step)[0];
  return cur;
}
/** Every element at the end of a path. */
function every(e: Node | undefined, ...path: string[]): Node[] {
  let cur = e ? [e] : [];
  for (const step of path) cur = cur.flatMap((c) => childrenOf(c, step));
  return cur;
}
const text = (e: Node | undefined): string | undefined => e?.textContent?.replace(/\s+/g, ' ').trim() || undefined;
function num(e: Node | undefined): number | undefined {
  const t = text(e);
  if (t === undefined || !/^[+-]?\d+(?:\.\d+)?$/.test(t)) return undefined;
  return Number(t);
}
/** A CII date (format 102: YYYYMMDD) or an ISO date, as YYYY-MM-DD. */
function date(e: Node | undefined): string | undefined {
  const t = text(e);
  const m = t ? /^(\d{4})-?(\d{2})-?(\d{2})/.exec(t) : null;
  if (!m) return undefined;
  const iso = `${m[1]}-${m[2]}-${m[3]}`;
  // a day that does not exist ("20241340") is no date
  const day = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(iso) ? iso : undefined;
}
/** An address as one line: its street lines, then postcode and town ("Kerkstraat 1, 9000 Gent"). */
function addressOf(street: (string | undefined)[], postcode: string | undefined, town: string | undefined): string | undefined {
  const place = [postcode, town].filter(Boolean).join(' ');
  return [...street, place].filter(Boolean).join(', ') || undefined;
}

/** Sets the fields whose value was found, leaving the rest out. */
function defined(fields: Record<string, string | number | undefined>): EInvoice['fields'] {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as EInvoice['fields'];
}

interface PartyData {
  name?: string;
  address?: string;
  vat?: string;
}

/** The seller's and the buyer's name, address and VAT id as invoice fields. */
function partyFields(seller: PartyData, buyer: PartyData) {
  return {
    vendor_name: seller.name,
    vendor_address: seller.address,
    vendor_vat_id: seller.vat,
    customer_name: buyer.name,
    customer_address: buyer.address,
    customer_vat_id: buyer.vat,
  };
}

/** An amount among several (a tax total given in two currencies): the one in the invoice's currency. */
function inCurrency(nodes: Node[], currency: string | undefined): number | undefined {
  const own = nodes.find((n) => !n.getAttribute('currencyID') || n.getAttribute('currencyID') === currency) ?? nodes[0];
  return num(own);
}

function quotient(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return undefined;
  return b && b !== 1 ? Math.round((a / b) * 1e6) / 1e6 : a;
}

/** The most PDFs an XML e-invoice is looked through for its own page (see EInvoice.pdfs). */
export const MAX_XML_PDFS = 4;

/**
 * The PDFs an e-invoice carries as attached documents (CII AttachmentBinaryObject, UBL
 * EmbeddedDocumentBinaryObject), each with its file name, or the document's id as one; the first
 * MAX_XML_PDFS of them.
 */
function attachedPdfs(root: Node, kind: string): NonNullable<EInvoice['pdfs']> {
  const documents =
    kind === 'Invoice' || kind === 'CreditNote'
      ? every(root, 'AdditionalDocumentReference').map((d) => ({ object: at(d, 'Attachment', 'EmbeddedDocumentBinaryObject'), id: text(at(d, 'ID')) }))
      : every(
          root,
          kind === 'CrossIndustryDocument' ? 'SpecifiedSupplyChainTradeTransaction' : 'SupplyChainTradeTransaction',
          kind === 'CrossIndustryDocument' ? 'ApplicableSupplyChainTradeAgreement' : 'ApplicableHeaderTradeAgreement',
          'AdditionalReferencedDocument',
        ).map((d) => ({ object: at(d, 'AttachmentBinaryObject'), id: text(at(d, 'IssuerAssignedID')) }));
  const pdfs: NonNullable<EInvoice['pdfs']> = [];
  for (const { object, id } of documents) {
    if (!object || object.getAttribute('mimeCode')?.toLowerCase() !== 'application/pdf') continue;
    const base64 = object.textContent?.replace(/\s+/g, '') ?? '';
    if (base64) pdfs.push({ name: object.getAttribute('filename') || (id ? `${id.replace(/\.pdf$/i, '')}.pdf` : 'attachment.pdf'), base64 });
    if (pdfs.length === MAX_XML_PDFS) break;
  }
  return pdfs;
}

/** UNTDID 1001 document types that credit: a credit note, a self-billed one, one for goods or services or financial adjustments. */
const CREDIT_NOTE_TYPES = new Set(['381', '261', '262', '81', '83', '396', '532']);

/**
 * A Cross Industry Invoice (ZUGFeRD 2, Factur-X, XRechnung CII) or a ZUGFeRD 1 Cross Industry
 * Document: the two name their parts differently but hold the same data.
 */
function readCii(root: Node, v1: boolean): Omit<EInvoice, 'attachment'> {
  const doc = at(root, v1 ? 'HeaderExchangedDocument' : 'ExchangedDocument');
  const tx = at(root, v1 ? 'SpecifiedSupplyChainTradeTransaction' : 'SupplyChainTradeTransaction');
  const agreement = at(tx, v1 ? 'ApplicableSupplyChainTradeAgreement' : 'ApplicableHeaderTradeAgreement');
  const settlement = at(tx, v1 ? 'ApplicableSupplyChainTradeSettlement' : 'ApplicableHeaderTradeSettlement');
  const sums = at(settlement, v1 ? 'SpecifiedTradeSettlementMonetarySummation' : 'SpecifiedTradeSettlementHeaderMonetarySummation');
  const currency = text(at(settlement, 'InvoiceCurrencyCode'));
  const party = (p: Node | undefined) => {
    const address = at(p, 'PostalTradeAddress');
    const vat = every(p, 'SpecifiedTaxRegistration', 'ID').find((id) => id.getAttribute('schemeID') === 'VA');
    return {
      name: text(at(p, 'Name')),
      vat: text(vat)?.replace(/\s+/g, ''),
      address: addressOf([text(at(address, 'LineOne')), text(at(address, 'LineTwo'))], text(at(address, 'PostcodeCode')), text(at(address, 'CityName'))),
    };
  };
  const seller = party(at(agreement, 'SellerTradeParty'));
  const buyer = party(at(agreement, 'BuyerTradeParty'));
  const terms = every(settlement, 'SpecifiedTradePaymentTerms');
  const due = terms.map((t) => date(at(t, 'DueDateDateTime', 'DateTimeString'))).find(Boolean);
  const lines = every(tx, 'IncludedSupplyChainTradeLineItem').flatMap((line) => {
    const lineAgreement = at(line, v1 ? 'SpecifiedSupplyChainTradeAgreement' : 'SpecifiedLineTradeAgreement');
    const delivery = at(line, v1 ? 'SpecifiedSupplyChainTradeDelivery' : 'SpecifiedLineTradeDelivery');
    const lineSettlement = at(line, v1 ? 'SpecifiedSupplyChainTradeSettlement' : 'SpecifiedLineTradeSettlement');
    const amount = num(
      at(lineSettlement, v1 ? 'SpecifiedTradeSettlementMonetarySummation' : 'SpecifiedTradeSettlementLineMonetarySummation', 'LineTotalAmount'),
    );
    const price = at(lineAgreement, 'NetPriceProductTradePrice');
    const description = text(at(line, 'SpecifiedTradeProduct', 'Name'));
    // a line that only groups or informs (EXTENDED profile) carries no amount
    if (!description || amount === undefined) return [];
    return [
      {
        description,
        quantity: num(at(delivery, 'BilledQuantity')),
        unit_price: quotient(num(at(price, 'ChargeAmount')), num(at(price, 'BasisQuantity'))),
        amount,
      },
    ];
  });
  const guideline = text(at(root, v1 ? 'SpecifiedExchangedDocumentContext' : 'ExchangedDocumentContext', 'GuidelineSpecifiedDocumentContextParameter', 'ID'));
  return {
    format: v1 ? 'ZUGFeRD 1.0' : /xrechnung/i.test(guideline ?? '') ? 'XRechnung (CII)' : 'Factur-X / ZUGFeRD (CII)',
    credit: CREDIT_NOTE_TYPES.has(text(at(doc, 'TypeCode')) ?? ''),
    sums: { lines: num(at(sums, 'LineTotalAmount')), allowances: num(at(sums, 'AllowanceTotalAmount')), charges: num(at(sums, 'ChargeTotalAmount')) },
    fields: defined({
      invoice_number: text(at(doc, 'ID')),
      invoice_date: date(at(doc, 'IssueDateTime', 'DateTimeString')),
      due_date: due,
      ...partyFields(seller, buyer),
      po_number: text(at(agreement, 'BuyerOrderReferencedDocument', 'IssuerAssignedID')),
      subtotal: num(at(sums, 'TaxBasisTotalAmount')),
      tax: inCurrency(childrenOf(sums, 'TaxTotalAmount'), currency),
      total: num(at(sums, 'GrandTotalAmount')),
      currency,
      payment_terms: terms.map((t) => text(at(t, 'Description'))).find(Boolean),
    }),
    lineItems: lines,
  };
}

/** An OASIS UBL 2 Invoice or CreditNote (PEPPOL BIS, XRechnung UBL). */
function readUbl(root: Node, credit: boolean): Omit<EInvoice, 'attachment'> {
  const currency = text(at(root, 'DocumentCurrencyCode'));
  const party = (p: Node | undefined) => {
    const address = at(p, 'PostalAddress');
    const vat = every(p, 'PartyTaxScheme').find((s) => text(at(s, 'TaxScheme', 'ID'))?.toUpperCase() === 'VAT');
    return {
      name: text(at(p, 'PartyLegalEntity', 'RegistrationName')) ?? text(at(p, 'PartyName', 'Name')),
      vat: text(at(vat, 'CompanyID'))?.replace(/\s+/g, ''),
      address: addressOf(
        [text(at(address, 'StreetName')), text(at(address, 'AdditionalStreetName'))],
        text(at(address, 'PostalZone')),
        text(at(address, 'CityName')),
      ),
    };
  };
  const seller = party(at(root, 'AccountingSupplierParty', 'Party'));
  const buyer = party(at(root, 'AccountingCustomerParty', 'Party'));
  const totals = at(root, 'LegalMonetaryTotal');
  const taxTotals = every(root, 'TaxTotal', 'TaxAmount');
  const lines = every(root, credit ? 'CreditNoteLine' : 'InvoiceLine').flatMap((line) => {
    const description = text(at(line, 'Item', 'Name')) ?? text(at(line, 'Item', 'Description'));
    const amount = num(at(line, 'LineExtensionAmount'));
    if (!description || amount === undefined) return [];
    return [
      {
        description,
        quantity: num(at(line, credit ? 'CreditedQuantity' : 'InvoicedQuantity')),
        unit_price: quotient(num(at(line, 'Price', 'PriceAmount')), num(at(line, 'Price', 'BaseQuantity'))),
        amount,
      },
    ];
  });
  const customization = text(at(root, 'CustomizationID')) ?? '';
  return {
    format: /xrechnung/i.test(customization) ? 'XRechnung (UBL)' : /peppol/i.test(customization) ? 'Peppol BIS (UBL)' : 'UBL',
    credit,
    sums: { lines: num(at(totals, 'LineExtensionAmount')), allowances: num(at(totals, 'AllowanceTotalAmount')), charges: num(at(totals, 'ChargeTotalAmount')) },
    fields: defined({
      invoice_number: text(at(root, 'ID')),
      invoice_date: date(at(root, 'IssueDate')),
      due_date: date(at(root, 'DueDate')) ?? every(root, 'PaymentMeans', 'PaymentDueDate').map(date).find(Boolean),
      ...partyFields(seller, buyer),
      po_number: text(at(root, 'OrderReference', 'ID')),
      subtotal: num(at(totals, 'TaxExclusiveAmount')),
      tax: inCurrency(taxTotals, currency),
      total: num(at(totals, 'TaxInclusiveAmount')) ?? num(at(totals, 'PayableAmount')),
      currency,
      payment_terms: text(at(root, 'PaymentTerms', 'Note')),
    }),
    lineItems: lines,
  };
}

/** Deeper than any e-invoice nests its elements (UBL and CII go about 10 levels down). */
export const MAX_XML_DEPTH = 64;

/**
 * How deep the elements of XML text nest, counted from its tags in one pass (comments, CDATA and
 * processing instructions skipped), stopping as soon as `limit` is passed: a parser's work on
 * XML nested thousands deep grows much faster than its size, so such a file is refused first.
 */
export function xmlDepth(xml: string, limit = MAX_XML_DEPTH): number {
  const tags = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<[?!][^>]*>|<(\/?)[^\s/>]+[^>]*?(\/?)>/g;
  let depth = 0;
  let deepest = 0;
  for (let m = tags.exec(xml); m; m = tags.exec(xml)) {
    if (m[1] === undefined) continue; // a comment, CDATA, declaration or doctype
    if (m[1] === '/') depth--;
    else if (m[2] !== '/') {
      depth++;
      if (depth > deepest && (deepest = depth) > limit) return deepest;
    }
  }
  return deepest;
}

/**
 * Reads an attachment as an e-invoice: undefined when it is not XML, not one of the standards
 * above, nested deeper than MAX_XML_DEPTH, or holds no invoice number and no total (a stray XML
 * file is not an invoice).
 * Parsed with linkedom, which expands no entity and fetches nothing.
 */
export function readEInvoice(xml: string, attachment: string, options: { withPdf?: boolean } = {}): EInvoice | undefined {
  if (xml.length > MAX_E_INVOICE_BYTES || !/^\s*(?:\uFEFF)?</.test(xml) || xmlDepth(xml) > MAX_XML_DEPTH) return undefined;
  let root: Node | undefined;
  try {
    root = new DOMParser().parseFromString(xml, 'text/xml').documentElement as unknown as Node | undefined;
  } catch {
    return undefined;
  }
  // linkedom reads a cut-off file as far as it goes: an invoice whose end is missing is no invoice
  if (!root || !new RegExp(`</${(root as unknown as { tagName: string }).tagName}\\s*>\\s*$`).test(xml)) return undefined;
  const kind = nameOf(root);
  const read =
    kind === 'CrossIndustryInvoice'
      ? readCii(root, false)
      : kind === 'CrossIndustryDocument'
        ? readCii(root, true)
        : kind === 'Invoice' || kind === 'CreditNote'
          ? readUbl(root, kind === 'CreditNote')
          : undefined;
  if (!read || (read.fields.invoice_number === undefined && read.fields.total === undefined)) return undefined;
  const pdfs = options.withPdf ? attachedPdfs(root, kind) : [];
  return { ...read, attachment, ...(pdfs.length ? { pdfs } : {}) };
}

/**
 * What a page prints, to check an e-invoice's values against: every amount (to the cent, sign
 * ignored), every date (read day-first and month-first) and its letters and digits run together.
 */
export interface PrintedText {
  amounts: Set<number>;
  /** The amounts with their sign. */
  signed: Set<number>;
  dates: Set<string>;
  letters: string;
  /** Its words, lower case, punctuation as spaces, with a space at each end. */
  words: string;
}

const wordsOf = (v: string) =>
  ` ${v
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `;
/** Its letters and digits run together, lower case ("DE 123 456 789" → "de123456789"). */
const letters = (v: string) => wordsOf(v).replace(/ /g, '');

export function printedText(text: string): PrintedText {
  // line by line, as the page's reader finds them (a sign at a line's end can hide the next line's amount)
  const amounts = text.split('\n').flatMap((line) => findAmounts(line));
  return {
    amounts: new Set(amounts.map((a) => cents(Math.abs(a.value)))),
    signed: new Set(amounts.map((a) => cents(a.value))),
    dates: new Set([...findDates(text, 'DMY'), ...findDates(text, 'MDY')].map((d) => d.iso)),
    letters: letters(text),
    words: wordsOf(text),
  };
}

/**
 * Whether the page prints a value: an amount, a date, or text as whole words (ignoring case and
 * punctuation; "471" is not printed by "4711"), or, for a value of eight letters and digits or
 * more, run together (a VAT id printed "DE 123 456 789").
 */
export function isPrinted(printed: PrintedText, value: string | number, kind: 'amount' | 'date' | 'text'): boolean {
  if (kind === 'amount') return typeof value === 'number' && printed.amounts.has(cents(Math.abs(value)));
  if (kind === 'date') return printed.dates.has(String(value));
  const w = wordsOf(String(value));
  if (w.trim() && printed.words.includes(w)) return true;
  const l = letters(String(value));
  return l.length >= 8 && printed.letters.includes(l);
}

/** How each field's value is compared with the page. */
const AMOUNTS = new Set<InvoiceFieldName>(['subtotal', 'tax', 'total']);
const DATES = new Set<InvoiceFieldName>(['invoice_date', 'due_date']);
const ADDRESSES = new Set<InvoiceFieldName>(['vendor_address', 'customer_address']);

/** The page's own reading found the value the data gives: two readings agree, certain. */
const AGREED = 0.99;
/**
 * The data's value, printed on the page, where the page's reading found another, unsure, or none:
 * likely, not certain (the data may describe another version of the page).
 */
const PRINTED = 0.85;
/** The data's value, printed nowhere on the page (a due date only the data carries). */
const DATA_ONLY = 0.7;
/** The page prints something else: the user decides. */
const CONFLICT = 0.55;

function printedValue(printed: PrintedText, name: InvoiceFieldName, value: string | number): boolean {
  if (AMOUNTS.has(name)) return isPrinted(printed, value, 'amount');
  if (DATES.has(name)) return isPrinted(printed, value, 'date');
  // an address is put together from its parts, which the page may print on lines of their own
  if (ADDRESSES.has(name))
    return String(value)
      .split(', ')
      .every((part) => isPrinted(printed, part, 'text'));
  return isPrinted(printed, value, 'text');
}

/** Two texts alike: the same letters and digits, or one holding the other and most of its length (a legal form, an address line more). */
function sameText(a: string, b: string): boolean {
  const p = letters(a);
  const d = letters(b);
  if (p === d) return true;
  const [short, long] = p.length < d.length ? [p, d] : [d, p];
  return short.length >= 4 && long.includes(short) && short.length >= long.length * 0.6;
}

function sameAs(name: InvoiceFieldName, page: string | number, data: string | number): boolean {
  if (typeof data === 'number') return typeof page === 'number' && Math.abs(page - data) < 0.005;
  if (AMOUNTS.has(name) || DATES.has(name)) return letters(String(page)) === letters(data);
  return sameText(String(page), data);
}

/**
 * A text the page read that is a run of the data's words, or holds the data's value as a run of its
 * words ("GmbH" of "Lieferant GmbH", the first words of a sentence of terms): the two agree on
 * those words and the data says how far the value goes, so there is nothing to dispute.
 */
function partOf(name: InvoiceFieldName, page: string | number, data: string | number): boolean {
  if (typeof page !== 'string' || typeof data !== 'string' || AMOUNTS.has(name) || DATES.has(name)) return false;
  const [p, d] = [wordsOf(page), wordsOf(data)];
  return p.trim() !== '' && d.trim() !== '' && (d.includes(p) || p.includes(d));
}

const shown = (value: string | number) => (typeof value === 'number' ? value.toFixed(2) : value);

/**
 * The page's reading with an e-invoice's data laid over it.
 *
 * - Data for another invoice (its number is not the one the page reads, and the page prints it
 *   nowhere) is not used: a sentence says so and the page's reading stands.
 * - A credit note's amounts take the sign the page prints them with.
 * - Each value the data gives is taken: certain only when the page's own reading found the same
 *   (two readings agree), likely when the page prints it somewhere, less sure when the page prints
 *   it nowhere (a due date only the data holds).
 * - Where the page's reading is certain of another value, or the data's value is printed nowhere
 *   and the page reads another, the page's value stays, the field asks for a look and a sentence
 *   gives both.
 * - The data's line items replace the page's; the totals are checked again.
 */
export function withEInvoice(read: InvoiceExtraction, eInvoice: EInvoice | undefined, pageText: string): InvoiceExtraction {
  if (!eInvoice) return read;
  const printed = printedText(pageText);
  const number = eInvoice.fields.invoice_number;
  const pageNumber = read.fields.invoice_number;
  if (number !== undefined && pageNumber && !sameAs('invoice_number', pageNumber.value, number) && !isPrinted(printed, number, 'text')) {
    return {
      ...read,
      warnings: [
        `The e-invoice data in the PDF (${eInvoice.attachment}) is for invoice ${number}, not ${pageNumber.value} as the page reads: it was not used.`,
        ...read.warnings,
      ],
    };
  }
  const total = eInvoice.fields.total;
  const sign = eInvoice.credit && typeof total === 'number' && total > 0 && printed.signed.has(cents(-total)) ? -1 : 1;
  const signed = (name: InvoiceFieldName, value: string | number) => (AMOUNTS.has(name) && typeof value === 'number' ? sign * value : value);
  // copies: the checks below raise and lower confidences, and the page's reading stays as it was read
  const fields: InvoiceExtraction['fields'] = Object.fromEntries(Object.entries(read.fields).map(([name, f]) => [name, { ...f! }]));
  const conflicts: string[] = [];
  /** Fields the page's reading does not confirm, with the most they may show. */
  const unconfirmed = new Map<InvoiceFieldName, number>();
  for (const [key, given] of Object.entries(eInvoice.fields)) {
    const name = key as InvoiceFieldName;
    if (given === undefined) continue;
    const value = signed(name, given);
    const page = read.fields[name];
    const onPage = printedValue(printed, name, value);
    if (page && sameAs(name, page.value, value)) {
      fields[name] = { value, confidence: AGREED };
    } else if (page && !partOf(name, page.value, value) && (page.confidence >= 0.9 || !onPage)) {
      fields[name] = { ...page, confidence: Math.min(page.confidence, CONFLICT), needs_review: true };
      unconfirmed.set(name, CONFLICT);
      conflicts.push(
        `The e-invoice data in the PDF gives ${shown(value)} for the ${name.replace(/_/g, ' ')}, but the page reads ${shown(page.value)}: check which is right.`,
      );
    } else {
      fields[name] = { value, confidence: onPage ? PRINTED : DATA_ONLY };
      unconfirmed.set(name, fields[name]!.confidence);
    }
  }
  const lineItems = eInvoice.lineItems.length
    ? eInvoice.lineItems.map((line) => {
        const amount = line.amount === undefined ? undefined : sign * line.amount;
        const readAlike = read.lineItems.some(
          (l) => amount !== undefined && l.amount !== undefined && cents(l.amount) === cents(amount) && sameText(l.description, line.description),
        );
        const onPage = amount !== undefined && isPrinted(printed, amount, 'amount');
        return { ...line, amount, confidence: readAlike ? AGREED : onPage ? PRINTED : DATA_ONLY };
      })
    : read.lineItems.map((line) => ({ ...line }));
  const checks = crossCheck(fields, lineItems);
  // the data's totals always add up: that settles no value the page's reading did not confirm
  for (const [name, most] of unconfirmed) fields[name]!.confidence = Math.min(fields[name]!.confidence, most);
  return {
    fields,
    lineItems,
    warnings: [...conflicts, ...checks],
    eInvoice: { format: eInvoice.format, attachment: eInvoice.attachment },
  };
}

/**
 * A value of an XML e-invoice uploaded as the file itself: the issuer's software wrote it, and no
 * page can confirm or contradict it; only the file's own sums can (see fromEInvoice).
 */
const FILE_VALUE = 0.99;
/** A line of such a file when its lines do not add up to the total the file gives for them. */
const FILE_LINE_UNCHECKED = 0.85;
/** A total of such a file that disagrees with its other sums. */
const FILE_SUM_WRONG = 0.55;

/**
 * The invoice an XML e-invoice file holds (XRechnung, Factur-X / ZUGFeRD CII, Peppol UBL), with
 * no page beside it. Every value is the data's own; the file's sums are checked against each
 * other, the way the page's totals are: its lines against the lines' total it states, that total
 * less allowances plus charges against the subtotal, subtotal plus tax against the total. A sum
 * that fails is marked for a look with a sentence. A credit note's amounts are shown negative.
 */
export function fromEInvoice(eInvoice: EInvoice): InvoiceExtraction {
  const sign = eInvoice.credit ? -1 : 1;
  const fields: InvoiceExtraction['fields'] = {};
  for (const [key, value] of Object.entries(eInvoice.fields)) {
    const name = key as InvoiceFieldName;
    if (value === undefined) continue;
    fields[name] = { value: AMOUNTS.has(name) && typeof value === 'number' ? sign * value : value, confidence: FILE_VALUE };
  }
  const lineItems = eInvoice.lineItems.map((line) => ({
    ...line,
    amount: line.amount === undefined ? undefined : sign * line.amount,
    confidence: FILE_VALUE,
  }));
  const warnings: string[] = [];
  const review = (...names: InvoiceFieldName[]) =>
    names.forEach((n) => {
      const f = fields[n];
      if (f) Object.assign(f, { confidence: FILE_SUM_WRONG, needs_review: true });
    });
  const { subtotal, tax, total } = eInvoice.fields as Partial<Record<'subtotal' | 'tax' | 'total', number>>;
  const { lines: linesTotal, allowances = 0, charges = 0 } = eInvoice.sums;
  if (lineItems.length > 0) {
    const sum = cents(eInvoice.lineItems.reduce((a, l) => a + (l.amount ?? 0), 0));
    // without a stated lines' total, the subtotal is the target when nothing is allowed or charged
    const target = linesTotal ?? (allowances === 0 && charges === 0 ? subtotal : undefined);
    if (target !== undefined && !near(sum, target)) {
      warnings.push(`The e-invoice's lines add up to ${money(sum)}, but it gives ${money(target)} as their total: a line may be missing or wrong.`);
      for (const line of lineItems) line.confidence = FILE_LINE_UNCHECKED;
    }
  }
  if (linesTotal !== undefined && subtotal !== undefined && !near(linesTotal - allowances + charges, subtotal)) {
    review('subtotal');
    warnings.push(
      `The e-invoice's lines total ${money(linesTotal)}${allowances ? `, less ${money(allowances)} allowed` : ''}${charges ? `, plus ${money(charges)} charged` : ''}, makes ${money(linesTotal - allowances + charges)}, but its subtotal is ${money(subtotal)}.`,
    );
  }
  if (subtotal !== undefined && total !== undefined && !near(subtotal + (tax ?? 0), total)) {
    review('subtotal', 'tax', 'total');
    warnings.push(
      `Subtotal ${money(subtotal)}${tax !== undefined ? ` + tax ${money(tax)}` : ''} = ${money(subtotal + (tax ?? 0))}, but the e-invoice's total is ${money(total)}.`,
    );
  }
  return {
    fields,
    lineItems,
    warnings,
    eInvoice: { format: eInvoice.format, attachment: eInvoice.attachment, standalone: true, ...(eInvoice.credit ? { credit_note: true as const } : {}) },
  };
}

/**
 * An e-invoice's data as plain lines of text (the words a search should find it by): its number,
 * dates, parties, order, lines and totals. The text of an uploaded XML e-invoice, which has no page.
 */
export function eInvoiceText(eInvoice: EInvoice): string {
  const f = eInvoice.fields;
  const currency = typeof f.currency === 'string' ? ` ${f.currency}` : '';
  const amount = (v: string | number | undefined) => (typeof v === 'number' ? `${money(v)}${currency}` : undefined);
  const party = (role: string, name?: string | number, address?: string | number, vat?: string | number) =>
    name !== undefined || address !== undefined
      ? `${role}: ${[name, address, vat !== undefined ? `VAT ${vat}` : undefined].filter((x) => x !== undefined).join(', ')}`
      : undefined;
  const lines = [
    `${eInvoice.credit ? 'Credit note' : 'Invoice'} ${f.invoice_number ?? ''}`.trim() + ` (${eInvoice.format})`,
    f.invoice_date !== undefined ? `Date: ${f.invoice_date}` : undefined,
    f.due_date !== undefined ? `Due: ${f.due_date}` : undefined,
    party('Seller', f.vendor_name, f.vendor_address, f.vendor_vat_id),
    party('Buyer', f.customer_name, f.customer_address, f.customer_vat_id),
    f.po_number !== undefined ? `Order: ${f.po_number}` : undefined,
    ...eInvoice.lineItems.map(
      (l) =>
        `${l.description}${l.quantity !== undefined ? `, ${l.quantity}` : ''}${l.unit_price !== undefined ? ` × ${money(l.unit_price)}` : ''}: ${amount(l.amount) ?? ''}`,
    ),
    amount(f.subtotal) && `Subtotal: ${amount(f.subtotal)}`,
    amount(f.tax) && `Tax: ${amount(f.tax)}`,
    amount(f.total) && `Total: ${amount(f.total)}`,
    f.payment_terms !== undefined ? `Terms: ${f.payment_terms}` : undefined,
  ];
  return lines.filter((l): l is string => typeof l === 'string' && l !== '').join('\n');
}

/** The PDF of an XML e-invoice read as its pages (see readDocument): its name, why it could not be read, and how many the XML carries when more than one. */
export interface XmlPdf {
  name: string;
  error?: string;
  /** The PDFs the XML carries when more than one: this is the first that shows the invoice's number, or the first of all when none does. */
  carried?: number;
}

/** The data's invoice number printed on the page (true when the data gives none). */
const printsNumber = (number: string | number | undefined, printed: PrintedText) => number === undefined || isPrinted(printed, number, 'text');

/** The data's invoice number printed on the page, or read there as its invoice number (true when the data gives none). */
function showsNumber(number: string | number | undefined, printed: PrintedText, page: InvoiceExtraction): boolean {
  const pageNumber = page.fields.invoice_number;
  return printsNumber(number, printed) || !!(pageNumber && sameAs('invoice_number', pageNumber.value, number!));
}

/**
 * True when read pages are the e-invoice's own page: they show its invoice number (see
 * showsNumber) and hold some text. An annex (a timesheet, a delivery note) shows none.
 */
export function showsInvoiceNumber(eInvoice: Pick<EInvoice, 'fields'>, pages: readonly LayoutPage[]): boolean {
  const text = pagesText(pages);
  return text.trim() !== '' && showsNumber(eInvoice.fields.invoice_number, printedText(text), extractInvoice(pages));
}

/**
 * Of the PDFs an XML e-invoice carries, given as their text, the index of the invoice's own page:
 * the first whose text prints the invoice's number, else the first (as readDocument chooses from
 * the pages it reads).
 */
export function ownPageIndex(eInvoice: Pick<EInvoice, 'fields'>, texts: readonly string[]): number {
  const number = eInvoice.fields.invoice_number;
  const own = texts.findIndex((text) => text.trim() !== '' && printsNumber(number, printedText(text)));
  return Math.max(0, own);
}

/**
 * An XML e-invoice's data (fromEInvoice) compared with the page of the PDF it carries: the data is
 * the invoice (an XRechnung's XML is the legal document, its PDF a view of it), so its values
 * stay; where the page's reading found another value and the page prints the data's nowhere, the
 * value asks for a look and a sentence gives both. A PDF that does not show the
 * data's invoice number is not the invoice's page (an annex, a timesheet) and is not compared.
 */
export function withXmlPdf(eInvoice: EInvoice, pages: readonly LayoutPage[], xmlPdf: XmlPdf): InvoiceExtraction {
  const result = fromEInvoice(eInvoice);
  const info = result.eInvoice!;
  const notCompared = (why: string) => ({ ...result, eInvoice: { ...info, pdf: { name: xmlPdf.name, compared: false, why } } });
  const number = eInvoice.fields.invoice_number;
  // an XML that carries several PDFs, none of which shows the number: the first one is named
  const others = (xmlPdf.carried ?? 1) - 1;
  const noneOther =
    others === 0
      ? ''
      : others === 1
        ? `; the other PDF the e-invoice carries does not show the invoice number ${number}`
        : `; none of the other ${others} PDFs the e-invoice carries shows the invoice number ${number}`;
  if (xmlPdf.error) return notCompared(`it could not be read (${xmlPdf.error.replace(/\.$/, '')})${noneOther}`);
  const pageText = pagesText(pages);
  if (!pageText.trim()) return notCompared(`it holds no text to compare${noneOther}`);
  const page = extractInvoice(pages);
  const printed = printedText(pageText);
  if (!showsNumber(number, printed, page)) {
    return notCompared(
      others > 0
        ? `none of the ${others + 1} PDFs the e-invoice carries shows the invoice number ${number}, so none is this invoice's page (annexes, perhaps)`
        : `it does not show the invoice number ${number}, so it is not this invoice's page (an annex, perhaps)`,
    );
  }
  const conflicts: string[] = [];
  for (const [key, given] of Object.entries(eInvoice.fields)) {
    const name = key as InvoiceFieldName;
    const field = result.fields[name];
    const read = page.fields[name];
    if (given === undefined || !field || !read) continue;
    // a credit note's page may print its amounts with either sign
    const alike = (v: string | number) => sameAs(name, read.value, v) || partOf(name, read.value, v) || printedValue(printed, name, v);
    if (alike(given) || (typeof given === 'number' && alike(-given))) continue;
    Object.assign(field, { confidence: Math.min(field.confidence, CONFLICT), needs_review: true });
    conflicts.push(
      `The PDF in the e-invoice (${xmlPdf.name}) shows ${shown(read.value)} for the ${name.replace(/_/g, ' ')}, but its data gives ${shown(field.value)}: check which is right.`,
    );
  }
  return { ...result, warnings: [...conflicts, ...result.warnings], eInvoice: { ...info, pdf: { name: xmlPdf.name, compared: true } } };
}

/**
 * The invoice a read document holds, as the product shows it: the page's reading (extractInvoice)
 * with the e-invoice data a PDF carries laid over it (withEInvoice); an XML e-invoice uploaded on
 * its own is its data (fromEInvoice), compared with the PDF it carries when it carries one
 * (withXmlPdf). `doc` is the document read (its text, and the data when there is some).
 */
export function extractInvoiceFromDocument(
  pages: readonly LayoutPage[],
  doc: { text: string; read: { eInvoice?: EInvoice; xmlPdf?: XmlPdf } },
): InvoiceExtraction {
  const data = doc.read.eInvoice;
  if (data && doc.read.xmlPdf) return withXmlPdf(data, pages, doc.read.xmlPdf);
  if (pages.length === 0 && data) return fromEInvoice(data);
  return withEInvoice(extractInvoice(pages), data, doc.text);
}
