import { horizontalOverlapRatio } from '../layout/geometry';
import type { LayoutPage, LayoutPhrase } from '../layout/types';
import { findAmounts } from './amount';
import { findDates, inferDateOrder, type DateOrder } from './date';
import { matchLabel } from './labels';
import { CONTACT_RE, EMAIL_RE, PHONE_RE, STREET_RE, typeOfValue, URL_RE } from './patterns';
import { below, blockBelow, indexPhrases, rightOf, type PhraseIndex } from './phrases';

/** One key/value pair found in a document, as the document extraction page shows it. */
export interface DocumentField {
  label: string;
  result: string;
}

const INLINE_RE = /^([A-Za-z][\w .&/()'#-]{0,38}?)\s*[:：]\s*(.+)$/;

/** A phrase that reads like a label: a known label, or a few words ending in a colon. */
function labelText(p: LayoutPhrase): string | undefined {
  const t = p.text.trim();
  if (/^[A-Za-z][\w .&/()'#-]{0,38}[:：]$/.test(t)) return t.slice(0, -1).trim();
  const known = matchLabel(t);
  if (known && known.rest === '' && t.split(/\s+/).length <= 4) return t.replace(/[:#.\s]+$/, '');
  return undefined;
}

/** A short title-like phrase with no digits, which may label a typed value to its right. */
function looksLikeKey(p: LayoutPhrase): boolean {
  const t = p.text.trim();
  return t.length <= 30 && t.split(/\s+/).length <= 4 && /^[A-Z]/.test(t) && !/\d/.test(t);
}

function tableFields(index: PhraseIndex, used: Set<LayoutPhrase>): { fields: [LayoutPhrase, DocumentField][] } {
  const out: [LayoutPhrase, DocumentField][] = [];
  for (const lines of index.lines) {
    for (let i = 0; i < lines.length; i++) {
      const header = lines[i];
      if (header.length < 3 || header.some((p) => /\d/.test(p.text) || used.has(p))) continue;
      const rows: LayoutPhrase[][] = [];
      for (let j = i + 1; j < lines.length; j++) {
        const row = lines[j];
        if (row.length < 2 || row.length > header.length) break;
        const aligned = row.every((c) => header.some((h) => horizontalOverlapRatio(h, c) > 0.2 || Math.abs(h.x + h.width - c.x - c.width) < h.height));
        if (!aligned || !row.some((c) => /\d/.test(c.text))) break;
        rows.push(row);
      }
      if (rows.length < 2) continue;
      header.forEach((h) => used.add(h));
      rows.forEach((row, r) => {
        for (const cell of row) {
          const h = header.reduce((a, b) =>
            Math.abs(b.x + b.width / 2 - (cell.x + cell.width / 2)) < Math.abs(a.x + a.width / 2 - (cell.x + cell.width / 2)) ? b : a,
          );
          out.push([cell, { label: `${h.text.replace(/[:]$/, '')} ${r + 1}`, result: cell.text }]);
          used.add(cell);
        }
      });
      i += rows.length;
    }
  }
  return { fields: out };
}

const TYPE_LABEL: Record<string, string> = {
  email: 'Email',
  url: 'Website',
  phone: 'Phone',
  date: 'Date',
  amount: 'Amount',
  id: 'Reference',
  address: 'Address',
};

/**
 * Finds key/value pairs in a document by layout and pattern: simple tables (header row over
 * aligned rows), "Label: value" phrases, a label with its value to the right or on the line
 * below, and, for what is left, values recognised by shape (e-mails, websites, phone numbers,
 * dates, amounts, ids, street addresses). Returns label/result pairs in reading order.
 */
export function extractDocumentFields(pages: readonly LayoutPage[]): DocumentField[] {
  const index = indexPhrases(pages);
  const order: DateOrder = inferDateOrder(index.text, findAmounts(index.text).find((a) => a.currency)?.currency);
  const used = new Set<LayoutPhrase>();
  const found: [LayoutPhrase, DocumentField][] = [...tableFields(index, used).fields];

  for (const p of index.all) {
    if (used.has(p)) continue;
    const inline = INLINE_RE.exec(p.text.trim());
    if (inline && !/^https?$/i.test(inline[1]) && !/\d{1,2}$/.test(inline[1])) {
      used.add(p);
      found.push([p, { label: inline[1].trim(), result: normalise(inline[2], order) }]);
      continue;
    }
    const label = labelText(p);
    if (label) {
      const right = rightOf(index, p).find((q) => !used.has(q));
      const value = right && !labelText(right) && right.x - p.x - p.width < 20 * index.textHeight ? right : undefined;
      const under = value ? undefined : below(index, p, 1);
      const target = value ?? (under && !used.has(under) && !labelText(under) ? under : undefined);
      if (target) {
        used.add(p);
        used.add(target);
        // A party label ("Bill To") announces a block: the name and the address lines under it.
        const extra = !value && matchLabel(p.text)?.spec.kind === 'party' ? blockBelow(index, target, 4, (q) => Boolean(labelText(q)) || used.has(q)) : [];
        extra.forEach((q) => used.add(q));
        found.push([p, { label, result: normalise([target, ...extra].map((q) => q.text).join(', '), order) }]);
        continue;
      }
    }
    if (looksLikeKey(p)) {
      const right = rightOf(index, p).find((q) => !used.has(q));
      if (right && typeOfValue(right.text, order) !== 'text' && right.x - p.x - p.width < 20 * index.textHeight) {
        used.add(p);
        used.add(right);
        found.push([p, { label: p.text.trim(), result: normalise(right.text, order) }]);
        continue;
      }
      // A heading-like key over a block ("Consignee" over a name and address): the key alone on
      // its line, the value under it neither a label nor a "Label: value" phrase.
      const under = rightOf(index, p).length === 0 ? below(index, p, 1) : undefined;
      const isKey = (q: LayoutPhrase) => used.has(q) || Boolean(labelText(q)) || INLINE_RE.test(q.text) || CONTACT_RE.test(q.text);
      if (under && !isKey(under) && Math.abs(under.x - p.x) < p.height) {
        const rest = blockBelow(index, under, 4, isKey);
        if (rest.length > 0 || typeOfValue(under.text, order) !== 'text') {
          [p, under, ...rest].forEach((q) => used.add(q));
          found.push([p, { label: p.text.trim(), result: normalise([under, ...rest].map((q) => q.text).join(', '), order) }]);
        }
      }
    }
  }

  // What is left: values recognised by their shape, labelled by type.
  for (const p of index.all) {
    if (used.has(p)) continue;
    for (const [re, type] of [
      [EMAIL_RE, 'email'],
      [URL_RE, 'url'],
    ] as const) {
      re.lastIndex = 0;
      for (const m of p.text.matchAll(re)) found.push([p, { label: TYPE_LABEL[type], result: m[0] }]);
    }
    if (STREET_RE.test(p.text.trim())) {
      const rest = blockBelow(index, p, 3, (q) => used.has(q) || CONTACT_RE.test(q.text) || typeOfValue(q.text, order) !== 'text');
      [p, ...rest].forEach((q) => used.add(q));
      found.push([p, { label: 'Address', result: [p, ...rest].map((q) => q.text).join(', ') }]);
      continue;
    }
    const text = p.text.replace(EMAIL_RE, ' ').replace(URL_RE, ' ');
    for (const d of findDates(text, order)) found.push([p, { label: 'Date', result: d.iso }]);
    const noDates = findDates(text, order).reduce((t, d) => t.replace(d.raw, ' '), text);
    PHONE_RE.lastIndex = 0;
    for (const m of noDates.matchAll(PHONE_RE)) if (m[0].replace(/\D/g, '').length >= 7) found.push([p, { label: 'Phone', result: m[0].trim() }]);
    for (const a of findAmounts(noDates)) {
      if (a.currency || /[.,]\d{2}$/.test(a.raw))
        found.push([p, { label: 'Amount', result: a.currency ? `${a.value.toFixed(2)} ${a.currency}` : a.value.toFixed(2) }]);
    }
  }

  return found
    .sort(([a], [b]) => a.pageNumber - b.pageNumber || a.y - b.y || a.x - b.x)
    .map(([, f]) => f)
    .filter((f, i, all) => f.result !== '' && all.findIndex((g) => g.label === f.label && g.result === f.result) === i);
}

/** Dates become YYYY-MM-DD; everything else is kept as written (trimmed). */
function normalise(value: string, order: DateOrder): string {
  const t = value.trim();
  if (typeOfValue(t, order) === 'date') return findDates(t, order)[0].iso;
  return t;
}
