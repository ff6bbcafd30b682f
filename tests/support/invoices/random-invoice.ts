/**
 * Seeded random invoice data with known truth, for the generated test set. The truth holds the
 * normalised values the extractor should return (ISO dates, numbers, ISO currency codes).
 */
export interface InvoiceLine {
  description: string;
  quantity: number;
  unitPrice: number;
  amount: number;
}

export interface InvoiceData {
  invoiceNumber: string;
  invoiceDate: string;
  dueDate: string;
  vendorName: string;
  vendorAddress: string[];
  vendorContact: string;
  customerName: string;
  customerAddress: string[];
  poNumber?: string;
  currency: 'USD' | 'EUR' | 'GBP';
  paymentTerms: string;
  taxRate: number;
  lines: InvoiceLine[];
  subtotal: number;
  tax: number;
  total: number;
}

/** Mulberry32: a small, fast, seedable PRNG so every render is reproducible. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const int = (r: () => number, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

const PREFIX = [
  'Blue',
  'North',
  'Silver',
  'Granite',
  'Bright',
  'Oak',
  'Summit',
  'Harbor',
  'Vertex',
  'Cedar',
  'Pioneer',
  'Atlas',
  'Lumen',
  'Copper',
  'Meridian',
];
const CORE = ['River', 'Peak', 'Field', 'Stone', 'Wave', 'Ridge', 'Bridge', 'Point', 'Grove', 'Works', 'Labs', 'Systems', 'Logistics', 'Supply', 'Studio'];
const SUFFIX = ['Ltd', 'LLC', 'Inc.', 'GmbH', 'Co.', 'Limited', 'Group', 'BV', 'S.A.', 'Partners'];
const STREETS = [
  'Main Street',
  'High Street',
  'Market Road',
  'Park Avenue',
  'Station Road',
  'Mill Lane',
  'King Street',
  'Church Road',
  'Elm Drive',
  'Harbour Way',
];
const CITIES = ['Springfield', 'Riverton', 'Lakeside', 'Fairview', 'Greenville', 'Kingston', 'Ashford', 'Milton', 'Bristol', 'Dover'];
const COUNTRIES = ['United States', 'United Kingdom', 'Germany', 'Netherlands', 'Ireland', 'Canada', 'France'];
const ITEMS = [
  'Consulting services',
  'Website maintenance',
  'Office chairs',
  'Laptop stand',
  'Cloud hosting (monthly)',
  'Design workshop',
  'Printer paper A4',
  'Software licence',
  'Support hours',
  'Network switch',
  'Training session',
  'Delivery charge',
  'USB-C cable 2m',
  'Project management',
  'Data migration',
  'Desk lamp',
  'Annual subscription',
  'Copywriting',
  'Server rack rental',
];

function company(r: () => number): string {
  return `${pick(r, PREFIX)} ${pick(r, CORE)} ${pick(r, SUFFIX)}`;
}

function address(r: () => number): string[] {
  return [`${int(r, 1, 999)} ${pick(r, STREETS)}`, `${pick(r, CITIES)} ${int(r, 10000, 99999)}`, pick(r, COUNTRIES)];
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const iso = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** One random invoice; the same seed always gives the same invoice. */
export function randomInvoice(seed: number): InvoiceData {
  const r = rng(seed);
  const issued = new Date(Date.UTC(int(r, 2023, 2027), int(r, 0, 11), int(r, 1, 28)));
  const termsDays = pick(r, [0, 14, 15, 30, 30, 45, 60]);
  const due = new Date(issued.getTime() + termsDays * 86400000);
  const currency = pick(r, ['USD', 'EUR', 'GBP'] as const);
  const lines: InvoiceLine[] = Array.from({ length: int(r, 1, 7) }, () => {
    const quantity = int(r, 1, 25);
    const unitPrice = round2(pick(r, [int(r, 2, 99) + int(r, 0, 99) / 100, int(r, 100, 2500) + pick(r, [0, 0.5, 0.99]), int(r, 10, 300)]));
    return { description: pick(r, ITEMS), quantity, unitPrice, amount: round2(quantity * unitPrice) };
  });
  const subtotal = round2(lines.reduce((s, l) => s + l.amount, 0));
  const taxRate = pick(r, [0.05, 0.07, 0.1, 0.19, 0.2, 0.21]);
  const tax = round2(subtotal * taxRate);
  const number = pick(r, [
    () => `INV-${issued.getUTCFullYear()}-${pad(int(r, 1, 9999), 4)}`,
    () => `${int(r, 10000, 999999)}`,
    () => `F${int(r, 100, 999)}/${int(r, 10, 99)}`,
    () => `INV${pad(int(r, 1, 99999), 5)}`,
    () => `${pick(r, ['A', 'B', 'C'])}-${int(r, 1000, 9999)}`,
  ])();
  return {
    invoiceNumber: number,
    invoiceDate: iso(issued),
    dueDate: iso(due),
    vendorName: company(r),
    vendorAddress: address(r),
    vendorContact: `billing@${pick(r, CORE).toLowerCase()}.example  +1 555 ${int(r, 100, 999)} ${int(r, 1000, 9999)}`,
    customerName: company(r),
    customerAddress: address(r),
    poNumber: r() < 0.7 ? `PO-${int(r, 1000, 99999)}` : undefined,
    currency,
    paymentTerms: termsDays === 0 ? 'Due on receipt' : `Net ${termsDays}`,
    taxRate,
    lines,
    subtotal,
    tax,
    total: round2(subtotal + tax),
  };
}

/** The values an extractor should return for an invoice, keyed like the extractor's fields. */
export function truthOf(inv: InvoiceData): Record<string, string | number | undefined> {
  return {
    invoice_number: inv.invoiceNumber,
    invoice_date: inv.invoiceDate,
    due_date: inv.dueDate,
    vendor_name: inv.vendorName,
    vendor_address: inv.vendorAddress.join(', '),
    customer_name: inv.customerName,
    customer_address: inv.customerAddress.join(', '),
    po_number: inv.poNumber,
    subtotal: inv.subtotal,
    tax: inv.tax,
    total: inv.total,
    currency: inv.currency,
    payment_terms: inv.paymentTerms,
  };
}
