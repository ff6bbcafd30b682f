import type { InvoiceData } from './random-invoice';
import { rng } from './random-invoice';

/** Draws text on an A4 page (595 × 842 pt), y measured from the top. */
export interface Painter {
  text(x: number, y: number, text: string, opts?: { size?: number; bold?: boolean; align?: 'left' | 'right' }): void;
  rule(x0: number, y: number, x1: number): void;
}

/** How dates and amounts are written on one render. */
export interface Formats {
  date(iso: string): string;
  money(n: number, symbol?: boolean): string;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Picks date and number styles for an invoice: the way its currency's users write them. */
export function formatsFor(inv: InvoiceData, seed: number): Formats {
  const r = rng(seed * 7 + 3);
  const style = Math.floor(r() * 4);
  const date = (s: string) => {
    const [y, m, d] = s.split('-').map(Number);
    if (style === 0) return s;
    if (style === 1)
      return inv.currency === 'USD'
        ? `${String(m).padStart(2, '0')}/${String(d).padStart(2, '0')}/${y}`
        : `${String(d).padStart(2, '0')}/${String(m).padStart(2, '0')}/${y}`;
    if (style === 2) return `${d} ${MONTHS[m - 1]} ${y}`;
    return `${MONTHS[m - 1].slice(0, 3)} ${d}, ${y}`;
  };
  const european = inv.currency === 'EUR' && r() < 0.6;
  const sym = { USD: '$', EUR: '€', GBP: '£' }[inv.currency];
  const money = (n: number, symbol = false) => {
    const [i, f] = Math.abs(n).toFixed(2).split('.');
    const grouped = i.replace(/\B(?=(\d{3})+(?!\d))/g, european ? '.' : ',');
    const body = european ? `${grouped},${f}` : `${grouped}.${f}`;
    if (!symbol) return body;
    return european ? `${body} ${sym}` : `${sym}${body}`;
  };
  return { date, money };
}

export type Layout = (p: Painter, inv: InvoiceData, f: Formats) => void;

function table(
  p: Painter,
  inv: InvoiceData,
  f: Formats,
  top: number,
  headers: [string, string, string, string],
  cols: [number, number, number, number],
): number {
  const [d, q, u, a] = cols;
  p.text(d, top, headers[0], { bold: true });
  p.text(q, top, headers[1], { bold: true, align: 'right' });
  p.text(u, top, headers[2], { bold: true, align: 'right' });
  p.text(a, top, headers[3], { bold: true, align: 'right' });
  p.rule(d, top + 5, a);
  let y = top + 20;
  for (const l of inv.lines) {
    p.text(d, y, l.description);
    p.text(q, y, String(l.quantity), { align: 'right' });
    p.text(u, y, f.money(l.unitPrice), { align: 'right' });
    p.text(a, y, f.money(l.amount), { align: 'right' });
    y += 17;
  }
  p.rule(d, y - 8, a);
  return y + 8;
}

function totals(p: Painter, inv: InvoiceData, f: Formats, y: number, labels: [string, string, string], lx: number, vx: number): number {
  const tax = labels[1].replace('%', `${Math.round(inv.taxRate * 100)}%`);
  p.text(lx, y, labels[0]);
  p.text(vx, y, f.money(inv.subtotal), { align: 'right' });
  p.text(lx, y + 16, tax);
  p.text(vx, y + 16, f.money(inv.tax), { align: 'right' });
  p.text(lx, y + 34, labels[2], { bold: true });
  p.text(vx, y + 34, f.money(inv.total, true), { bold: true, align: 'right' });
  return y + 60;
}

function block(p: Painter, x: number, y: number, lines: string[], size = 10): number {
  lines.forEach((l, i) => p.text(x, y + i * 13, l, { size }));
  return y + lines.length * 13;
}

/** Vendor top-left in large type, title top-right, a right-hand label/value block, Bill To under. */
export const classic: Layout = (p, inv, f) => {
  p.text(50, 60, inv.vendorName, { size: 18, bold: true });
  block(p, 50, 82, inv.vendorAddress);
  p.text(50, 126, inv.vendorContact, { size: 8 });
  p.text(545, 60, 'INVOICE', { size: 22, bold: true, align: 'right' });
  const meta: [string, string][] = [
    ['Invoice No:', inv.invoiceNumber],
    ['Invoice Date:', f.date(inv.invoiceDate)],
    ['Due Date:', f.date(inv.dueDate)],
    ...(inv.poNumber ? ([['PO Number:', inv.poNumber]] as [string, string][]) : []),
    ['Terms:', inv.paymentTerms],
  ];
  meta.forEach(([l, v], i) => {
    p.text(360, 95 + i * 15, l, { bold: true });
    p.text(545, 95 + i * 15, v, { align: 'right' });
  });
  p.text(50, 190, 'Bill To:', { bold: true });
  p.text(50, 205, inv.customerName);
  block(p, 50, 218, inv.customerAddress);
  const y = table(p, inv, f, 290, ['Description', 'Qty', 'Unit Price', 'Amount'], [50, 330, 430, 545]);
  totals(p, inv, f, y, ['Subtotal', 'Tax (%)', 'Total Due'], 380, 545);
  p.text(50, 780, `Currency: ${inv.currency}. Thank you for your business.`, { size: 9 });
};

/** Title first, then a row of labels with values under them, From and Bill To side by side. */
export const headerGrid: Layout = (p, inv, f) => {
  p.text(50, 55, 'TAX INVOICE', { size: 20, bold: true });
  const heads: [string, string][] = [
    ['Invoice Number', inv.invoiceNumber],
    ['Issue Date', f.date(inv.invoiceDate)],
    ['Due Date', f.date(inv.dueDate)],
    ['Purchase Order', inv.poNumber ?? ''],
  ];
  heads.forEach(([l, v], i) => {
    if (!v) return;
    p.text(50 + i * 125, 95, l, { bold: true, size: 9 });
    p.text(50 + i * 125, 110, v);
  });
  p.text(50, 150, 'From', { bold: true });
  p.text(50, 165, inv.vendorName);
  block(p, 50, 178, inv.vendorAddress);
  p.text(320, 150, 'Bill To', { bold: true });
  p.text(320, 165, inv.customerName);
  block(p, 320, 178, inv.customerAddress);
  const y = table(p, inv, f, 260, ['Item', 'Quantity', 'Rate', 'Amount'], [50, 320, 430, 545]);
  const after = totals(p, inv, f, y, ['Sub Total', 'VAT %', 'Amount Due'], 360, 545);
  p.text(50, after + 10, `Payment Terms: ${inv.paymentTerms}`);
  p.text(50, after + 25, `All amounts in ${inv.currency}`, { size: 9 });
};

/** Everything as "Label: value" in one column, vendor centred at the top. */
export const compactColon: Layout = (p, inv, f) => {
  p.text(297, 50, inv.vendorName, { size: 16, bold: true, align: 'right' });
  p.text(297, 68, inv.vendorAddress.join(', '), { size: 9, align: 'right' });
  p.text(50, 110, 'Invoice', { size: 14, bold: true });
  const rows = [
    `Invoice #: ${inv.invoiceNumber}`,
    `Date: ${f.date(inv.invoiceDate)}`,
    `Payment Due: ${f.date(inv.dueDate)}`,
    ...(inv.poNumber ? [`P.O. No.: ${inv.poNumber}`] : []),
    `Payment Terms: ${inv.paymentTerms}`,
    `Currency: ${inv.currency}`,
  ];
  rows.forEach((t, i) => p.text(50, 135 + i * 15, t));
  p.text(330, 135, `Sold To: ${inv.customerName}`);
  block(p, 330, 150, inv.customerAddress);
  const y = table(p, inv, f, 270, ['Description', 'Qty', 'Price', 'Total'], [50, 320, 420, 545]);
  totals(p, inv, f, y, ['Subtotal:', 'Sales Tax (%):', 'Balance Due:'], 370, 545);
};

/** Vendor block top right, a two-column key table on the left with wide gaps, Invoice To under. */
export const rightVendor: Layout = (p, inv, f) => {
  p.text(545, 50, inv.vendorName, { size: 15, bold: true, align: 'right' });
  inv.vendorAddress.forEach((l, i) => p.text(545, 68 + i * 13, l, { size: 10, align: 'right' }));
  p.text(50, 50, 'Invoice', { size: 24, bold: true });
  const rows: [string, string][] = [
    ['Inv Number', inv.invoiceNumber],
    ['Date of Issue', f.date(inv.invoiceDate)],
    ['Pay By', f.date(inv.dueDate)],
    ...(inv.poNumber ? ([['Your Order', inv.poNumber]] as [string, string][]) : []),
    ['Payment Terms', inv.paymentTerms],
  ];
  rows.forEach(([l, v], i) => {
    p.text(50, 140 + i * 15, l, { size: 10 });
    p.text(170, 140 + i * 15, v, { size: 10 });
  });
  p.text(340, 140, 'Invoice To', { bold: true });
  p.text(340, 155, inv.customerName);
  block(p, 340, 168, inv.customerAddress);
  const y = table(p, inv, f, 260, ['Product', 'Hours', 'Unit Cost', 'Line Total'], [50, 320, 430, 545]);
  totals(p, inv, f, y, ['Net Total', 'VAT (%)', 'Grand Total'], 370, 545);
  p.text(50, 790, `Prices in ${inv.currency}`, { size: 8 });
};

/** A "modern" layout: customer first, meta block in the middle right, different synonyms. */
export const modern: Layout = (p, inv, f) => {
  p.text(50, 45, inv.vendorName, { size: 20, bold: true });
  p.text(50, 66, inv.vendorAddress.join(' · '), { size: 8 });
  p.text(50, 120, 'Customer', { size: 9, bold: true });
  p.text(50, 134, inv.customerName, { size: 11 });
  block(p, 50, 148, inv.customerAddress, 10);
  const meta: [string, string][] = [
    ['Invoice Ref', inv.invoiceNumber],
    ['Billing Date', f.date(inv.invoiceDate)],
    ['Date Due', f.date(inv.dueDate)],
    ...(inv.poNumber ? ([['PO #', inv.poNumber]] as [string, string][]) : []),
    ['Terms', inv.paymentTerms],
  ];
  meta.forEach(([l, v], i) => {
    p.text(330, 120 + i * 15, l, { size: 9, bold: true });
    p.text(545, 120 + i * 15, v, { size: 10, align: 'right' });
  });
  const y = table(p, inv, f, 250, ['Details', 'Units', 'Unit Rate', 'Total'], [50, 330, 440, 545]);
  totals(p, inv, f, y, ['Total Net', 'GST %', 'Amount Payable'], 380, 545);
  p.text(50, 800, `Currency ${inv.currency} — remit within the terms above.`, { size: 8 });
};

export const LAYOUTS = { classic, headerGrid, compactColon, rightVendor, modern } as const;
export type LayoutName = keyof typeof LAYOUTS;
