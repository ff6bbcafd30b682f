import { median } from '../layout/geometry';
import type { LayoutPage, LayoutPhrase } from '../layout/types';
import { cents, currencyCode, findAmounts, parseAmount, type ParsedAmount } from './amount';
import { findDates, inferDateOrder, type DateOrder } from './date';
import { INVOICE_FIELDS, matchLabel, TITLE_WORDS, type InvoiceFieldName, type LabelSpec, type ValueKind } from './labels';
import { findLineItems, type LineItem } from './line-items';
import { below, blockBelow, indexPhrases, rightOf, type PhraseIndex } from './phrases';

/** One extracted value: dates as YYYY-MM-DD, amounts as numbers, the rest as text. */
export interface ExtractedField {
  value: string | number;
  /** 0..1 */
  confidence: number;
  /** The text it was read from, when it differs from the value. */
  raw?: string;
}

export interface InvoiceExtraction {
  fields: Partial<Record<InvoiceFieldName, ExtractedField>>;
  lineItems: LineItem[];
  /** Human-readable sentences: totals that do not add up, fields that could not be found. */
  warnings: string[];
}

interface Candidate {
  field: InvoiceFieldName;
  value: string | number;
  raw: string;
  score: number;
  phrase: LayoutPhrase;
  currency?: string;
}

const ID_RE = /^[A-Z0-9][A-Z0-9\-/_.]*\d[A-Z0-9\-/_.]*$|^\d[A-Z0-9\-/_.]*$/i;
const CONTACT_RE = /@|https?:|www\.|\b(?:tel|phone|fax|mobile|e-?mail|vat\s*(?:no|reg|id)|tax\s*id|abn|ein|iban|swift|bic)\b|^\+?[\d\s()\-]{8,}$/i;

function readValue(kind: ValueKind, text: string, order: DateOrder): { value: string | number; raw: string; currency?: string } | undefined {
  const t = text.trim();
  if (!t) return undefined;
  switch (kind) {
    case 'date': {
      const [d] = findDates(t, order);
      return d ? { value: d.iso, raw: d.raw } : undefined;
    }
    case 'amount': {
      const a = parseAmount(t);
      return a ? { value: cents(a.value), raw: a.raw, currency: a.currency } : undefined;
    }
    case 'id': {
      const token = t.split(/\s+/).find((w) => ID_RE.test(w.replace(/[,;]$/, '')));
      if (!token || findDates(token, order).length) return undefined;
      return { value: token.replace(/[,;.]$/, ''), raw: token };
    }
    case 'currency': {
      const code = currencyCode(t.split(/\s+/)[0]);
      return code ? { value: code, raw: t } : undefined;
    }
    case 'text':
      return matchLabel(t) ? undefined : { value: t, raw: t };
    case 'party':
      return matchLabel(t) || /\d{4,}/.test(t) ? undefined : { value: t, raw: t };
  }
}

/** Candidate values for every labelled phrase: after the label, to its right, or under it. */
function labelledCandidates(index: PhraseIndex, exclude: Set<LayoutPhrase>, order: DateOrder): Candidate[] {
  const out: Candidate[] = [];
  for (const phrase of index.all) {
    if (exclude.has(phrase)) continue;
    const label = matchLabel(phrase.text);
    if (!label) continue;
    const { spec, rest } = label;
    if (spec.kind === 'party') continue; // parties are read as blocks (see readParty)
    const tries: [string, number, LayoutPhrase][] = [];
    if (rest) tries.push([rest, 1, phrase]);
    const right = rightOf(index, phrase).find((q) => !exclude.has(q));
    if (right && !matchLabel(right.text) && right.x - (phrase.x + phrase.width) < 25 * index.textHeight) {
      tries.push([right.text, 0.95, right]);
    }
    const under = below(index, phrase);
    if (under && !exclude.has(under)) tries.push([under.text, 0.85, under]);
    for (const [text, weight, source] of tries) {
      // Free text right after its label is taken as it stands ("Terms: Due on receipt").
      const v = spec.kind === 'text' && weight === 1 ? { value: text, raw: text } : readValue(spec.kind, text, order);
      if (!v) {
        // A sentence after the label, not a value of the right kind: this is prose, not a label.
        if (weight === 1 && text.split(/\s+/).length > 3) break;
        continue;
      }
      out.push({ field: spec.field, value: v.value, raw: v.raw, currency: v.currency, phrase: source, score: spec.weight * weight * source.confidence });
      break;
    }
  }
  return out;
}

interface Party {
  name?: Candidate;
  address?: Candidate;
}

const isStop = (q: LayoutPhrase) => Boolean(matchLabel(q.text)) || CONTACT_RE.test(q.text);

/** A name and address block: the rest of the label's phrase or the phrase under it, then lines below. */
function readParty(index: PhraseIndex, label: LayoutPhrase, rest: string, spec: LabelSpec, field: 'vendor' | 'customer'): Party {
  let namePhrase: LayoutPhrase | undefined;
  let name = rest;
  if (!name) {
    const right = rightOf(index, label)[0];
    const under = below(index, label, 1);
    namePhrase = under && !isStop(under) ? under : right && !isStop(right) && right.x - label.x - label.width < 3 * index.textHeight ? right : undefined;
    name = namePhrase?.text ?? '';
  }
  if (!name) return {};
  const anchor = namePhrase ?? label;
  const block = blockBelow(index, anchor, 4, isStop);
  const nameField = field === 'vendor' ? 'vendor_name' : 'customer_name';
  const addressField = field === 'vendor' ? 'vendor_address' : 'customer_address';
  const conf = (namePhrase ?? label).confidence;
  return {
    name: { field: nameField, value: name, raw: name, phrase: anchor, score: spec.weight * 0.9 * conf },
    address: block.length
      ? { field: addressField, value: block.map((p) => p.text).join(', '), raw: block.map((p) => p.text).join('\n'), phrase: block[0], score: spec.weight * 0.85 * Math.min(...block.map((p) => p.confidence)) }
      : undefined,
  };
}

/** The sender when no label names it: the most prominent non-title phrase at the top of page 1. */
function unlabelledVendor(index: PhraseIndex, exclude: Set<LayoutPhrase>): Party {
  const firstPage = index.lines[0] ?? [];
  const phrases = firstPage.flat();
  if (phrases.length === 0) return {};
  const pageBottom = Math.max(...phrases.map((p) => p.y + p.height));
  const top = phrases.filter(
    (p) => p.y < pageBottom * 0.3 && !exclude.has(p) && !TITLE_WORDS.test(p.text.trim()) && !matchLabel(p.text) && !CONTACT_RE.test(p.text) && /[a-z]{2}/i.test(p.text) && !findDates(p.text).length,
  );
  if (top.length === 0) return {};
  // Prominence by the median word height: a phrase's box grows with skew and descenders.
  const size = (p: LayoutPhrase) => median(p.words.map((w) => w.height));
  const tallest = Math.max(...top.map(size));
  const prominent = top.filter((p) => size(p) >= tallest * 0.9).sort((a, b) => a.y - b.y || a.x - b.x)[0];
  const block = blockBelow(index, prominent, 4, isStop);
  const bigger = size(prominent) > index.textHeight * 1.15;
  return {
    name: { field: 'vendor_name', value: prominent.text, raw: prominent.text, phrase: prominent, score: (bigger ? 0.8 : 0.55) * prominent.confidence },
    address: block.length
      ? { field: 'vendor_address', value: block.map((p) => p.text).join(', '), raw: block.map((p) => p.text).join('\n'), phrase: block[0], score: 0.7 * Math.min(...block.map((p) => p.confidence)) }
      : undefined,
  };
}

const PAYMENT_TERMS_RE = /\b(?:net\s?\d{1,3}(?:\s*days)?|due\s+(?:up)?on\s+receipt|\d{1,3}\s+days(?:\s+net)?|cash\s+on\s+delivery|end\s+of\s+month|eom)\b/i;

/**
 * Extracts an invoice's fields and line items from its read pages. Fields are found by label
 * (many synonyms; the value after the label, to its right or under it), parties as name and
 * address blocks, the line-item table by its header row. Dates become YYYY-MM-DD, amounts
 * numbers; totals are cross-checked and disagreements reported as warnings.
 */
export function extractInvoice(pages: readonly LayoutPage[]): InvoiceExtraction {
  const index = indexPhrases(pages);
  const table = findLineItems(index.lines);
  const docCurrency = dominantCurrency(index.text);
  const order = inferDateOrder(index.text, docCurrency);
  const candidates = labelledCandidates(index, table.phrases, order);

  const parties: Party[] = [];
  for (const phrase of index.all) {
    if (table.phrases.has(phrase)) continue;
    const label = matchLabel(phrase.text);
    if (!label || label.spec.kind !== 'party') continue;
    parties.push(readParty(index, phrase, label.rest, label.spec, label.spec.field === 'vendor_name' ? 'vendor' : 'customer'));
  }
  parties.push(unlabelledVendor(index, table.phrases));
  for (const p of parties) {
    if (p.name) candidates.push(p.name);
    if (p.address) candidates.push(p.address);
  }

  const fields: InvoiceExtraction['fields'] = {};
  for (const field of INVOICE_FIELDS) {
    const mine = candidates.filter((c) => c.field === field);
    if (mine.length === 0) continue;
    // Totals are at the end of a document; everything else is announced first.
    const late = field === 'total' || field === 'subtotal' || field === 'tax';
    const best = mine.reduce((a, b) => {
      if (b.score > a.score + 1e-9) return b;
      if (Math.abs(b.score - a.score) <= 1e-9 && late && b.phrase.pageNumber * 1e6 + b.phrase.y > a.phrase.pageNumber * 1e6 + a.phrase.y) return b;
      return a;
    });
    fields[field] = { value: best.value, confidence: round(best.score), ...(String(best.raw) !== String(best.value) ? { raw: best.raw } : {}) };
  }
  // The vendor cannot be the customer: when both came out the same, drop the weaker vendor guess.
  if (fields.vendor_name && fields.customer_name && fields.vendor_name.value === fields.customer_name.value) {
    delete fields.vendor_name;
    delete fields.vendor_address;
  }

  if (!fields.payment_terms) {
    const m = index.all.map((p) => ({ p, m: PAYMENT_TERMS_RE.exec(p.text) })).find((x) => x.m);
    if (m?.m) fields.payment_terms = { value: m.m[0], confidence: round(0.7 * m.p.confidence) };
  }
  if (!fields.invoice_number) {
    const m = index.all.map((p) => ({ p, m: /\b(?:INV|INVOICE)[-#/ ]?\d[\w\-/]*/i.exec(p.text) })).find((x) => x.m);
    if (m?.m) fields.invoice_number = { value: m.m[0], confidence: round(0.6 * m.p.confidence) };
  }
  const moneyCurrency = candidates.find((c) => c.field === 'total' && c.currency)?.currency ?? candidates.find((c) => c.currency)?.currency;
  if (!fields.currency && (moneyCurrency || docCurrency)) {
    fields.currency = { value: (moneyCurrency ?? docCurrency)!, confidence: moneyCurrency ? 0.9 : 0.7 };
  }

  const warnings = crossCheck(fields, table.items);
  return { fields, lineItems: table.items, warnings };
}

function dominantCurrency(text: string): string | undefined {
  const counts = new Map<string, number>();
  for (const a of findAmounts(text)) if (a.currency) counts.set(a.currency, (counts.get(a.currency) ?? 0) + 1);
  const m = /\bcurrency\s*:?\s*([A-Z]{3})\b/i.exec(text);
  if (m && currencyCode(m[1])) return currencyCode(m[1]);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

const round = (n: number) => Math.round(Math.max(0, Math.min(1, n)) * 100) / 100;
const money = (n: number) => n.toFixed(2);

/**
 * Checks subtotal + tax = total and Σ line amounts = subtotal (to the cent). Agreement raises
 * the amounts' confidence; disagreement adds a warning sentence.
 */
export function crossCheck(fields: InvoiceExtraction['fields'], items: readonly LineItem[]): string[] {
  const warnings: string[] = [];
  const num = (f?: ExtractedField) => (typeof f?.value === 'number' ? f.value : undefined);
  const subtotal = num(fields.subtotal);
  const tax = num(fields.tax);
  const total = num(fields.total);
  const near = (a: number, b: number) => Math.abs(a - b) <= 0.011;
  const boost = (...fs: (ExtractedField | undefined)[]) => fs.forEach((f) => f && (f.confidence = round(Math.max(f.confidence, 0.97))));
  if (subtotal !== undefined && total !== undefined) {
    const expected = subtotal + (tax ?? 0);
    if (near(expected, total)) boost(fields.subtotal, fields.tax, fields.total);
    else warnings.push(`Subtotal ${money(subtotal)}${tax !== undefined ? ` + tax ${money(tax)}` : ''} = ${money(expected)}, but the total is ${money(total)}.`);
  }
  const amounts = items.map((i) => i.amount).filter((a): a is number => a !== undefined);
  if (amounts.length > 0) {
    const sum = cents(amounts.reduce((a, b) => a + b, 0));
    const target = subtotal ?? (tax === undefined ? total : undefined);
    if (target !== undefined) {
      if (near(sum, target)) boost(subtotal !== undefined ? fields.subtotal : fields.total);
      else warnings.push(`The line items add up to ${money(sum)}, but the ${subtotal !== undefined ? 'subtotal' : 'total'} is ${money(target)}.`);
    }
  }
  for (const [i, item] of items.entries()) {
    if (item.quantity !== undefined && item.unit_price !== undefined && item.amount !== undefined && !near(cents(item.quantity * item.unit_price), item.amount)) {
      warnings.push(`Line ${i + 1}: ${item.quantity} × ${money(item.unit_price)} = ${money(cents(item.quantity * item.unit_price))}, but its amount is ${money(item.amount)}.`);
    }
  }
  if (total === undefined) warnings.push('No invoice total was found.');
  return warnings;
}

export type { LineItem, ParsedAmount };
