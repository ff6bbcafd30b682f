/**
 * Reconciliation e-mails: one to each vendor whose lines did not match (and, when asked, one
 * confirming the lines that did), plus an internal memo. Each is a TextTask for the shared
 * text-generation interface: the deterministic template is a complete business e-mail citing
 * the rows, both values and the delta of every line; the prompt gives a model the same facts.
 * Six tones, each with its own greeting, framing, request and sign-off.
 */
import type { GeneratedText, TextGenerator, TextTask } from '../../../src/server';
import type { Discrepancy, ReconcileResult, UnmatchedRecord, VendorSummary } from './matcher';

export const TONES = ['formal', 'empathetic', 'friendly', 'casual', 'authoritative', 'humorous'] as const;
export type Tone = (typeof TONES)[number];

export function isTone(value: unknown): value is Tone {
  return typeof value === 'string' && (TONES as readonly string[]).includes(value);
}

export type EmailType = 'vendor_not_matched' | 'vendor_matched' | 'internal_memo';

/** A drafted e-mail as shown on screen. */
export interface EmailDraft {
  type: EmailType;
  vendor: string | null;
  /** The vendor's e-mail address when a column gave one, else the vendor name (or the AP team for the memo). */
  to: string;
  subject: string;
  body: string;
  tone: Tone | null;
  source: GeneratedText['source'];
}

export interface EmailSettings {
  generateForNotMatched: boolean;
  generateForMatched: boolean;
  generateInternalMemo: boolean;
  toneNotMatched: Tone;
  toneMatched: Tone;
  /** Who signs the e-mails; default "Accounts Payable". */
  sender?: string;
  /** At most this many vendor e-mails of each type (default 50); the memo says how many were left out. */
  maxVendorEmails?: number;
  /** Lines cited per e-mail before "and N more" (default 25). */
  maxLinesPerEmail?: number;
}

/** What the lines were checked against: the purchase orders, or (invoice-only) their own arithmetic. */
type Checked = 'orders' | 'self';

interface ToneStyle {
  greeting: (vendor: string) => string;
  notMatched: { subject: (n: number) => string; opener: (checked: Checked) => string; ask: string; close: string };
  matched: { subject: (n: number) => string; opener: string; close: string };
  signoff: (sender: string) => string;
  guidance: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const STYLES: Record<Tone, ToneStyle> = {
  formal: {
    greeting: (v) => `Dear ${v} Accounts Receivable Team,`,
    notMatched: {
      subject: (n) => `Invoice discrepancies requiring your attention (${plural(n, 'line')})`,
      opener: (c) =>
        `We have ${c === 'orders' ? 'reconciled your recent invoices against our purchase orders' : 'checked your recent invoices line by line'} and identified the discrepancies set out below. We are unable to process these lines for payment until they are resolved.`,
      ask: 'We would be grateful if you could review these items and issue a corrected invoice or credit note, or provide supporting documentation, at your earliest convenience.',
      close: 'Thank you for your prompt attention to this matter.',
    },
    matched: {
      subject: (n) => `Confirmation of matched invoice lines (${plural(n, 'line')})`,
      opener:
        'We are pleased to confirm that the following invoice lines agree with our purchase orders and have been approved for payment in accordance with the agreed terms.',
      close: 'Thank you for your continued cooperation.',
    },
    signoff: (s) => `Yours sincerely,\n${s}`,
    guidance: 'formal: courteous, precise, complete sentences, no contractions',
  },
  empathetic: {
    greeting: (v) => `Hello ${v} team,`,
    notMatched: {
      subject: () => "A few invoice lines we'd like to sort out with you",
      opener: (c) =>
        `We know how much it matters to be paid on time, so we wanted to tell you straight away about some lines on your invoices that ${c === 'orders' ? "don't match our purchase orders" : "don't add up as they should"}. We're sure these are simple oversights, and we'd like to help resolve them quickly.`,
      ask: "Whenever you have a moment, could you take a look and send us a corrected invoice or a short note explaining the differences? If anything looks wrong on our side, please tell us — we're happy to go through it together.",
      close: 'Thank you for your patience and for working through this with us.',
    },
    matched: {
      subject: () => 'Good news: your invoice lines are approved',
      opener:
        'We know waiting on payment can be stressful, so we wanted to let you know that these lines match our purchase orders and are on their way to payment.',
      close: 'Thank you for the care you put into your invoicing — it makes a real difference.',
    },
    signoff: (s) => `Kind regards,\n${s}`,
    guidance: 'empathetic: warm, understanding, acknowledges the reader’s position, reassuring',
  },
  friendly: {
    greeting: (v) => `Hi ${v} team,`,
    notMatched: {
      subject: () => 'Quick check on a few invoice lines',
      opener: (c) =>
        `Hope all's well! While ${c === 'orders' ? 'matching your invoices to our purchase orders' : 'going through your invoices'} we spotted a few lines that don't quite line up:`,
      ask: "Could you have a look and send over a corrected invoice (or let us know what we've missed)? We'll get everything paid as soon as it's squared away.",
      close: 'Thanks so much!',
    },
    matched: {
      subject: () => 'All matched — thanks!',
      opener: 'Great news — these invoice lines match our purchase orders perfectly and are lined up for payment:',
      close: 'Thanks for making it easy!',
    },
    signoff: (s) => `Best,\n${s}`,
    guidance: 'friendly: upbeat, approachable, contractions, positive',
  },
  casual: {
    greeting: (v) => `Hey ${v} folks,`,
    notMatched: {
      subject: () => 'Few invoice mismatches',
      opener: (c) => `${c === 'orders' ? 'Ran your invoices against our POs' : 'Went through your invoices'} and a few things don't add up:`,
      ask: 'Can you take a look and send a fixed invoice when you get a sec?',
      close: 'Cheers,',
    },
    matched: {
      subject: () => "Invoices matched, you're good",
      opener: 'Checked your invoices against our POs — these are all good and going through for payment:',
      close: 'Cheers,',
    },
    signoff: (s) => `${s}`,
    guidance: 'casual: short, relaxed, plain words, like a quick note between colleagues',
  },
  authoritative: {
    greeting: (v) => `To the ${v} billing department:`,
    notMatched: {
      subject: (n) => `Action required: ${plural(n, 'invoice line')} on hold`,
      opener: (c) =>
        `Our ${c === 'orders' ? 'reconciliation of your invoices against the purchase orders we issued' : 'review of your invoices'} found the discrepancies listed below. These lines are on hold and will not be paid as invoiced.`,
      ask: 'Issue a corrected invoice or credit note for each line within 10 business days. Invoices must match the quantities and prices agreed on the purchase order; lines without a valid purchase order number will not be processed.',
      close: 'Payment of all other lines proceeds as scheduled.',
    },
    matched: {
      subject: (n) => `Approved for payment: ${plural(n, 'invoice line')}`,
      opener: 'The following invoice lines have been verified against our purchase orders and are approved for payment under the agreed terms.',
      close: 'Continue to quote the purchase order number on every invoice line.',
    },
    signoff: (s) => s,
    guidance: 'authoritative: direct, firm, clear requirements and deadlines, no hedging',
  },
  humorous: {
    greeting: (v) => `Hi ${v} team,`,
    notMatched: {
      subject: () => "Our spreadsheet found some invoice lines that don't match",
      opener: (c) =>
        `Our spreadsheet has been doing detective work again, and it has found a few invoice lines that don't agree with ${c === 'orders' ? 'their purchase orders' : 'themselves'}. Nobody's in trouble — the numbers just need to shake hands before payment can leave the building:`,
      ask: 'Could you send a corrected invoice (or tell us which of us needs new glasses)? As soon as the numbers agree, the money goes out.',
      close: 'Thanks for being good sports about it!',
    },
    matched: {
      subject: () => 'Perfect match — our spreadsheet is delighted',
      opener: 'Our spreadsheet rarely smiles, but it did today: these invoice lines match their purchase orders to the cent and are heading off to be paid:',
      close: 'Keep those numbers this tidy and it might even start telling jokes.',
    },
    signoff: (s) => `Cheers,\n${s} (and one very pedantic spreadsheet)`,
    guidance: 'humorous: light, witty, a gentle joke or two, still clear about every number and the request',
  },
};

const amountFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 });
const quantityFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });

function money(value: number | string | null): string {
  return typeof value === 'number' ? amountFormat.format(value) : String(value ?? '—');
}

function signed(value: number, format: (v: number) => string): string {
  return `${value > 0 ? '+' : value < 0 ? '−' : ''}${format(Math.abs(value))}`;
}

/** One discrepancy as a sentence fragment with both values and the delta. */
export function describeDiscrepancy(d: Discrepancy): string {
  const where = `invoice row ${d.invoice_row ?? '—'}${d.purchase_order_row ? `, PO row ${d.purchase_order_row}` : ''}`;
  const q = (v: number | string | null) => (typeof v === 'number' ? quantityFormat.format(v) : String(v ?? '—'));
  switch (d.kind) {
    case 'quantity':
      return `quantity invoiced ${q(d.invoice_value)}, ordered ${q(d.purchase_order_value)} (${signed(d.delta!, (v) => quantityFormat.format(v))}) [${where}]`;
    case 'unit_price':
      return `unit price invoiced ${money(d.invoice_value)}, ordered ${money(d.purchase_order_value)} (${signed(d.delta!, (v) => amountFormat.format(v))}) [${where}]`;
    case 'total':
      return `total invoiced ${money(d.invoice_value)}, ordered ${money(d.purchase_order_value)} (${signed(d.delta!, (v) => amountFormat.format(v))}) [${where}]`;
    case 'line_total':
      return `line total stated as ${money(d.invoice_value)} but the quantity × unit price comes to ${money(d.expected_value)} (${signed(d.delta!, (v) => amountFormat.format(v))}) [invoice row ${d.invoice_row}]`;
    case 'vendor':
      return `invoiced by "${d.invoice_value}" but the purchase order was placed with "${d.purchase_order_value}" [${where}]`;
    case 'missing_value':
      return `${d.field.replace('_', ' ')} ${d.invoice_value === null ? `missing on the invoice (ordered: ${money(d.purchase_order_value)})` : `not on the purchase order (invoiced: ${money(d.invoice_value)})`} [${where}]`;
    case 'duplicate_invoice_key':
      return `billed a second time at invoice row ${d.invoice_row} — possible duplicate charge`;
    case 'duplicate_purchase_order_key':
      return `purchase order number used twice in our records (PO row ${d.purchase_order_row})`;
  }
}

/** The cited lines of a vendor e-mail: discrepancies grouped by key, then unmatched invoice lines. */
function vendorLines(discrepancies: Discrepancy[], unmatched: UnmatchedRecord[], max: number): string[] {
  const byKey = new Map<string, Discrepancy[]>();
  for (const d of discrepancies) {
    const list = byKey.get(d.key) ?? [];
    list.push(d);
    byKey.set(d.key, list);
  }
  const lines: string[] = [];
  for (const [key, list] of byKey) {
    const description = list.find((d) => d.description)?.description;
    lines.push(`• ${key}${description ? ` (${description})` : ''}: ${list.map(describeDiscrepancy).join('; ')}.`);
  }
  for (const u of unmatched) {
    const what = [u.description, u.total !== null ? money(u.total) : ''].filter(Boolean).join(', ');
    lines.push(
      u.key
        ? `• ${u.key}${what ? ` (${what})` : ''}: we cannot find a purchase order with this number [invoice row ${u.row}].`
        : `• Invoice row ${u.row}${what ? ` (${what})` : ''}: ${u.reason.replace(/\.$/, '').replace(/^No value/, 'no value')}.`,
    );
  }
  if (lines.length > max)
    return [...lines.slice(0, max), `…and ${lines.length - max} more ${lines.length - max === 1 ? 'line' : 'lines'} (see the attached reconciliation report).`];
  return lines;
}

function splitSubject(text: string, fallback: string): { subject: string; body: string } {
  const match = /^\s*subject:\s*(.+)\r?\n/i.exec(text);
  if (!match) return { subject: fallback, body: text.trim() };
  return { subject: match[1].trim(), body: text.slice(match[0].length).trim() };
}

const FORMAT_RULE =
  'Reply with the e-mail only: the first line "Subject: …", a blank line, then the body. Cite every line listed in the facts with its key, both values and the difference exactly as given; do not invent facts, amounts or deadlines.';

/** The e-mail to a vendor about lines that did not match (discrepancies and invoice lines without an order). */
export function vendorNotMatchedTask(
  vendor: VendorSummary,
  discrepancies: Discrepancy[],
  unmatched: UnmatchedRecord[],
  tone: Tone,
  files: { invoice: string; purchaseOrder: string | null },
  options: { sender?: string; maxLines?: number } = {},
): TextTask {
  const style = STYLES[tone];
  const sender = options.sender ?? 'Accounts Payable';
  const keys = new Set(discrepancies.map((d) => d.key));
  const count = keys.size + unmatched.length;
  const lines = vendorLines(discrepancies, unmatched, options.maxLines ?? 25);
  const source = files.purchaseOrder ? `${files.invoice} against ${files.purchaseOrder}` : files.invoice;
  const subject = style.notMatched.subject(count);
  const template = () =>
    [
      `Subject: ${subject}`,
      '',
      style.greeting(vendor.vendor),
      '',
      style.notMatched.opener(files.purchaseOrder ? 'orders' : 'self'),
      '',
      ...lines,
      '',
      style.notMatched.ask,
      '',
      style.notMatched.close,
      '',
      style.signoff(sender),
    ].join('\n');
  return {
    name: 'reconciliation.vendor-email',
    system: `You write accounts-payable e-mails to suppliers on behalf of ${sender}. Tone — ${style.guidance}. ${FORMAT_RULE}`,
    prompt: [
      `Write an e-mail to ${vendor.vendor} about ${plural(count, 'invoice line')} that ${files.purchaseOrder ? 'did not match our purchase orders' : 'failed our invoice checks'} (${source}).`,
      'Ask for a corrected invoice or credit note, or an explanation.',
      'Lines:',
      ...lines,
      `Sign as: ${sender}.`,
    ].join('\n'),
    template,
    maxTokens: 900,
  };
}

/** The e-mail confirming to a vendor that its lines matched and are approved. */
export function vendorMatchedTask(vendor: VendorSummary, tone: Tone, options: { sender?: string; maxLines?: number } = {}): TextTask {
  const style = STYLES[tone];
  const sender = options.sender ?? 'Accounts Payable';
  const max = options.maxLines ?? 25;
  const sample = vendor.clean_sample
    .slice(0, max)
    .map((s) => `• ${s.key}${s.description ? ` (${s.description})` : ''}: ${s.total !== null ? money(s.total) : 'amount as invoiced'} [invoice row ${s.row}]`);
  if (vendor.clean_lines > sample.length) sample.push(`…and ${vendor.clean_lines - sample.length} more.`);
  const summary = `${plural(vendor.clean_lines, 'line')} in all${vendor.clean_lines === vendor.matched_lines ? `, totalling ${money(vendor.matched_total)}` : ''}.`;
  const subject = style.matched.subject(vendor.clean_lines);
  const template = () =>
    [
      `Subject: ${subject}`,
      '',
      style.greeting(vendor.vendor),
      '',
      style.matched.opener,
      '',
      ...sample,
      '',
      summary,
      '',
      style.matched.close,
      '',
      style.signoff(sender),
    ].join('\n');
  return {
    name: 'reconciliation.vendor-confirmation',
    system: `You write accounts-payable e-mails to suppliers on behalf of ${sender}. Tone — ${style.guidance}. ${FORMAT_RULE}`,
    prompt: [
      `Write an e-mail to ${vendor.vendor} confirming that these invoice lines matched our purchase orders and are approved for payment.`,
      ...sample,
      summary,
      `Sign as: ${sender}.`,
    ].join('\n'),
    template,
    maxTokens: 700,
  };
}

/** The internal memo: what was reconciled, what differs, what to do next. */
export function internalMemoTask(result: ReconcileResult, options: { sender?: string; maxLines?: number } = {}): TextTask {
  const m = result.metadata;
  const max = options.maxLines ?? 10;
  const sender = options.sender ?? 'Accounts Payable';
  const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
  const kinds = Object.entries(m.discrepancies_by_kind).map(([k, n]) => `${k.replace(/_/g, ' ')}: ${n}`);
  const largest = result.discrepencies
    .filter((d) => d.kind === 'total' || d.kind === 'line_total')
    .sort((a, b) => Math.abs(b.delta ?? 0) - Math.abs(a.delta ?? 0))
    .slice(0, max)
    .map((d) => `• ${d.key} (${d.vendor || 'unknown vendor'}): ${describeDiscrepancy(d)}`);
  const orphanOrders = result.unmatched_records.filter((u) => u.side === 'purchase_order');
  const orphanInvoices = result.unmatched_records.filter((u) => u.side === 'invoice');
  const list = (records: UnmatchedRecord[]) => [
    ...records
      .slice(0, max)
      .map((u) => `• ${u.key || '(no key)'} — ${u.vendor || 'unknown vendor'}${u.total !== null ? `, ${money(u.total)}` : ''} [row ${u.row}]`),
    ...(records.length > max ? [`…and ${records.length - max} more.`] : []),
  ];
  const duplicates = result.discrepencies.filter((d) => d.kind === 'duplicate_invoice_key');
  const source = m.purchase_order_file ? `${m.invoice_file} against ${m.purchase_order_file}` : `${m.invoice_file} (invoice-only check)`;
  const subject = `Reconciliation memo: ${source}`;
  const actions = [
    m.lines_with_discrepancies
      ? `Hold payment on the ${plural(m.lines_with_discrepancies, 'line')} with discrepancies until corrected invoices or credit notes arrive.`
      : '',
    orphanInvoices.length ? `Ask the vendors for the purchase order numbers of the ${plural(orphanInvoices.length, 'invoice line')} without a match.` : '',
    duplicates.length ? `Do not pay the ${plural(duplicates.length, 'duplicate invoice line')} until they are confirmed as separate deliveries.` : '',
    orphanOrders.length ? `Follow up the ${plural(orphanOrders.length, 'purchase order')} not yet invoiced (undelivered goods or missing invoices).` : '',
    m.clean_matched_rows ? `Release the ${plural(m.clean_matched_rows, 'cleanly matched line')} for payment.` : '',
  ].filter(Boolean);
  const facts = [
    `Files: ${source}; keys ${m.invoice_key}${m.purchase_order_key ? ` ↔ ${m.purchase_order_key}` : ''}; tolerance ${m.tolerance}.`,
    `Invoice lines: ${m.invoice_rows}; purchase-order lines: ${m.purchase_order_rows}.`,
    m.purchase_order_file
      ? `Matched: ${m.matched_rows} (${pct(m.match_rate)}), of which ${m.clean_matched_rows} without discrepancy (${pct(m.clean_match_rate)}).`
      : '',
    `Lines with discrepancies: ${m.lines_with_discrepancies}; discrepancies in all: ${m.discrepancy_count}${kinds.length ? ` (${kinds.join(', ')})` : ''}.`,
    m.purchase_order_file ? `Unmatched: ${m.unmatched_invoice_rows} invoice lines, ${m.unmatched_purchase_order_rows} purchase-order lines.` : '',
    `Invoice total ${money(m.invoice_total)}${m.purchase_order_file ? `; purchase-order total ${money(m.purchase_order_total)}; difference ${signed(m.total_difference, (v) => amountFormat.format(v))}` : ''}.`,
  ].filter(Boolean);
  const template = () =>
    [
      `Subject: ${subject}`,
      '',
      'To: Accounts Payable and Finance',
      `From: ${sender}`,
      `Date: ${m.generated_at.slice(0, 10)}`,
      '',
      'Summary',
      ...facts.map((f) => `• ${f}`),
      ...(largest.length ? ['', 'Largest amount differences', ...largest] : []),
      ...(orphanInvoices.length ? ['', 'Invoice lines without a purchase order', ...list(orphanInvoices)] : []),
      ...(orphanOrders.length ? ['', 'Purchase orders not invoiced', ...list(orphanOrders)] : []),
      '',
      'Recommended actions',
      ...(actions.length ? actions.map((a, i) => `${i + 1}. ${a}`) : ['1. No action needed: every line matched.']),
    ].join('\n');
  return {
    name: 'reconciliation.internal-memo',
    system: `You write concise internal finance memos. Neutral, factual, organised under headings. ${FORMAT_RULE}`,
    prompt: ['Write an internal memo summarising this invoice reconciliation and the actions to take.', ...facts, ...largest, 'Actions:', ...actions].join(
      '\n',
    ),
    template,
    maxTokens: 1200,
  };
}

/** Runs tasks through the generator, a few at a time (models are slow; templates are instant). */
async function generateAll(
  tasks: { task: TextTask; meta: Omit<EmailDraft, 'subject' | 'body' | 'source'>; subject: string }[],
  generator: TextGenerator,
): Promise<EmailDraft[]> {
  const drafts: EmailDraft[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(4, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++;
        const { task, meta, subject } = tasks[i];
        const generated = await generator.generate(task);
        const { subject: finalSubject, body } = splitSubject(generated.text, subject);
        drafts[i] = { ...meta, subject: finalSubject, body, source: generated.source };
      }
    }),
  );
  return drafts;
}

/**
 * Drafts every e-mail the settings ask for: vendor e-mails for lines that did not match, vendor
 * confirmations for matched lines, and the internal memo (when anything did not match).
 * Vendors are taken most-affected first, up to `maxVendorEmails` of each kind.
 */
export async function draftEmails(result: ReconcileResult, settings: EmailSettings, generator: TextGenerator): Promise<EmailDraft[]> {
  const max = settings.maxVendorEmails ?? 50;
  const options = { sender: settings.sender, maxLines: settings.maxLinesPerEmail };
  const files = { invoice: result.metadata.invoice_file, purchaseOrder: result.metadata.purchase_order_file };
  const tasks: Parameters<typeof generateAll>[0] = [];
  const vendorOf = (name: string) => (name || 'Unknown vendor').trim().replace(/\s+/g, ' ').toLowerCase();

  if (settings.generateForNotMatched) {
    const byVendor = new Map<string, { discrepancies: Discrepancy[]; unmatched: UnmatchedRecord[] }>();
    const bucket = (name: string) => {
      const id = vendorOf(name);
      let entry = byVendor.get(id);
      if (!entry) byVendor.set(id, (entry = { discrepancies: [], unmatched: [] }));
      return entry;
    };
    for (const d of result.discrepencies) if (d.kind !== 'duplicate_purchase_order_key') bucket(d.vendor).discrepancies.push(d);
    for (const u of result.unmatched_records) if (u.side === 'invoice') bucket(u.vendor).unmatched.push(u);
    const vendors = result.metadata.vendors.filter((v) => byVendor.has(vendorOf(v.vendor))).slice(0, max);
    for (const vendor of vendors) {
      const { discrepancies, unmatched } = byVendor.get(vendorOf(vendor.vendor))!;
      const task = vendorNotMatchedTask(vendor, discrepancies, unmatched, settings.toneNotMatched, files, options);
      tasks.push({
        task,
        subject: STYLES[settings.toneNotMatched].notMatched.subject(new Set(discrepancies.map((d) => d.key)).size + unmatched.length),
        meta: { type: 'vendor_not_matched', vendor: vendor.vendor, to: vendor.email || vendor.vendor, tone: settings.toneNotMatched },
      });
    }
  }
  // Confirmations say "matches our purchase orders": only meaningful when there were orders.
  if (settings.generateForMatched && result.metadata.mode === 'reconciliation') {
    for (const vendor of result.metadata.vendors.filter((v) => v.clean_lines > 0).slice(0, max)) {
      tasks.push({
        task: vendorMatchedTask(vendor, settings.toneMatched, options),
        subject: STYLES[settings.toneMatched].matched.subject(vendor.clean_lines),
        meta: { type: 'vendor_matched', vendor: vendor.vendor, to: vendor.email || vendor.vendor, tone: settings.toneMatched },
      });
    }
  }
  const anythingWrong = result.discrepencies.length > 0 || result.unmatched_records.length > 0;
  if (settings.generateInternalMemo && anythingWrong) {
    tasks.push({
      task: internalMemoTask(result, options),
      subject: 'Reconciliation memo',
      meta: { type: 'internal_memo', vendor: null, to: 'Accounts Payable and Finance', tone: null },
    });
  }
  return generateAll(tasks, generator);
}
