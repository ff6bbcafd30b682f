/**
 * Column detection from header names: which column is the matching key, and which hold the
 * quantity, unit price, line total, description, vendor and vendor e-mail. Synonyms cover the
 * usual ERP and spreadsheet exports ("Qty", "Unit Cost", "Extended Amount", "Supplier Name"...).
 */
import { CsvFormatError, normaliseHeader } from '../../../src/server';

export type ColumnRole = 'quantity' | 'unitPrice' | 'total' | 'description' | 'vendor' | 'vendorEmail';

/** The index (and header) of each recognised column; absent roles are left out. */
export type ColumnMap = Partial<Record<ColumnRole, { index: number; header: string }>>;

const ROLE_SYNONYMS: Record<ColumnRole, string[]> = {
  quantity: [
    'quantity',
    'qty',
    'quantity invoiced',
    'quantity ordered',
    'qty invoiced',
    'qty ordered',
    'units',
    'unit count',
    'no of units',
    'count',
    'pieces',
    'pcs',
  ],
  unitPrice: ['unit price', 'price', 'unit cost', 'price per unit', 'cost per unit', 'rate', 'unit rate', 'unitprice', 'each', 'price each', 'net price'],
  total: [
    'total',
    'line total',
    'amount',
    'total amount',
    'line amount',
    'extended price',
    'extended amount',
    'ext price',
    'net amount',
    'total price',
    'value',
    'line value',
    'subtotal',
    'sub total',
    'total cost',
    'invoice amount',
    'po amount',
    'order amount',
  ],
  description: [
    'description',
    'item description',
    'item',
    'product',
    'product name',
    'item name',
    'details',
    'line description',
    'article',
    'service',
    'goods',
    'sku description',
  ],
  vendor: [
    'vendor',
    'supplier',
    'vendor name',
    'supplier name',
    'seller',
    'company',
    'company name',
    'payee',
    'merchant',
    'bill from',
    'vendor id',
    'supplier id',
  ],
  vendorEmail: ['vendor email', 'supplier email', 'email', 'e mail', 'contact email', 'vendor e mail', 'supplier e mail', 'email address'],
};

/** Words that make a header look like a record key, strongest first. */
const KEY_SYNONYMS = [
  'po number',
  'po no',
  'po num',
  'po id',
  'po',
  'purchase order',
  'purchase order number',
  'purchase order no',
  'purchase order id',
  'order number',
  'order no',
  'order id',
  'invoice number',
  'invoice no',
  'invoice id',
  'invoice',
  'inv no',
  'inv number',
  'reference',
  'ref',
  'ref no',
  'reference number',
  'document number',
  'doc no',
  'line id',
  'item id',
  'id',
  'key',
  'number',
  'no',
];

/** How well a normalised header fits a synonym list: 3 exact, 2 prefix/suffix word match, 1 contains, 0 none. */
function fit(normalised: string, synonyms: string[]): number {
  let best = 0;
  for (const synonym of synonyms) {
    if (normalised === synonym) return 3;
    const padded = ` ${normalised} `;
    if (padded.startsWith(` ${synonym} `) || padded.endsWith(` ${synonym} `)) best = Math.max(best, 2);
    else if (synonym.length > 3 && padded.includes(` ${synonym} `)) best = Math.max(best, 1);
  }
  return best;
}

/**
 * Finds the quantity, unit price, total, description, vendor and vendor e-mail columns by name.
 * Each column serves one role; a role goes to the header that fits it best (exact name before
 * partial), and `exclude` (the key column) is never used.
 */
export function detectColumns(headers: string[], exclude: number[] = []): ColumnMap {
  const normalised = headers.map(normaliseHeader);
  const candidates: { role: ColumnRole; index: number; score: number }[] = [];
  (Object.keys(ROLE_SYNONYMS) as ColumnRole[]).forEach((role, roleOrder) => {
    normalised.forEach((name, index) => {
      if (exclude.includes(index)) return;
      let score = fit(name, ROLE_SYNONYMS[role]);
      // "vendor email" is an e-mail column, not the vendor's name; "total quantity" is a quantity.
      if (role === 'vendor' && /\be ?mail\b/.test(name)) score = 0;
      if (role === 'total' && /\b(qty|quantity|units)\b/.test(name)) score = 0;
      if (role === 'unitPrice' && /\btotal\b/.test(name)) score = 0;
      if (score) candidates.push({ role, index, score: score * 10 - roleOrder * 0.1 - index * 0.001 });
    });
  });
  candidates.sort((a, b) => b.score - a.score);
  const map: ColumnMap = {};
  const used = new Set<number>();
  for (const c of candidates) {
    if (map[c.role] || used.has(c.index)) continue;
    map[c.role] = { index: c.index, header: headers[c.index] };
    used.add(c.index);
  }
  return map;
}

/** Headers that look like a record key, best first (with their fit score). */
export function keyCandidates(headers: string[]): { index: number; header: string; score: number }[] {
  return headers
    .map((header, index) => {
      const name = normaliseHeader(header);
      const rank = KEY_SYNONYMS.findIndex((s) => name === s);
      const partial = KEY_SYNONYMS.findIndex((s) => s.length > 2 && (` ${name} `.includes(` ${s} `) || name.replace(/ /g, '') === s.replace(/ /g, '')));
      const score = rank >= 0 ? 100 - rank : partial >= 0 ? 50 - partial : 0;
      return { index, header, score };
    })
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index);
}

/** The key columns to match two files on, found from their headers alone. */
export interface KeyPair {
  invoiceKey: string;
  purchaseOrderKey: string;
}

/**
 * Chooses the key pair for the default reconciliation: a key-like header present in both files
 * (a PO number on the invoice and on the order is the usual link) wins; otherwise the best key
 * candidate of each file. Throws a CsvFormatError naming the file when one has no key-like column.
 */
export function detectKeyPair(invoiceHeaders: string[], purchaseOrderHeaders: string[], invoiceFile: string, purchaseOrderFile: string): KeyPair {
  const invoiceKeys = keyCandidates(invoiceHeaders);
  const orderKeys = keyCandidates(purchaseOrderHeaders);
  if (!invoiceKeys.length) throw noKey(invoiceFile, invoiceHeaders);
  if (!orderKeys.length) throw noKey(purchaseOrderFile, purchaseOrderHeaders);
  let best: { pair: KeyPair; score: number } | undefined;
  for (const i of invoiceKeys) {
    for (const p of orderKeys) {
      if (normaliseHeader(i.header) !== normaliseHeader(p.header)) continue;
      const score = i.score + p.score;
      if (!best || score > best.score) best = { pair: { invoiceKey: i.header, purchaseOrderKey: p.header }, score };
    }
  }
  if (best) return best.pair;
  // No shared name: an invoice column that refers to an order ("PO Number") against the order file's own key.
  const orderReference = invoiceKeys.find((k) => /\b(po|purchase order|order)\b/.test(normaliseHeader(k.header)));
  return { invoiceKey: (orderReference ?? invoiceKeys[0]).header, purchaseOrderKey: orderKeys[0].header };
}

/** The best key column of a single file (the invoice-only check). */
export function detectKey(headers: string[], fileName: string): string {
  const keys = keyCandidates(headers);
  const invoiceNumber = keys.find((k) => /\b(invoice|inv)\b/.test(normaliseHeader(k.header)));
  if (!keys.length) throw noKey(fileName, headers);
  return (invoiceNumber ?? keys[0]).header;
}

function noKey(fileName: string, headers: string[]): CsvFormatError {
  return new CsvFormatError(
    `The file "${fileName}" has no column that looks like a key (such as "PO Number" or "Invoice Number"); its columns are: ${headers.join(', ')}.`,
    fileName,
    1,
  );
}

/**
 * The index of a named column, compared trimmed and case-insensitively (then by normalised
 * form). Throws a CsvFormatError listing the file's columns when it is missing.
 */
export function findColumn(headers: string[], wanted: string, fileName: string, purpose: string): number {
  const target = wanted.trim().toLowerCase();
  let index = headers.findIndex((h) => h.trim().toLowerCase() === target);
  if (index < 0) index = headers.findIndex((h) => normaliseHeader(h) === normaliseHeader(wanted));
  if (index < 0) {
    throw new CsvFormatError(
      `The file "${fileName}" has no column "${wanted}" (chosen as the ${purpose}); its columns are: ${headers.join(', ')}.`,
      fileName,
      1,
      wanted,
    );
  }
  return index;
}
