import { horizontalOverlapRatio, median, unionBox } from '../layout/geometry';
import type { LayoutPage, LayoutPhrase, LayoutWord } from '../layout/types';
import { cents, currencyCode, findAmounts, parseAmount, type ParsedAmount } from './amount';
import { decideDateOrder, findDates, type DateOrder, type DateOrderDecision } from './date';
import { INVOICE_FIELDS, matchLabel, TITLE_WITH_ID, TITLE_WORDS, type InvoiceFieldName, type LabelSpec, type ValueKind } from './labels';
import { editDistance } from '../text/edit-distance';
import { amountConfidence, findLineItems, fits, sumOf, type LineItem } from './line-items';
import { withOcrDigits } from './ocr-noise';
import { STREET_RE } from './patterns';
import { below, besideOf, besideSkewed, blockBelow, indexPhrases, lineOf, rightOf, type PhraseIndex } from './phrases';

/** One extracted value: dates as YYYY-MM-DD, amounts as numbers, the rest as text. */
export interface ExtractedField {
  value: string | number;
  /** 0..1 */
  confidence: number;
  /** The text it was read from, when it differs from the value. */
  raw?: string;
  /**
   * Set when the value failed a cross-check (totals that do not add up, a due date before the
   * issue date, a day-month order the document does not settle): the page should ask for a look.
   * Such a field's confidence is kept below the page's "check this" line.
   */
  needs_review?: boolean;
}

export interface InvoiceExtraction {
  fields: Partial<Record<InvoiceFieldName, ExtractedField>>;
  lineItems: LineItem[];
  /** Human-readable sentences: totals that do not add up, fields that could not be found. */
  warnings: string[];
  /**
   * Set when the values were taken from e-invoice data (see e-invoice.ts): data a PDF carries
   * (`attachment` its name in the PDF), or an XML e-invoice uploaded as the file itself
   * (`standalone`, `attachment` the file's name; `credit_note` when it credits, its amounts shown
   * negative; `pdf` the PDF such a file carries, and whether its page was compared with the data,
   * or why not).
   */
  eInvoice?: { format: string; attachment: string; standalone?: true; credit_note?: true; pdf?: { name: string; compared: boolean; why?: string } };
}

interface Candidate {
  field: InvoiceFieldName;
  value: string | number;
  raw: string;
  score: number;
  phrase: LayoutPhrase;
  currency?: string;
  /** A numeric date whose day and month could be swapped. */
  ambiguous?: boolean;
  /** An address's party: the name read with it (an address goes only with its own name). */
  owner?: string;
  /** Read by its place on the page alone, with no label: never taken when it names the vendor chosen. */
  unlabelled?: boolean;
  /** A sum of a tax breakdown's rows (see breakdownSums): the rows it sums, as `page:line`. */
  breakdownRows?: string[];
}

const ID_RE = /^[A-Z0-9][A-Z0-9\-/_.]*\d[A-Z0-9\-/_.]*$|^\d[A-Z0-9\-/_.]*$/i;
// Word edges by letters of any script: "Hôtel Saint Denis" holds no "tel".
const CONTACT_RE =
  /@|https?:|www\.|(?<![\p{L}\p{N}])(?:tel|phone|fax|mobile|e-?mail|vat\s*(?:no|reg|id)|tax\s*id|abn|ein|iban|swift|bic)(?![\p{L}\p{N}])|^\+?[\d\s()\-]{8,}$/iu;

function readValue(
  kind: ValueKind,
  text: string,
  order: DateOrder,
): { value: string | number; raw: string; currency?: string; ambiguous?: boolean } | undefined {
  const t = text.trim();
  if (!t) return undefined;
  switch (kind) {
    case 'date': {
      const [d] = findDates(t, order);
      return d ? { value: d.iso, raw: d.raw, ambiguous: d.ambiguous } : undefined;
    }
    case 'amount': {
      let a = parseAmount(t);
      // "$1,980.00 1 4": specks OCR read after the amount as small whole numbers; the amount is the one with cents or a currency.
      if (a && /^\d{1,3}$/.test(a.raw.trim()))
        a =
          findAmounts(t)
            .filter((x) => x.currency || /[.,]\d{2}$/.test(x.raw))
            .pop() ?? a;
      return a ? { value: cents(a.value), raw: a.raw, currency: a.currency } : undefined;
    }
    case 'id': {
      // a long number printed in groups of three, as French bills print theirs ("N° 12 345 678 901")
      const grouped = /^(?:(?:no\.?|nr\.?|n[°º]\.?|#)\s*:?\s*)?(\d{1,3}(?: \d{3})+)(?=$|\s+[^\d\s])/i.exec(t)?.[1];
      if (grouped && grouped.replace(/ /g, '').length >= 7) return { value: grouped.replace(/ /g, ''), raw: grouped };
      // a number may end with the punctuation of its sentence or list ("PO# 99112233: Posters")
      const words = t.split(/\s+/);
      const at = words.findIndex((w) => ID_RE.test(w.replace(/[,;:]$/, '')) && !/^\d+(?:[.,]\d+)?%$/.test(w));
      const token = words[at];
      // "le 018-09-27 08:16: 54": a time stamp's line (a date cut short by OCR, a time) holds no number of the document's
      if (!token || findDates(token, order).length || /^\d{2,4}-\d{2}-\d{2}$/.test(token) || (at > 0 && /^\d{1,2}:\d{2}/.test(words[at - 1]))) return undefined;
      // "797026 A" alone in its cell: a folio's number and its window's letter, one number (a Hilton folio's)
      if (/^\d{5,}\s[A-Z]$/.test(t)) return { value: t, raw: t };
      // "030405755 / 1": a number and its part after a spaced slash are one number
      const part = words[at + 1] === '/' && /^[A-Z0-9]{1,4}$/i.test(words[at + 2] ?? '') ? `/${words[at + 2]}` : '';
      if (part) return { value: token.replace(/[,;:.]$/, '') + part, raw: `${token} / ${words[at + 2]}` };
      // "HA007 - 123123 - 37816396", "083 -72561": groups of a number joined by spaced dashes are one number
      if (!/[,;:.]$/.test(token)) {
        let joined = token;
        let next = at + 1;
        for (;;) {
          const spaced = words[next] === '-';
          const group = spaced ? words[next + 1] : /^-[A-Z0-9]/i.test(words[next] ?? '') ? words[next].slice(1) : undefined;
          const clean = group?.replace(/[,;:.]$/, '');
          if (!group || !clean || clean.length < 2 || !/^[A-Z0-9]*\d[A-Z0-9]*$/i.test(clean)) break;
          joined += `-${clean}`;
          next += spaced ? 2 : 1;
          if (clean !== group) break;
        }
        if (next > at + 1) return { value: joined, raw: words.slice(at, next).join(' ') };
      }
      return { value: token.replace(/[,;:.]$/, ''), raw: token };
    }
    case 'currency': {
      const code = t
        .split(/[\s()[\]/,]+/)
        .map((w) => currencyCode(w))
        .find(Boolean);
      return code ? { value: code, raw: t } : undefined;
    }
    case 'text':
      return matchLabel(t) ? undefined : { value: t, raw: t };
    case 'party':
      return matchLabel(t) || /\d{4,}/.test(t) ? undefined : { value: t, raw: t };
    case 'vat': {
      // an EU shape ("DE 123 456 789" → "DE123456789"), else one token of letters and at least five digits ("US-TAXID-7890123")
      const eu = VAT_ID_ONE.exec(t) ?? VAT_ID_ONE.exec(t.replace(/\s+/g, ''));
      if (eu) return { value: vatIdValue(eu[1]), raw: eu[1] };
      const token = t.split(/\s+/).find((w) => ID_RE.test(w) && /\p{L}/u.test(w) && /\d{5,}/.test(w));
      return token ? { value: token, raw: token } : undefined;
    }
  }
}

/** Words of `text` after the first occurrence of `raw` (all of them when it is not found). */
function wordsAfter(text: string, raw: string): number {
  const at = text.indexOf(raw);
  const tail = at < 0 ? text : text.slice(at + raw.length);
  return tail.split(/\s+/).filter((w) => /\p{L}{2}/u.test(w)).length;
}

/** An amount with cents ("750.00", "1.234,56 €"). */
const CENTS_RE = /\d[.,]\d{2}(?!\d)/;

/** Candidate values for every labelled phrase: after the label, to its right, or under it. */
function labelledCandidates(index: PhraseIndex, exclude: Set<LayoutPhrase>, order: DateOrder): Candidate[] {
  const out: Candidate[] = [];
  for (const phrase of index.all) {
    if (exclude.has(phrase)) continue;
    const label = matchLabel(phrase.text);
    if (!label) continue;
    const { spec, rest } = label;
    if (spec.kind === 'party') continue; // parties are read as blocks (see readParty)
    // "Date of delivery", "Datum der Lieferung", "Date de livraison": the date of something else.
    if (spec.field === 'invoice_date' && spec.weight < 1 && OTHER_EVENT.test(rest)) continue;
    // "VAT : BE0000.000.196": a VAT id after a tax label, no amount.
    if (spec.kind === 'amount' && rest && VAT_ID_ONE.test(rest)) continue;
    // "TPS : 773004126 RT0001": a run of nine digits or more after a tax label is a registration number, no amount.
    if (spec.kind === 'amount' && /^\d{9,}(?![.,]\d)/.test(rest)) continue;
    // A number's key after an amount label names an id or a count, not an amount: "BTW/TVA no. BE 885 463 114"
    // (the label read as "BTW" in "/TVA"), "MwSt. Nr.: BE0806 041393", "TOTAL No. oF ITEMS: 1".
    if (spec.kind === 'amount' && /^(?:no\.?|nr\.?|n[°º]\.?|number|nummer|num[ée]ro|id)(?:\s|:|$)/i.test(rest)) continue;
    const tries: [string, number, LayoutPhrase][] = [];
    // a colon set apart ("Rechnungsnr.  :  9282-52756") is no value: passed over
    const rights = rightOf(index, phrase).filter((q) => !exclude.has(q) && !/^[:：.]$/.test(q.text.trim()));
    // "Invoice | N°: | V01/15000001": a bare number key between the title and its number.
    if (spec.kind === 'id' && !rest && rights.length > 1 && NUMBER_KEY_RE.exec(rights[0].text.trim())?.[1] === '') rights.shift();
    // "Endbetrag   12,85   EUR": the currency set apart after the amount at the margin is no value of its own.
    const valued = spec.kind === 'amount' && rights.length > 1 && currencyCode(rights[rights.length - 1].text.trim()) ? rights.slice(0, -1) : rights;
    // "VAT 400,00 @ 21,00%   84,00", "Mehrwertsteuer  19,00 %   10,80   2,05": the base and the
    // rate after the label (in its phrase or in the row's), the tax at the right margin.
    const based =
      spec.field === 'tax' && valued.length
        ? taxOnBase([phrase.text, ...valued.slice(0, -1).map((q) => q.text)].join(' '), valued[valued.length - 1])
        : undefined;
    if (based) tries.push([based.text, 1, based]);
    // "Total excl. VAT 9% (770.00)   706.42 EUR": an amount in brackets in the label's phrase,
    // with an amount right of it, is what the label is taken of, not its value.
    const bracketed = spec.kind === 'amount' && /\(\s*-?[$€£]?\s*\d[\d.,' ]*\s*\)\s*$/.test(rest) && valued.some((q) => findAmounts(q.text).length > 0);
    if (rest && !bracketed) tries.push([rest, 1, phrase]);
    // "Af te dragen BTW | 21,00 | % | 116,51": a rate, its "%" set apart, is no amount of the label's.
    const amounts = spec.kind === 'amount' ? valued.filter((q, i) => !/^%$/.test(q.text.trim()) && !/^%$/.test(valued[i + 1]?.text.trim() ?? '')) : valued;
    const right = spec.kind === 'amount' ? amounts[0] : rights[0];
    // A totals block: the label in the middle of the page, its amount at the right margin, the
    // phrases between (other columns, "(zzgl. 19% MwSt.)") holding no amount.
    const last = spec.kind === 'amount' ? amounts[amounts.length - 1] : undefined;
    const farRight = last && !matchLabel(last.text) && amounts.slice(0, -1).every((q) => findAmounts(q.text).length === 0) ? last : undefined;
    // "TOTAL   150   750.00" under a table: a count (a whole number) in the quantity column
    // beside the label, the amount with its cents at the right margin.
    const counted =
      spec.kind === 'amount' &&
      last &&
      last !== right &&
      !matchLabel(last.text) &&
      CENTS_RE.test(last.text) &&
      amounts.slice(0, -1).every((q) => /^\d{1,6}$/.test(q.text.trim()))
        ? last
        : undefined;
    // "Total Amount   0.00   1006.49" under "VAT (EUR) | Total (EUR)": the zero is the tax column's, the total's amount is the last.
    const afterZero =
      spec.field === 'total' && right && last && last !== right && findAmounts(right.text)[0]?.value === 0 && (findAmounts(last.text)[0]?.value ?? 0) > 0
        ? last
        : undefined;
    if (counted) tries.push([counted.text, 0.95, counted]);
    else if (afterZero) tries.push([afterZero.text, 0.9, afterZero]);
    else if (right && !matchLabel(right.text) && right.x - (phrase.x + phrase.width) < 25 * index.textHeight) {
      // A currency set apart from its amount ("Totaal excl. BTW   €   31,00"): the two are one value.
      const apart = spec.kind === 'amount' && currencyCode(right.text.trim()) && amounts[1] ? amounts[1] : undefined;
      tries.push(apart ? [`${right.text} ${apart.text}`, 0.95, apart] : [right.text, 0.95, right]);
      if (farRight && farRight !== right && farRight !== apart) tries.push([farRight.text, 0.9, farRight]);
    } else if (farRight) tries.push([farRight.text, 0.9, farRight]);
    else if (spec.kind === 'amount' && rights.length === 0 && !findAmounts(rest).length) {
      // nothing right of the label on its line: an amount beside it that the page's skew put on
      // the neighbouring line (sharing height with the label, or where the label's line runs at the page's skew)
      const fits = (q: LayoutPhrase) => !exclude.has(q) && !matchLabel(q.text) && q.x - (phrase.x + phrase.width) < 25 * index.textHeight;
      const beside = (rest ? [] : besideOf(index, phrase)).find(fits) ?? besideSkewed(index, phrase).find(fits);
      // or printed in double height at the right on the line under it, as a slip prints its sum ("Endsumme in €" over a big "28,06")
      const big = (index.lines[phrase.pageNumber - 1]?.[phrase.lineIndex + 1] ?? []).find(
        (q) => fits(q) && q.height >= 1.5 * phrase.height && q.y - (phrase.y + phrase.height) < phrase.height && AMOUNT_ALONE.test(q.text.trim()),
      );
      if (beside && findAmounts(beside.text).length) tries.push([beside.text, 0.85, beside]);
      else if (big) tries.push([big.text, 0.85, big]);
    }
    const under = below(index, phrase);
    // A sentence under a label ("Im Endbetrag ist ein … Anteil von 2,72 EUR enthalten.") is prose, not its value.
    if (under && !spec.besideOnly && !exclude.has(under) && !(spec.kind === 'amount' && under.text.trim().split(/\s+/).length > 5)) {
      // A column of amounts under its heading whose last adds up the ones above (a totals table
      // with a row per tax rate and a row of sums): the sum is the document's.
      const sum = spec.kind === 'amount' ? columnSum(index, under) : undefined;
      tries.push(sum ? [sum.text, 0.9, sum] : [under.text, 0.85, under]);
    }
    // An amount label may name the currency ("Total (EUR)", "Gesamt/€").
    if (spec.kind === 'amount') {
      // ("Total HKD :" too: a currency's code after the label's words, when it is one)
      const named = /(?:[(/]|\s)\s*([A-Z]{3}|[$€£])\s*\)?\s*[:.]?$|\s([$€£])(?:\s|$)/.exec(phrase.text.slice(0, label.length));
      const code = currencyCode(named?.[1] ?? named?.[2]);
      if (code) out.push({ field: 'currency', value: code, raw: phrase.text, phrase, score: 0.8 * phrase.confidence });
    }
    // "Rechnung Nr. 42 vom 05.03.2018", "Invoice no. 7 of 1 March 2026": the issue date follows the number.
    if (spec.field === 'invoice_number' && rest) {
      const dated = /\b(?:vom|von|du|of|dated|del|van|d\.d\.)\s+(.+)$/i.exec(rest);
      const [d] = dated ? findDates(dated[1], order) : [];
      if (d) out.push({ field: 'invoice_date', value: d.iso, raw: d.raw, phrase, score: 0.9 * phrase.confidence, ambiguous: d.ambiguous });
      // "Invoice 103767" with "February 17, 2026" alone on the line under it: the issue date, unlabelled (less sure).
      const under = TITLE_WITH_ID.test(phrase.text) ? below(index, phrase, 1) : undefined;
      const [u] = under && !exclude.has(under) ? findDates(under.text, order) : [];
      if (u && u.raw.trim().length >= under!.text.trim().length - 1)
        out.push({ field: 'invoice_date', value: u.iso, raw: u.raw, phrase: under!, score: 0.7 * under!.confidence, ambiguous: u.ambiguous });
    }
    for (const [text, weight, source] of tries) {
      // A VAT id's phrase under or beside an amount's label ("USt-IdNr.: DE 123711890" under a slip's tax row) holds none of its amounts.
      if (spec.kind === 'amount' && source !== phrase && (VAT_ID_ONE.test(text) || KEYED_SPACED_VAT_RE.test(text))) continue;
      // Free text right after its label is taken as it stands ("Terms: Due on receipt").
      const v = spec.kind === 'text' && weight === 1 ? { value: text, raw: text } : readValue(spec.kind, text, order);
      if (!v) {
        // A sentence after the label, not a value of the right kind: this is prose, not a label.
        if (weight === 1 && text.split(/\s+/).length > 3) break;
        continue;
      }
      // "Fälligkeit 06.12.2018 den Beitrag von dem uns bekannten Konto abbuchen": a date or an
      // amount in the middle of a sentence is prose, not this label's value; better none than a guess.
      if (weight === 1 && (spec.kind === 'date' || spec.kind === 'amount') && wordsAfter(text, v.raw) > 3) break;
      out.push({
        field: spec.field,
        value: v.value,
        raw: v.raw,
        currency: v.currency,
        phrase: source,
        // A whole number with no currency ("TOTAL  150" on a returns slip) is more often a count than money.
        score: spec.weight * weight * source.confidence * (spec.kind === 'amount' && !v.currency && /^\d+$/.test(String(v.raw).trim()) ? 0.9 : 1),
        ambiguous: v.ambiguous,
      });
      break;
    }
  }
  return out;
}

/**
 * A second "Key: value" pair that OCR read into the phrase of a first ("Kassa: 61364 Arve: 645907",
 * "Zimmer: 407 ResNr.: 487608"): a number's or a date's label there reads its value as after its
 * label, a little less surely.
 */
function pairedCandidates(index: PhraseIndex, exclude: Set<LayoutPhrase>, order: DateOrder): Candidate[] {
  const out: Candidate[] = [];
  for (const phrase of index.all) {
    if (exclude.has(phrase) || !/^[^:]{1,30}:\s*\S/.test(phrase.text)) continue;
    for (const m of phrase.text.matchAll(/\s(?=\p{L}[\p{L}.-]{1,20}(?:\s\p{L}[\p{L}.-]{1,20})?\s?:\s*\S)/gu)) {
      const label = matchLabel(phrase.text.slice(m.index + 1));
      if (!label || (label.spec.kind !== 'id' && label.spec.kind !== 'date') || !label.rest) continue;
      const v = readValue(label.spec.kind, label.rest.split(/\s+(?=\p{L}[\p{L}.-]*\s?:)/u)[0], order);
      if (v)
        out.push({ field: label.spec.field, value: v.value, raw: v.raw, phrase, score: 0.85 * label.spec.weight * phrase.confidence, ambiguous: v.ambiguous });
    }
  }
  return out;
}

/** A till slip's heading of its own number's column ("Beleg  Trans  Zeit  Datum" over "0927  5593  13:00  14/12/23"). */
const RECEIPT_NUMBER_HEADING = /^(?:beleg|bon|receipt|quittung|ticket)$/i;

/**
 * Values under a row of headings that OCR or the text layer merged into one phrase ("Beleg Trans"
 * and "Zeit Datum" over "0927  5593  13:00 14/12/23"): each value word goes to the heading word
 * over it (the one it overlaps most, or the nearest), and a heading that is a label reads its
 * values as a label's value under it (ids and dates). Single headings are read by labelledCandidates (below); a
 * label of two or three words ("Invoice No.") is taken whole.
 */
function headingRowCandidates(index: PhraseIndex, exclude: Set<LayoutPhrase>, order: DateOrder): Candidate[] {
  const out: Candidate[] = [];
  for (const page of index.lines) {
    for (const [i, line] of page.entries()) {
      const merged = line.filter((p) => !exclude.has(p) && p.words.length >= 2);
      const next = page[i + 1];
      if (!merged.length || !next?.length || line.some((p) => /\d/.test(p.text))) continue;
      const top = Math.min(...next.map((q) => q.y));
      const bottom = Math.max(...line.map((p) => p.y + p.height));
      if (top - bottom > 1.5 * index.textHeight) continue;
      // the headings: words, or runs of two or three words that make one label with nothing after it
      type Unit = { text: string; x: number; right: number; spec: LabelSpec | undefined };
      const units: Unit[] = [];
      const words = line.flatMap((p) => p.words).sort((a, b) => a.x - b.x);
      for (let k = 0; k < words.length;) {
        let taken = 1;
        for (const n of [3, 2]) {
          const run = words.slice(k, k + n);
          const m = run.length === n ? matchLabel(run.map((w) => w.text).join(' ')) : undefined;
          if (m && !m.rest) {
            taken = n;
            break;
          }
        }
        const run = words.slice(k, k + taken);
        const text = run.map((w) => w.text).join(' ');
        const m = matchLabel(text);
        const spec =
          m && !m.rest
            ? m.spec
            : RECEIPT_NUMBER_HEADING.test(text)
              ? { field: 'invoice_number' as const, kind: 'id' as const, weight: 0.75, pattern: RECEIPT_NUMBER_HEADING }
              : undefined;
        units.push({ text, x: run[0].x, right: run[run.length - 1].x + run[run.length - 1].width, spec });
        k += taken;
      }
      if (units.length < 2) continue;
      const values = new Map<Unit, LayoutWord[]>();
      for (const w of next.filter((q) => !exclude.has(q)).flatMap((q) => q.words)) {
        const overlap = (u: Unit) => Math.min(u.right, w.x + w.width) - Math.max(u.x, w.x);
        const best = units.reduce((a, b) => (overlap(b) > overlap(a) ? b : a));
        const near = units.reduce((a, b) => (Math.abs(b.x - w.x) < Math.abs(a.x - w.x) ? b : a));
        const u = overlap(best) > 0 ? best : Math.abs(near.x - w.x) < 2 * index.textHeight ? near : undefined;
        if (u) values.set(u, [...(values.get(u) ?? []), w]);
      }
      // only where the headings were merged: a heading phrase of its own is read under it already
      const mergedWords = new Set(merged.flatMap((p) => p.words));
      for (const [u, ws] of values) {
        // ids and dates only: amounts under a row of headings are a table's (a tax breakdown's rows)
        if (!u.spec || !['id', 'date'].includes(u.spec.kind) || !words.some((w) => mergedWords.has(w) && w.x >= u.x && w.x < u.right)) continue;
        const text = ws.map((w) => w.text).join(' ');
        const v = readValue(u.spec.kind, text, order);
        if (!v) continue;
        const confidence = Math.min(...ws.map((w) => w.confidence));
        const phrase: LayoutPhrase = { ...unionBox(ws), text, words: ws, confidence, lineIndex: next[0].lineIndex, pageNumber: next[0].pageNumber };
        out.push({
          field: u.spec.field,
          value: v.value,
          raw: v.raw,
          currency: v.currency,
          phrase,
          score: u.spec.weight * 0.8 * confidence,
          ambiguous: v.ambiguous,
        });
      }
    }
  }
  return out;
}

/**
 * The phrase holding the tax when the label's phrase and the phrases after it give its base and
 * rate ("VAT 400,00 @ 21,00%", "19,00 % MwSt | B | 23,58"): the one at the right margin, when it is
 * the base times the rate (to the cent).
 */
function taxOnBase(rest: string, last: LayoutPhrase | undefined): LayoutPhrase | undefined {
  const rate = /(\d{1,2}(?:[.,]\d{1,3})?)\s*%/.exec(rest);
  const [base] = findAmounts(rest.replace(rate?.[0] ?? '', ' '));
  const tax = last && findAmounts(last.text);
  if (!rate || !base || tax?.length !== 1) return undefined;
  return Math.abs(cents((base.value * Number(rate[1].replace(',', '.'))) / 100) - tax[0].value) <= 0.011 ? last : undefined;
}

/**
 * The last of a column of amounts starting at `top` (one amount per phrase, each under the one
 * before), when there are three or more and the last is the sum of the others; else undefined.
 */
function columnSum(index: PhraseIndex, top: LayoutPhrase): LayoutPhrase | undefined {
  const column: { p: LayoutPhrase; value: number }[] = [];
  for (let p: LayoutPhrase | undefined = top; p && column.length < 12; p = below(index, p, 1)) {
    const a = findAmounts(p.text);
    if (a.length !== 1 || /\p{L}{2}/u.test(p.text.replace(a[0].raw, ''))) break;
    column.push({ p, value: a[0].value });
  }
  if (column.length < 3) return undefined;
  const last = column[column.length - 1];
  const rest = cents(column.slice(0, -1).reduce((a, c) => a + c.value, 0));
  return Math.abs(rest - last.value) <= 0.011 && last.value !== 0 ? last.p : undefined;
}

/** "München, den 01.11.2024", "Paris, le 5 mars 2024", "Milano, lì 12/03/2024", "Berlin, 01.11.2024": a place and the letter's date. */
const PLACE_DATE_RE = /^(\p{Lu}[\p{L}.-]+(?:\s[\p{L}.-]+){0,3}),\s*(?:(den|le|l[iì]|el|il)(?:\s+|$))?(.*)$/u;

/**
 * The date a letter is written on, after the place it is written in, on page 1 (an issue date
 * with no label): sure with the article ("den", "le", "lì"), less so without. The phrase is the
 * place and the date, or the place alone with the date to its right.
 */
function placeDates(index: PhraseIndex, order: DateOrder): Candidate[] {
  const out: Candidate[] = [];
  for (const p of (index.lines[0] ?? []).flat()) {
    const m = PLACE_DATE_RE.exec(p.text.trim());
    if (!m || matchLabel(m[1]) || STREET_RE.test(m[1])) continue;
    const source = m[3] ? p : rightOf(index, p)[0];
    const text = m[3] || source?.text || '';
    const [d] = findDates(text, order);
    // the date is all that follows the place (a weekday or a time at most)
    if (!source || !d || !aloneDate(text, d.raw)) continue;
    out.push({ field: 'invoice_date', value: d.iso, raw: d.raw, phrase: source, score: (m[2] ? 0.9 : 0.75) * source.confidence, ambiguous: d.ambiguous });
  }
  return out;
}

/** What a bare "Date"/"Datum" label may be qualified by when it dates something other than the invoice. */
const OTHER_EVENT =
  /^(?:of|de|du|der|des|van|di|del|della)\s+(?:la\s+|l['’])?(?:delivery|shipment|service|supply|order|livraison|prestation|commande|exp[ée]dition|lieferung|leistung|bestellung|levering|bestelling|entrega|pedido|servicio|consegna|ordine|spedizione)\b/i;

/** A number's key alone ("Nr.", "No.", "Number", "Numéro", "#"), its value after it or to its right. */
const NUMBER_KEY_RE = /^(?:no\.?|nr\.?|n[°º]\.?|number|nummer|num[ée]ro|número|numero|#)\s*:?\s*(.*)$/i;

/**
 * A document's number under its title ("FACTUUR" over "Nr.  16117778", "INVOICE" over "No: 42"):
 * a bare number key whose key or value has the document's title on one of the two lines above it.
 */
function titledNumbers(index: PhraseIndex, exclude: Set<LayoutPhrase>): Candidate[] {
  const out: Candidate[] = [];
  for (const p of index.all) {
    const m = NUMBER_KEY_RE.exec(p.text.trim());
    if (!m || exclude.has(p)) continue;
    const right = rightOf(index, p)[0];
    const source = m[1] ? p : right;
    const text = m[1] || right?.text;
    if (!source || !text || (!m[1] && right!.x - (p.x + p.width) > 12 * index.textHeight)) continue;
    const value = readValue('id', text, 'DMY');
    if (!value) continue;
    const page = index.lines[p.pageNumber - 1];
    const h = Math.max(p.height, index.textHeight);
    const titled = [page[p.lineIndex - 1], page[p.lineIndex - 2]].some((line) =>
      (line ?? []).some(
        // measured from the title's foot: a title set large ("FACTURE" over its date and "nº 2023-6013") is as near
        (q) =>
          TITLE_WORDS.test(q.text.trim()) &&
          p.y - (q.y + q.height) < 3 * h &&
          [p, source].some((k) => q.x < k.x + k.width + 2 * h && q.x + q.width > k.x - 2 * h),
      ),
    );
    if (titled) out.push({ field: 'invoice_number', value: value.value, raw: value.raw, phrase: source, score: 0.9 * source.confidence });
  }
  return out;
}

interface Party {
  name?: Candidate;
  address?: Candidate;
}

const isStop = (q: LayoutPhrase) => Boolean(matchLabel(q.text)) || CONTACT_RE.test(q.text);
/** A labelled VAT id ("VAT ID: DE837566332", "USt-IdNr. DE…", "Customer VAT number: …"). */
const isVatLine = (q: LayoutPhrase) =>
  matchLabel(q.text)?.spec.kind === 'vat' || /^(?:vat|tva|btw|iva|ust|mwst)[\s.-]*(?:id|no|nr|reg|number)\b.*\d/i.test(q.text.trim());

const KEY_VALUE_RE = /^[\p{L}][\p{L}\s.\-/()]{0,40}\s?:(?:\s|$)/u;
/** Another box's key beside a name's key on a form ("NOME / RAZÃO SOCIAL   …   CNPJ / CPF"): no name. */
const TAX_KEY_RE = /^(?:cnpj|cpf|r\.?u\.?t\.?|nif|cif|rfc|vat|tax|ust|iva|tva|btw)(?![\p{L}])/iu;
const NAME_LABEL_RE =
  /^(?:name|nome|nom|naam|nombre|firma|raison\s+sociale|raz[ãa]o\s+social|company)(?:\s*\/\s*(?:raz[ãa]o\s+social|raison\s+sociale|company))?(?![\p{L}])\s*:?\s*(.*)$/iu;
/** A salutation over a name ("Herrn", "Firma", "Frau", "Attn:", "z. Hd."): no name itself. */
const SALUTATION_RE =
  /^(?:herrn?|frau|firma|familie|mr\.?|mrs\.?|ms\.?|m\.|mme\.?|monsieur|madame|dhr\.?|mevr\.?|sr\.?|sra\.?|sig\.?|sig\.ra|attn\.?:?|z\.\s?hd\.?)$/i;
/** A column's heading over a party ("Sender", "Recipient", "Empfänger"): no name. */
const PARTY_HEADING_RE =
  /^(?:sender|recipient|shipper|consignee|absender|empf[äa]nger|exp[ée]diteur|destinataire|remitente|destinatario|mittente|afzender|ontvanger|(?:name|nom|naam|nombre)\s*(?:&|und|and|et|en|y|\/)\s*(?:adresse|address|anschrift|adres|direcci[óo]n)):?$/i;

/** A country alone on a line ("Australia", "Deutschland"): an address's last line, never a name. */
const COUNTRY_RE =
  /^(?:australia|austria|österreich|belgium|belgique|belgië|canada|china|denmark|danmark|deutschland|germany|estonia|eesti|españa|spain|finland|france|india|ireland|italia|italy|japan|latvia|lithuania|lietuva|luxembourg|mexico|méxico|nederland|netherlands|new zealand|norway|norge|poland|polska|portugal|schweiz|suisse|svizzera|switzerland|singapore|sverige|sweden|united kingdom|uk|united states(?: of america)?|usa|u\.s\.a\.)\.?$/i;

/** A company's legal form at the end of a name: a strong sign the phrase names a party. */
const LEGAL_FORM_RE =
  /\b(?:gmbh(?:\s*&\s*co\.?\s*kg)?|ag|kg|ohg|e\.?\s?k\.?|ug|se|ltd\.?|limited|llc|llp|inc\.?|corp(?:oration)?\.?|plc|co\.|sarl|sas|sasu|sa|eurl|b\.?v\.?|n\.?v\.?|v\.?o\.?f\.?|s\.?l\.?|s\.?r\.?l\.?|s\.?p\.?a\.?|a\.?g\.?|oü|uab|oyj?|aps|a\/s|s\.?r\.?o\.?|d\.[o0]\.[o0]\.?|kft\.?|zrt\.?|lda\.?|sp\.?\s*z\s*o\.?\s*o\.?|pty\.?\s*ltd\.?|pvt\.?\s*ltd\.?|gesellschaft\s*mbh|ges\.?\s*m\.?\s*b\.?\s*h\.?)$/i;

/** The word "number" after a label ("Klant nr.", "Kunden-Nr.", "Customer No. 4711", "Client ID"): the label names a number, not a party. */
const NUMBER_WORD_RE =
  /^[-\s]*(?:(?:vat|tax|ust|mwst|tva|btw|iva)[-\s]*(?:id|no\.?|nr\.?|number)|no\.?|nr\.?|n[°º]\.?|#|num(?:ber|mer|éro|ero|\.)?|number|nummer|id|code|ref(?:erence)?\.?)(?:\s|:|$)/i;
/** What a party heading may say of its block ("Seller trade name", "Buyer details", "Adresse"): no name of its own. */
const PARTY_DESCRIPTOR_RE =
  /^(?:(?:trade|legal|company|full|business)\s+)?(?:name|details|information|info|address|adresse|anschrift|daten|gegevens|datos|dati)\s*:?$/i;

/** "Page 1 / 1", "Seite 1 von 3", "Page 2 of 4", "Pagina 1 di 2": a page number, never a name. */
const PAGE_NUMBER_RE = /^(?:page|seite|pagina|página|blatt|p\.)\s*\d+\s*(?:\/|of|von|sur|de|di|van)\s*\d+$/i;

/**
 * An identifier's line ("GLN 4333741000005", "ILN 4304171000002 Lief-Nr: 549910"): a run of six
 * digits or more, no legal form. A company's name holds no such number.
 */
const ID_LINE_RE = /\d{6,}/;

/** Phrases under a party heading that are not its name: labels, "Key: value" pairs, numbers, identifiers, page numbers, salutations. */
function notAName(q: LayoutPhrase): boolean {
  const t = q.text.trim();
  return (
    // a speck or a logo's edge read unsure as one or two letters ("li", "hi")
    (q.confidence < 0.7 && t.replace(/[^\p{L}\p{N}]/gu, '').length <= 2) ||
    Boolean(matchLabel(t)) ||
    (ID_LINE_RE.test(t) && !LEGAL_FORM_RE.test(t)) ||
    PAGE_NUMBER_RE.test(t) ||
    KEY_VALUE_RE.test(t) ||
    /[:：]$/.test(t) ||
    !/\p{L}{2}/u.test(t) ||
    SALUTATION_RE.test(t) ||
    COUNTRY_RE.test(t) ||
    PARTY_HEADING_RE.test(t) ||
    CONTACT_RE.test(t) ||
    TITLE_WITH_ID.test(t)
  );
}

/**
 * A party's name and address under (or after) its heading: the rest of the heading's phrase, a
 * "Name:" row in the block under it, or the first phrase under it that is not a label, a
 * "Key: value" pair, a number or a salutation; then the lines below it as the address.
 */
function readParty(index: PhraseIndex, label: LayoutPhrase, rest: string, spec: LabelSpec, field: 'vendor' | 'customer'): Party {
  let namePhrase: LayoutPhrase | undefined;
  // "Customer:2", "Kunde: 10045", "Klant nr.", "Customer No. 4711": a customer number's label, which heads no block.
  if (rest && (!/\p{L}{2}/u.test(rest) || NUMBER_WORD_RE.test(rest))) return {};
  // "Buyer Product ID: TECH-REQ-789B": a key and its value after the label's word, not a heading.
  if (rest && /^[^:]{1,40}:\s*\S*\d/.test(rest)) return {};
  // "To be paid within 30 days": prose that starts with a label's word, not a heading.
  if (rest && /^\p{Ll}/u.test(rest) && !PARTY_DESCRIPTOR_RE.test(rest)) return {};
  // "Seller trade name", "Buyer details", "Client address": a heading whose name is under it; so is
  // one of two headings in one ("Destinatário / Remetente").
  let name = rest && !KEY_VALUE_RE.test(rest) && !PARTY_DESCRIPTOR_RE.test(rest) && !/^[/&]/.test(rest) ? rest : '';
  // "Sold To   Wingtip Toys": the name beside its heading, the address under the name; or after
  // a colon set apart in a column of keys ("Señor(es)        : Universo Informatico").
  const right = rightOf(index, label)[0];
  const keyed = right && /^[:：]\s*\S/.test(right.text.trim()) && right.x - label.x - label.width < 25 * index.textHeight;
  if (!name && right && keyed) {
    namePhrase = right;
    name = right.text.trim().replace(/^[:：]\s*/, '');
  } else if (!name && right && !notAName(right) && !STREET_RE.test(right.text.trim()) && right.x - label.x - label.width < 3 * index.textHeight) {
    namePhrase = right;
    name = right.text;
  }
  if (!name) {
    const page = index.lines[label.pageNumber - 1];
    const h = Math.max(label.height, index.textHeight);
    for (let i = label.lineIndex + 1; i < page.length && i <= label.lineIndex + 8 && !namePhrase; i++) {
      // under the heading: starting in its column, or ending where it ends (a right-aligned block)
      const inColumn = page[i].filter(
        (q) => (q.x >= label.x - 2 * h && q.x < label.x + Math.max(label.width, 12 * h)) || Math.abs(q.x + q.width - (label.x + label.width)) < h,
      );
      if (inColumn.some((q) => matchLabel(q.text)?.spec.kind === 'party')) break;
      for (const q of inColumn) {
        const named = NAME_LABEL_RE.exec(q.text.trim());
        if (named) {
          // the name after its key, beside it, or under it in a form's box ("NOME / RAZÃO SOCIAL" over the name)
          const beside = rightOf(index, q)[0];
          const near = beside && !TAX_KEY_RE.test(beside.text.trim()) ? beside : undefined;
          const source = named[1] ? q : (near ?? below(index, q, 1));
          const value = named[1] || source?.text;
          if (value && source) {
            namePhrase = source;
            name = value.trim();
          }
          break;
        }
        // "Nummer        : 339420": a key whose colon stands apart, before its value.
        if (notAName(q) || /^[:：]/.test(rightOf(index, q)[0]?.text ?? '')) break;
        namePhrase = q;
        name = q.text.trim();
        break;
      }
    }
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
      ? {
          field: addressField,
          value: block.map((p) => p.text).join(', '),
          raw: block.map((p) => p.text).join('\n'),
          phrase: block[0],
          score: spec.weight * 0.85 * Math.min(...block.map((p) => p.confidence)),
          owner: name,
        }
      : undefined,
  };
}

/**
 * The sender's return-address line over the window of a letter ("Acme GmbH | Europa-Allee 1 |
 * 60486 Frankfurt"): its first part names the vendor, and the block under it is the customer's
 * name and address.
 */
function returnAddressLine(index: PhraseIndex, ocr: boolean): Party[] {
  // OCR reads the dots between the parts as "+" or "*" ("Kitten Example GmbH + Katzenstraße 1 * 42424 Miauhausen")
  const dots = ocr ? String.raw`\s*[|•●·]\s*|\s[+*]\s` : String.raw`\s*[|•●·]\s*`;
  const dotted = new RegExp(dots);
  // a post-office box after the name parts them too ("Lenze B.V. Postbus 3101, 5203 DC 's-Hertogenbosch")
  const box = String.raw`\s+(?=(?:postbus|postfach|p\.?\s?o\.?\s?box|apartado|casella\s+postale|bo[iî]te\s+postale|case\s+postale)\s+\d)`;
  const parted = new RegExp(`${dots}|\\s[-–]\\s|${box}`, 'i');
  const parting = new RegExp(`${dots}|\\s+[-–]\\s+|${box}`, 'i');
  const partingSmall = new RegExp(`${dots}|\\s*,\\s*|\\s+[-–]\\s+|${box}`, 'i');
  const firstPage = (index.lines[0] ?? []).flat();
  const half = Math.max(0, ...firstPage.map((p) => p.y + p.height)) / 2;
  for (const line of (index.lines[0] ?? []).slice(0, 40)) {
    // the return address alone when it is a phrase of its own (not the date or terms beside it)
    const whole = line.map((p) => p.text).join(' ');
    const text = line.length > 1 && dotted.test(line[0].text) && /\b\d{4,5}\b/.test(line[0].text) ? line[0].text : whole;
    // In small print over the window a comma parts them too ("Alphabet, Lilienthalallee 26, 80786
    // München"); not in a footer's small print ("ACME GmbH, Hauptstr. 1, 12345 Berlin").
    const small = median(line.flatMap((p) => p.words.map((w) => w.height))) < index.textHeight * 0.85 && line[0].y < half;
    let parts = text.split(small ? partingSmall : parting).filter(Boolean);
    // Over the window, spaces alone may part them after a legal form ("MADISON Hotel GmbH
    // Schaarsteinweg 4 20459 Hamburg"): the name ends at its legal form, the town begins at its postcode.
    const spaced = parts.length < 3 && line[0].y < half ? SPACED_RETURN_RE.exec(text.trim()) : null;
    if (spaced) parts = spaced.slice(1);
    if (
      parts.length < 3 ||
      !(/\b\d{4,5}\b/.test(text) || POSTCODE_TOWN_RE.test(text)) ||
      !/\p{L}{2}/u.test(parts[0]) ||
      /^\d/.test(parts[0]) ||
      // a flight's or a journey's line ("DY4551 Stockholm-Arlanda - Tallinn - 14 May. 2019 18:50") holds a date; an address none
      findDates(text).length > 0 ||
      STREET_RE.test(parts[0])
    )
      continue;
    // parted by commas, the line must hold a postcode and town of its own ("Walnut, WY, 98432" is a town's line)
    if (small && !parted.test(text) && !parts.slice(1).some((x) => POSTCODE_TOWN_RE.test(x))) continue;
    const short = parts[0].replace(/[,;]$/, '').trim();
    const anchor = line[0];
    // how surely its words were read, the dots between them aside (OCR reads a "•" as an unsure "*")
    const sure = Math.min(...anchor.words.filter((w) => /[\p{L}\p{N}]/u.test(w.text)).map((w) => w.confidence), 1);
    // The line may shorten the name its letterhead prints in full ("Alphabet" for "Alphabet Fuhrparkmanagement GmbH").
    const full = firstPage.find((p) => p !== anchor && p.text.trim().startsWith(`${short} `) && LEGAL_FORM_RE.test(p.text.trim()) && !notAName(p));
    const name = full ? full.text.trim() : (legalNameOf(short, anchor, firstPage) ?? short);
    // The rest of the line is the sender's address ("Europa-Allee 1 | 60486 Frankfurt").
    const street = parts
      .slice(1)
      .map((x) => x.replace(/[,;]$/, '').trim())
      .filter((x) => /\p{L}{2}/u.test(x));
    const parties: Party[] = [
      {
        name: { field: 'vendor_name', value: name, raw: name, phrase: anchor, score: 0.85 * sure },
        address: street.length
          ? { field: 'vendor_address', value: street.join(', '), raw: street.join('\n'), phrase: anchor, score: 0.75 * sure, owner: name }
          : undefined,
      },
    ];
    const page = index.lines[0];
    for (let i = anchor.lineIndex + 1; i < page.length && i <= anchor.lineIndex + 4; i++) {
      const q = page[i].find((c) => Math.abs(c.x - anchor.x) < 3 * index.textHeight);
      if (!q || SALUTATION_RE.test(q.text.trim())) continue;
      // a street ("42 rue du stade") is the address: the name is not printed here
      if (!notAName(q) && !STREET_RE.test(q.text.trim())) {
        const { name: value, rest: block } = continuedName(q.text.trim(), blockBelow(index, q, 3, isStop));
        parties.push({
          name: { field: 'customer_name', value, raw: q.text, phrase: q, score: 0.6 * q.confidence },
          address: block.length
            ? {
                field: 'customer_address',
                value: block.map((p) => p.text).join(', '),
                raw: block.map((p) => p.text).join('\n'),
                phrase: block[0],
                score: 0.55 * Math.min(...block.map((p) => p.confidence)),
                owner: value,
              }
            : undefined,
        });
      }
      break;
    }
    return parties;
  }
  return [];
}

/**
 * A name that ends in "+", "&", "-" or "and" ("Raiffeisen Bezug +" over "Absatz eG") goes on on
 * the first line of the block under it, unless that line is a street or a postcode and town.
 */
function continuedName(name: string, block: LayoutPhrase[]): { name: string; rest: LayoutPhrase[] } {
  const next = block[0];
  if (!next || block.length < 2 || !/(?:[+&-]|\b(?:und|and|et))$/i.test(name) || POSTCODE_TOWN_RE.test(next.text) || STREET_RE.test(next.text.trim()))
    return { name, rest: block };
  return { name: `${name} ${next.text.trim()}`, rest: block.slice(1) };
}

/**
 * A street's name without its number ("Main Street", "Senefelder Straße"), a German street with
 * its number ("Senefelder Straße 2", "Heideweg 51", "Südring 7") or a town with its state and ZIP
 * code ("Redmond, WA 98052"): an address line, never a sender's name. A word that only ends in a
 * street's word, with no number ("Hotel Königsallee"), may be a name and is not taken for a street.
 */
const STREET_END_RE =
  /\b(?:street|road|avenue|lane|drive|boulevard|stra(?:ss|ß)e|gasse|allee|chauss[ée]e)\.?$|,\s*[A-Z]{2}\s+\d{5}(?:-\d{4})?$|(?:stra(?:ss|ß)e|str\.|weg|gasse|allee|platz|ring|damm)\s*\d{1,4}(?:\s*[-–/]\s*\d{1,4})?\s*[a-z]?$/i;

/** A postcode and its town and nothing else ("04109 Leipzig", "NL-1079 PC Amsterdam"): an address's line, never a name. */
const POSTCODE_TOWN_ALONE = /^(?:[A-Z]{1,2}[-\s])?\d{4,5}(?:\s?[A-Z]{2})?\s+\p{Lu}[\p{L}.\s-]*$/u;

/** The sender when no label names it: the most prominent non-title phrase at the top of page 1. */
function unlabelledVendor(index: PhraseIndex, exclude: Set<LayoutPhrase>, domains: readonly string[]): Party {
  const firstPage = index.lines[0] ?? [];
  const phrases = firstPage.flat();
  if (phrases.length === 0) return {};
  const pageBottom = Math.max(...phrases.map((p) => p.y + p.height));
  const top = phrases.filter(
    (p) =>
      p.y < pageBottom * 0.3 &&
      !exclude.has(p) &&
      !TITLE_WORDS.test(p.text.trim()) &&
      !notAName(p) &&
      !STREET_END_RE.test(p.text.trim()) &&
      !POSTCODE_TOWN_ALONE.test(p.text.trim()) &&
      /[a-z]{2}/i.test(p.text) &&
      !findDates(p.text).length,
  );
  if (top.length === 0) return {};
  // Prominence by the median word height: a phrase's box grows with skew and descenders.
  const size = (p: LayoutPhrase) => median(p.words.map((w) => w.height));
  // How tall the letterhead is, by what OCR read surely (a smudge read unsure may be boxed far taller than any print).
  const sure = top.filter((p) => p.confidence >= 0.5);
  const tallest = Math.max(...(sure.length ? sure : top).map(size));
  const legal = top.filter((p) => LEGAL_FORM_RE.test(p.text.trim()));
  const prominent = top.filter((p) => size(p) >= tallest * 0.9).sort((a, b) => a.y - b.y || a.x - b.x)[0];
  // The name the document's own web or mail address names ("CRONUS DE" by info@cronus.com), set
  // as large as the most prominent; else a name set larger than the text (the letterhead); among
  // names of text size, one with a legal form.
  const letterhead = size(prominent) > index.textHeight * 1.15;
  const named = top.find((p) => size(p) >= size(prominent) * 0.9 && domains.some((d) => lettersOf(p.text).startsWith(d)));
  let pick =
    named ?? (!letterhead && legal.length && !LEGAL_FORM_RE.test(prominent.text.trim()) ? legal.sort((a, b) => size(b) - size(a) || a.y - b.y)[0] : prominent);
  let block = blockBelow(index, pick, 4, isStop);
  // A brand's logo read as one word ("EEDEKA") over the shop's name that begins with it
  // ("EDEKA Schmitt"): the shop's name is the vendor.
  const [under] = block;
  if (
    under &&
    !/\s/.test(pick.text.trim()) &&
    /\s/.test(under.text.trim()) &&
    lettersOf(pick.text).length >= 3 &&
    editDistance(lettersOf(pick.text), lettersOf(under.text.trim().split(/\s+/)[0])) <= 1 &&
    !notAName(under)
  ) {
    pick = under;
    block = block.slice(1);
  }
  const bigger = size(pick) > index.textHeight * 1.15;
  const score = named ? 0.8 : (bigger ? 0.8 : 0.55) + (LEGAL_FORM_RE.test(pick.text.trim()) ? 0.05 : 0);
  const legalName = legalNameOf(pick.text, pick, phrases) ?? (named || LEGAL_FORM_RE.test(pick.text.trim()) ? undefined : footerLegalName(phrases, pageBottom));
  return {
    name: { field: 'vendor_name', value: legalName ?? pick.text, raw: pick.text, phrase: pick, score: score * pick.confidence },
    address: block.length
      ? {
          field: 'vendor_address',
          value: block.map((p) => p.text).join(', '),
          raw: block.map((p) => p.text).join('\n'),
          phrase: block[0],
          score: 0.7 * Math.min(...block.map((p) => p.confidence)),
          owner: pick.text,
        }
      : undefined,
  };
}

/**
 * A letterhead's brand with the company's legal name elsewhere on its page, usually in the foot
 * ("Motel One Amsterdam" over "Motel One Netherlands B.V", the logo "Only YOU" over "ONLY YOU
 * HOTELS S.L."): the legal name, when it holds a word of three or more letters of the brand's
 * (`from`: the brand's own phrase, which may hold the brand with its address).
 */
function legalNameOf(brand: string, from: LayoutPhrase, phrases: readonly LayoutPhrase[]): string | undefined {
  if (LEGAL_FORM_RE.test(brand.trim())) return undefined;
  const words = new Set(wordsOf(brand).filter((w) => w.length >= 3 && !GENERIC_BRAND_WORD.has(w)));
  if (words.size === 0) return undefined;
  for (const p of phrases) {
    if (p === from) continue;
    for (const m of p.text.matchAll(LEGAL_NAME_IN_RE)) {
      const name = m[1].trim();
      if (!matchLabel(name) && wordsOf(name).some((w) => words.has(w))) return name;
    }
  }
  return undefined;
}

/** The companies named with their legal form (see LEGAL_NAME_IN_RE) in the phrases below `share` of the page's height, as written, once per mention. */
function footCompanies(phrases: readonly LayoutPhrase[], pageBottom: number, share: number): string[] {
  const names: string[] = [];
  for (const p of phrases) {
    if (p.y < pageBottom * share) continue;
    for (const m of p.text.matchAll(LEGAL_NAME_IN_RE)) {
      const name = m[1].trim().replace(/^(?:sitz|der|die|des|von|the|of)\s+/i, '');
      if (!matchLabel(name)) names.push(name);
    }
  }
  return names;
}

/**
 * A company the foot of the page names twice with its legal form ("Premier Inn GmbH ist ein
 * Mitglied der Whitbread Group PLC Gruppe. Sitz der Premier Inn GmbH: …" under a letterhead that
 * names only the hotel's town, its logo unread): the sender's legal name.
 */
function footerLegalName(phrases: readonly LayoutPhrase[], pageBottom: number): string | undefined {
  const names = footCompanies(phrases, pageBottom, 0.65);
  return names.find((name, i) => names.indexOf(name, i + 1) > i);
}

/** The one company the foot of a document's last page names with its legal form, a bank and the buyer aside; undefined when it names none or several. */
function onlyCompany(index: PhraseIndex, customer: unknown): string | undefined {
  const last = (index.lines[index.lines.length - 1] ?? []).flat();
  const bottom = Math.max(0, ...last.map((p) => p.y + p.height));
  const names = new Map<string, string>();
  for (const name of footCompanies(last, bottom, 0.6))
    if (!/\bbank\b/i.test(name) && !(typeof customer === 'string' && sameName(name, customer))) names.set(lettersOf(name), name);
  return names.size === 1 ? [...names.values()][0] : undefined;
}

/** A text's words, lower-cased ("ONLY YOU HOTELS S.L." → only, you, hotels, s, l). */
const wordsOf = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u);

/** Up to four capitalised words, then a legal form as written after a company's name (see LEGAL_NAME_RE, LEGAL_NAME_IN_RE). */
const CAPITALISED_WORDS = String.raw`(?:\p{Lu}[\p{L}&.'-]*\s+){1,4}`;
const LEGAL_FORM_WRITTEN = String.raw`GmbH(?:\s*&\s*Co\.?\s*KG)?|(?<=Gesellschaft\s)mbH|AG|KG|OHG|e\.\s?K\.|SE|Ltd\.?|LLC|Inc\.?|S\.?A\.?S?|S\.?L\.?|S\.?r\.?l\.?|B\.?V\.?|(?:spol\.\s?s\s?)?[sS]\.\s?[rR]\.\s?[oO]\.|[dD]\.[oO0]\.[oO0]\.|[sS]p\.\s?z\s?[oO]\.\s?[oO]\.|Kft\.`;

/** A company's name ending in its legal form anywhere in a phrase ("ONLY YOU HOTELS S.L. Avda. Bartolomé Roselló, 18"); LLP and N.V. too. */
const LEGAL_NAME_IN_RE = new RegExp(`(?<![\\p{L}\\p{N}])(${CAPITALISED_WORDS}(?:${LEGAL_FORM_WRITTEN}|LLP|N\\.?V\\.?))(?=[\\s,;:]|\\.?$|\\.\\s)`, 'gu');

/** Words a brand and an unrelated company's name may share. */
const GENERIC_BRAND_WORD = new Set(['the', 'and', 'hotel', 'hotels', 'group', 'services', 'service', 'company', 'international', 'invoice', 'rechnung']);

/** A return address parted by spaces only: a name ending in its legal form, a street with its number, a postcode and town. */
const SPACED_RETURN_RE = new RegExp(
  String.raw`^(\p{Lu}[\p{L}&.'\s-]{1,60}?\s(?:${LEGAL_FORM_WRITTEN}))\s+(\p{L}[\p{L}.'\s-]+\s\d+\s?[a-z]?)\s+(\d{4,5}\s+\p{Lu}[\p{L}\s-]+)$`,
  'u',
);

/** A company's name ending in its legal form, at the end of a phrase ("UKST: 3322 Dirk Rossmann GmbH"). */
const LEGAL_NAME_RE = new RegExp(`(${CAPITALISED_WORDS}(?:${LEGAL_FORM_WRITTEN}))\\s*$`, 'u');

/**
 * The shop on a scanned till receipt (a narrow strip) whose letterhead is a logo OCR cannot
 * read: a company named with its legal form anywhere on it, usually in its foot. Weak (0.4),
 * below the web address's name and any letterhead read with fair confidence.
 */
function receiptCompany(index: PhraseIndex, first: LayoutPage | undefined): Party {
  if (!first || first.source !== 'ocr' || first.width / first.height >= 0.55) return {};
  for (const p of (index.lines[0] ?? []).flat()) {
    const m = LEGAL_NAME_RE.exec(p.text.trim());
    if (!m || matchLabel(m[1])) continue;
    const name = m[1].trim();
    // as sure as a name by the shop's web address (its shape says what it is), whatever OCR's word confidence
    return { name: { field: 'vendor_name', value: name, raw: p.text, phrase: p, score: 0.4 } };
  }
  return {};
}

/** A text's letters and digits, lower-cased ("CRONUS DE" → "cronusde"). */
const lettersOf = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * The names of the sender's web and mail domains ("cronus" of info@cronus.com), mail services
 * left out: those printed in a page's letterhead band (its top fifth) or its footer (its bottom
 * quarter), not in the window or the body, where a buyer's own address may stand.
 */
function senderDomains(index: PhraseIndex): string[] {
  const out = new Set<string>();
  for (const lines of index.lines) {
    const phrases = lines.flat();
    const bottom = Math.max(0, ...phrases.map((p) => p.y + p.height));
    for (const p of phrases) {
      if (p.y > bottom * 0.2 && p.y < bottom * 0.75) continue;
      for (const m of p.text.matchAll(/(?:www\.|@)([a-z0-9][a-z0-9-]{2,})\.[a-z]{2,}/gi))
        if (!MAIL_SERVICES.test(m[1])) out.add(m[1].toLowerCase().replace(/-/g, ''));
    }
  }
  return [...out];
}

/** Mail services whose domain names no sender. */
const MAIL_SERVICES =
  /^(?:gmail|googlemail|gmx|web|t-online|outlook|hotmail|live|yahoo|icloud|aol|freenet|posteo|orange|free|wanadoo|libero|proton|protonmail)$/i;

/**
 * The sender named by its website or e-mail domain ("www.roller.de" → "Roller"), for a scanned
 * page whose letterhead is a logo OCR cannot read: weak, below any name read from the page.
 */
function domainVendor(index: PhraseIndex): Party {
  for (const p of index.all) {
    const m = /(?:www\.|@)([a-z0-9][a-z0-9-]{2,})\.[a-z]{2,}/i.exec(p.text);
    if (!m || MAIL_SERVICES.test(m[1])) continue;
    const name = m[1].charAt(0).toUpperCase() + m[1].slice(1).toLowerCase();
    return { name: { field: 'vendor_name', value: name, raw: m[0], phrase: p, score: 0.45 } };
  }
  return {};
}

/** A postcode before a town ("60486 Frankfurt", "D-10115 Berlin", "1780 Wemmel", "2511 CV Den Haag") or a British postcode. */
const POSTCODE_TOWN_RE = /(?:^|\s)(?:[A-Z]{1,2}[-\s])?\d{4,5}(?:\s?[A-Z]{2})?\s+\p{Lu}\p{L}+|\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b/u;

/**
 * The recipient of a letter when no label names one: an address block (a name, then a postcode
 * and town within four lines under it, in its column) in the window of page 1: its upper left,
 * or its upper right below the letterhead's band (where French and Swiss letters put it).
 * The topmost two are offered, weakly (the caller skips one that names the vendor): a letterhead
 * on the left has its own address block above the window.
 */
function windowRecipients(index: PhraseIndex, first: LayoutPage | undefined, exclude: Set<LayoutPhrase>, domains: readonly string[]): Party[] {
  const phrases = (index.lines[0] ?? []).flat();
  if (!first || phrases.length === 0) return [];
  // A till receipt, a narrow strip, has no window and no recipient.
  if (first.source === 'ocr' && first.width / first.height < 0.55) return [];
  const bottom = first.height;
  const right = first.width;
  const out: Party[] = [];
  const used = new Set<LayoutPhrase>();
  // the window is on the left, or on the right under a letterhead band (French and Swiss letters)
  const top = Math.min(...phrases.map((p) => p.y));
  const sender = phrases.find((p) => p.y < bottom * 0.4 && domains.some((d) => lettersOf(p.text).startsWith(d)));
  for (const p of [...phrases].sort((a, b) => a.y - b.y || a.x - b.x)) {
    if (out.length >= 2 || p.y > bottom * 0.4) break;
    const t = p.text.trim();
    if (
      used.has(p) ||
      exclude.has(p) ||
      (p.x > right * 0.45 && p.y < top + 4 * index.textHeight) ||
      notAName(p) ||
      TITLE_WORDS.test(t) ||
      STREET_RE.test(t) ||
      STREET_END_RE.test(t) ||
      /\d{3,}/.test(t) ||
      findDates(t).length
    )
      continue;
    // (a VAT id under the name, "VAT ID: DE837566332", is part of the block, not its end)
    const block = blockBelow(index, p, 4, (q) => isStop(q) && !isVatLine(q));
    if (!block.some((q) => POSTCODE_TOWN_RE.test(q.text))) continue;
    block.forEach((q) => used.add(q));
    // A sender's block, not a recipient's: its name set larger than the text (a letterhead, unless
    // the document's web or mail address names another phrase as the sender), or its phone,
    // e-mail or website right under its address. A tax id alone in a block under another tax id
    // is the buyer's (a business-to-business invoice prints both parties' VAT ids).
    const large = median(p.words.map((w) => w.height)) > index.textHeight * 1.15;
    const buyersTaxId =
      !block.some((q) => !isVatLine(q) && CONTACT_RE.test(q.text)) && phrases.some((q) => q.y < p.y && !block.includes(q) && SENDER_DETAIL_RE.test(q.text));
    if ((large && !(sender && sender !== p)) || sender === p || (senderContact(index, block) && !buyersTaxId)) continue;
    const score = (out.length ? 0.45 : 0.5) * p.confidence;
    const { name, rest } = continuedName(t, block);
    const address = rest.filter((q) => !isVatLine(q));
    out.push({
      name: { field: 'customer_name', value: name, raw: p.text, phrase: p, score, unlabelled: true },
      address: {
        field: 'customer_address',
        value: address.map((q) => q.text).join(', '),
        raw: address.map((q) => q.text).join('\n'),
        phrase: address[0],
        score: score * 0.9,
        owner: t,
        unlabelled: true,
      },
    });
  }
  return out;
}

/** A sender's details: a phone, e-mail or website, or a tax number ("USt-ID-Nr. DE 124981337", "St.-Nr. 12/345/67890"). */
const SENDER_DETAIL_RE = /(?<![\p{L}])(?:(?:ust|mwst|vat|tva|btw|iva)(?![\p{L}])|st\.?\s?-?nr|steuer(?:nummer|nr)|tax\s*(?:id|no|number))/iu;

/**
 * Contact details or a tax number in an address block, or on the line under it in its column or
 * centred over the same place (a till receipt's head): the block is a sender's.
 */
function senderContact(index: PhraseIndex, block: LayoutPhrase[]): boolean {
  if (block.some((q) => SENDER_DETAIL_RE.test(q.text))) return true;
  const last = block[block.length - 1];
  const next = index.lines[last.pageNumber - 1].slice(last.lineIndex + 1).find((l) => l.length > 0) ?? [];
  const h = Math.max(last.height, index.textHeight);
  return next.some(
    (q) =>
      (Math.abs(q.x - last.x) < 3 * h || horizontalOverlapRatio(q, last) > 0.3) &&
      q.y - (last.y + last.height) < 1.5 * h &&
      (CONTACT_RE.test(q.text) || SENDER_DETAIL_RE.test(q.text)),
  );
}

// VAT identification numbers of the EU, the UK and Switzerland, by their published shapes; and
// Australia's ABN, which its tax invoices must carry (eleven digits, only after its name, as
// digits alone are no shape: "ABN: 16 112 221 123"). India's GSTIN was tried and left out: on the
// dev invoice that has two, the buyer's was taken for the vendor's. Belgium's: ten digits, or the
// nine of before 2007 that old tills still print ("BE 885 463 114"). Canada's GST/HST number: a
// business number of nine digits and its "RT" account ("TPS 865143622 RT 0001").
const VAT_ID_RE =
  /\b(ABN:?\s?\d{2}\s?\d{3}\s?\d{3}\s?\d{3}|ATU\s?\d{8}|BE\s?[01]?\d{3}[.\s]?\d{3}[.\s]?\d{3}|DE\s?\d{3}\s?\d{3}\s?\d{3}|FR\s?[0-9A-HJ-NP-Z]{2}\s?\d{3}\s?\d{3}\s?\d{3}|NL\s?\d{9}\s?B\s?\d{2}|ES\s?[0-9A-Z]\d{7}[0-9A-Z]|IT\s?\d{11}|GB\s?\d{9}(?:\d{3})?|CHE[-\s]?\d{3}\.?\d{3}\.?\d{3}|LU\s?\d{8}|PT\s?\d{9}|NO\s?\d{3}\s?\d{3}\s?\d{3}\s?MVA|PL\s?\d{10}|DK\s?\d{8}|SE\s?\d{12}|FI\s?\d{8}|IE\s?\d[0-9A-Z+*]\d{5}[A-Z]{1,2}|CZ\s?\d{8,10}|EE\s?\d{9}|LT\s?(?:\d{12}|\d{9})|LV\s?\d{11}|HU\s?\d{8}|SK\s?\d{10}|SI\s?\d{8}|HR\s?\d{11}|RO\s?\d{6,10}|BG\s?\d{9,10}|EL\s?\d{9}|CY\s?\d{8}[A-Z]|MT\s?\d{8}|\d{9}\s?RT\s?\d{4})\b(?![\d])/g;
/**
 * A domestic tax id, known by the label before it (in the phrase, or the phrase left of it):
 * Mexico's RFC, Spain's NIF or CIF (and Portugal's nine-digit NIF), Italy's Partita IVA, a
 * British VAT number printed without its GB ("VAT Reg. No. 832 7762 12"), Chile's RUT, Brazil's
 * CNPJ or CPF (the last three as printed, with their dots).
 */
const LABELLED_TAX_ID_RE =
  /(?<![\p{L}])(?:RFC\s*:?\s*([A-ZÑ&]{3,4}\d{6}[A-Z\d]{3})|(?:N\.?I\.?F\.?|C\.?I\.?F\.?)(?:\s*\/\s*(?:N\.?I\.?F\.?|C\.?I\.?F\.?))?\s*:?\s*([A-Z]\d{7}[A-Z\d]|\d{8}[A-Z]|\d{9})|(?:P\.?\s?IVA|partita\s+iva)\s*:?\s*(\d{11})|VAT\s*(?:reg(?:istration)?\.?\s*)?(?:no\.?|number|#)\s*:?\s*(\d{3}\s?\d{4}\s?\d{2})|R\.?U\.?T\.?\s*:?\s*(\d{1,2}\.?\d{3}\.?\d{3}-[\dK])|(?:CNPJ|CPF)(?:\s*\/\s*(?:CNPJ|CPF))?\s*:?\s*(\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}|\d{3}\.\d{3}\.\d{3}-\d{2}))(?![\p{L}\d])/iu;
/** The words that key a VAT id ("USt-IdNr.", "MwSt-Nr.", "VAT No.", "TVA", "BTW", "IVA"). */
const VAT_KEY_WORDS = 'ust|mwst|vat|tva|btw|iva';
/** A VAT id's key and the id after it, spaced in any way ("USt.IdNr: DE 173 52 7 162"; checked against VAT_ID_RE once its spaces are gone). */
const KEYED_SPACED_VAT_RE = new RegExp(
  `(?<![\\p{L}])(?:${VAT_KEY_WORDS})[-\\s.]*(?:id)?[-\\s.]*(?:nr|no|n[°º]|number|nummer)?\\.?\\s*:?\\s*([A-Z]{2,3}(?:[\\s.]?[0-9A-Z]){8,12})(?![\\p{L}\\p{N}])`,
  'iu',
);
/** An amount alone in its phrase, with its currency's sign or code at most. */
const AMOUNT_ALONE = /^(?:[$€£]\s?)?-?\d[\d.,' ]*(?:\s?(?:[$€£]|[A-Z]{3}))?$/;
/** A VAT id as written ("DE 123 456 789", "ABN: 16 112 221 123") as the id alone: "DE123456789", "16112221123". */
const vatIdValue = (written: string) => written.replace(/^ABN:?/, '').replace(/[\s.-]/g, '');
/** VAT_ID_RE for one match at a time (no `lastIndex` to reset). */
const VAT_ID_ONE = new RegExp(VAT_ID_RE.source);
/** VAT_ID_RE as the whole text. */
const VAT_ID_WHOLE = new RegExp(`^(?:${VAT_ID_RE.source})$`);
const BUYER_CONTEXT =
  /\b(?:client|customer|buyer|kunde|kunden|k[äa]ufer|empf[äa]nger|acheteur|klant|afnemer|cliente|comprador|receptor|committente|cessionario|destinatari[oa])/i;
/** A heading or label that speaks to the reader about their own ids ("Vos identifiants", "UW BTW NUMMER", "Your VAT no."): the buyer's. */
const READER_IDS =
  /(?:^|\s)(?:vos|votre|your|ihre?|uw|su|sus|vostr[oai])\s+(?:identifiants?|identifiers?|ids?\b|vat|tax|btw|tva|ust|iva|n[°º]|num[ée]ro|number|nummer|partita|nif|cif)/i;
const IBAN_CONTEXT = /\b(?:iban|bic|swift|konto|compte|rekening|cuenta|conto)\b/i;
/** A VAT id's own key: one of VAT_KEY_WORDS, or Austria's and Switzerland's "UID". */
const VAT_KEY = new RegExp(`(?<![\\p{L}])(?:${VAT_KEY_WORDS}|uid)(?![\\p{L}])`, 'giu');

/**
 * A party's name, its address block under it, and the detail lines just under that in its column
 * after at most a blank line ("TVA : FR38500003710", "SIRET : …" under a recipient's address).
 */
function partyLines(index: PhraseIndex, name: LayoutPhrase): Set<LayoutPhrase> {
  const block = [name, ...blockBelow(index, name, 6)];
  const page = index.lines[name.pageNumber - 1];
  let prev = block[block.length - 1];
  for (let i = prev.lineIndex + 1, taken = 0; i < page.length && taken < 2; i++) {
    const h = Math.max(prev.height, index.textHeight);
    const q = page[i].find((c) => Math.abs(c.x - name.x) < 1.5 * h);
    if (!q || q.y - (prev.y + prev.height) > 3 * h) break;
    block.push(q);
    prev = q;
    taken++;
  }
  return new Set(block);
}

/**
 * VAT ids by shape. One in a buyer's context (its line names the client, or it stands in the
 * block of a buyer heading, or among `buyerLines`, the lines of the customer's block) is the
 * buyer's; the others are the vendor's, the most repeated first.
 */
function vatIds(index: PhraseIndex, buyerBlocks: LayoutPhrase[], buyerLines: ReadonlySet<LayoutPhrase> = new Set()): Candidate[] {
  const vendor = new Map<string, { n: number; phrase: LayoutPhrase }>();
  const out: Candidate[] = [];
  for (const p of index.all) {
    const line = lineOf(index, p).filter((q) => q.x <= p.x);
    // the ids in the phrase, by shape, and a domestic one by its label (here or just left of it)
    const found: { raw: string; id: string; at: number; labelled?: boolean }[] = [];
    VAT_ID_RE.lastIndex = 0;
    for (let m: RegExpExecArray | null; (m = VAT_ID_RE.exec(p.text));) found.push({ raw: m[1], id: vatIdValue(m[1]), at: m.index });
    const left = line.length > 1 ? line[line.length - 2].text : '';
    const joined = `${left} ${p.text}`;
    const labelled = LABELLED_TAX_ID_RE.exec(joined);
    const raw = labelled && labelled.slice(1).find((g) => g !== undefined);
    const labelledId = raw?.replace(/\s/g, '').toUpperCase();
    if (labelled && raw && labelledId && labelled.index + labelled[0].length > left.length + 1 && !found.some((f) => f.id === labelledId))
      found.push({ raw, id: labelledId, at: Math.max(0, labelled.index - left.length - 1), labelled: true });
    // an EU id after its key, its digits spaced as no shape has them ("USt.IdNr: DE 173 52 7 162")
    const keyed = KEYED_SPACED_VAT_RE.exec(p.text);
    const keyedId = keyed && vatIdValue(keyed[1]).toUpperCase();
    if (keyed && keyedId && VAT_ID_WHOLE.test(keyedId) && !found.some((f) => f.id === keyedId)) found.push({ raw: keyed[1], id: keyedId, at: keyed.index });
    for (const { raw: written, id, at, labelled: byLabel } of found) {
      const before = p.text.slice(0, at);
      const context = `${line.map((q) => (q === p ? before : q.text)).join(' ')}`;
      // a bank's word before the id makes it a bank's number, unless a VAT id's own key stands
      // nearer ("BIC IBAN USt-IdNr.: DE 129511151", a footer's row of headings)
      const key = [...context.matchAll(VAT_KEY)].pop();
      if (IBAN_CONTEXT.test(key ? context.slice(key.index + key[0].length) : context)) continue;
      // In a buyer's block: under its heading, the row (its label, or the id itself) starting in the heading's column;
      // where the vendor's block stands on the left of the same lines, the id's own label starts it ("DIČ CZ28897501").
      const start = line[0] ?? p;
      const label = line.length > 1 && !/\d/.test(left) ? line[line.length - 2] : p;
      const buyer =
        // a Brazilian CPF is a private person's: a buyer's
        /^\d{3}\.\d{3}\.\d{3}-\d{2}$/.test(id) ||
        BUYER_CONTEXT.test(context) ||
        READER_IDS.test(context) ||
        buyerLines.has(p) ||
        buyerLines.has(start) ||
        // (a domestic id known by its label, "VAT Reg. No. 832 7762 12", is the buyer's only in the buyer's own lines)
        (!byLabel &&
          buyerBlocks.some(
            (b) =>
              b.pageNumber === p.pageNumber &&
              p.y > b.y &&
              p.y - b.y < 15 * index.textHeight &&
              (Math.abs(start.x - b.x) < 6 * index.textHeight || Math.abs(label.x - b.x) < 2 * index.textHeight || Math.abs(p.x - b.x) < 2 * index.textHeight),
          ));
      if (buyer) {
        if (!out.some((c) => c.field === 'customer_vat_id'))
          out.push({ field: 'customer_vat_id', value: id, raw: written, phrase: p, score: 0.8 * p.confidence });
      } else {
        const cur = vendor.get(id);
        vendor.set(id, { n: (cur?.n ?? 0) + 1, phrase: cur?.phrase ?? p });
      }
    }
  }
  const buyerId = out.find((c) => c.field === 'customer_vat_id')?.value;
  const ranked = [...vendor.entries()].filter(([id]) => id !== buyerId).sort((a, b) => b[1].n - a[1].n);
  if (ranked[0])
    out.push({ field: 'vendor_vat_id', value: ranked[0][0], raw: ranked[0][0], phrase: ranked[0][1].phrase, score: 0.8 * ranked[0][1].phrase.confidence });
  return out;
}

const PAYMENT_TERMS_RE = /\b(?:net\s?\d{1,3}(?:\s*days)?|due\s+(?:up)?on\s+receipt|\d{1,3}\s+days(?:\s+net)?|cash\s+on\s+delivery|end\s+of\s+month|eom)\b/i;

/**
 * Extracts an invoice's fields and line items from its read pages. Fields are found by label
 * (synonyms in English, German, French, Dutch, Spanish and Italian; the value after the label, to
 * its right or under it), parties as name and address blocks, VAT ids by their shapes, the
 * line-item table by its header row. Dates become YYYY-MM-DD (day or month first as the document
 * shows), amounts numbers; subtotal, tax and total are chosen together so that they add up, and a
 * value that fails a check is marked `needs_review` with a warning. A document holding several
 * invoices (see invoicesIn) is read for its first, and the first warning says so.
 */
export function extractInvoice(read: readonly LayoutPage[]): InvoiceExtraction {
  const parts = invoicesIn(read);
  if (parts.length < 2) return readInvoice(read);
  const first = readInvoice(parts[0].pages);
  first.warnings.unshift(severalInvoices(parts));
  return first;
}

/** A number this sure on a page, as an invoice's own, may start an invoice of its own (a label's value, not a guess). */
const OWN_NUMBER = 0.8;

interface InvoicePart {
  number?: string;
  pages: LayoutPage[];
}

/**
 * The invoices a document holds, in page order. A page starts another invoice when the number it
 * gives as its invoice's is another, the invoice before it already has its total, and the pages
 * from it on have a total of their own before yet another number (so a single invoice's pages, a
 * returns slip after it or a page naming other numbers does not part it). One part for most documents.
 */
function invoicesIn(pages: readonly LayoutPage[]): InvoicePart[] {
  if (pages.length < 2) return [{ pages: [...pages] }];
  const read = pages.map((page) => {
    // read alone, as page 1 (the phrase index counts pages from the first it is given)
    const { fields } = readInvoice([{ ...page, pageNumber: 1 }]);
    const n = fields.invoice_number;
    return { page, number: n && n.confidence >= OWN_NUMBER ? String(n.value) : undefined, total: (fields.total?.confidence ?? 0) >= OWN_NUMBER };
  });
  const totalAhead = (from: number) => {
    for (let j = from; j < read.length && (j === from || read[j].number === undefined || read[j].number === read[from].number); j++)
      if (read[j].total) return true;
    return false;
  };
  const parts: (InvoicePart & { total: boolean })[] = [];
  for (const [i, p] of read.entries()) {
    const current = parts[parts.length - 1];
    if (current && !(p.number !== undefined && current.number !== undefined && p.number !== current.number && current.total && totalAhead(i))) {
      current.pages.push(p.page);
      current.number ??= p.number;
      current.total ||= p.total;
    } else parts.push({ number: p.number, pages: [p.page], total: p.total });
  }
  return parts;
}

const pageList = (numbers: number[]) => (numbers.length === 1 ? `page ${numbers[0]}` : `pages ${numbers[0]}–${numbers[numbers.length - 1]}`);

/** The notice that a PDF holds several invoices, of which the first was read. */
function severalInvoices(parts: readonly InvoicePart[]): string {
  const numbers = parts.map((p) => p.number ?? 'without a number');
  const list = `${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
  return `This PDF holds ${parts.length} invoices (${list}): only the first, on ${pageList(parts[0].pages.map((p) => p.pageNumber))}, was read. Upload the others as files of their own.`;
}

/** extractInvoice for the pages of one invoice. */
function readInvoice(read: readonly LayoutPage[]): InvoiceExtraction {
  const pages = read.map(withOcrDigits);
  const index = indexPhrases(pages);
  const table = findLineItems(index.lines);
  const ocr = pages.some((p) => p.source === 'ocr');
  const docCurrency = dominantCurrency(index.text, ocr);
  const decision = decideDateOrder(index.text, docCurrency);
  const candidates = labelledCandidates(index, table.phrases, decision.order);

  const parties: Party[] = [];
  const buyerHeadings: LayoutPhrase[] = [];
  for (const phrase of index.all) {
    if (table.phrases.has(phrase)) continue;
    const label = matchLabel(phrase.text);
    if (!label || label.spec.kind !== 'party') continue;
    const side = label.spec.field === 'vendor_name' ? 'vendor' : 'customer';
    if (side === 'customer') buyerHeadings.push(phrase);
    parties.push(readParty(index, phrase, label.rest, label.spec, side));
  }
  // "Vos identifiants", "UW BTW NUMMER / UW REFERENTIE": the ids under such a heading are the buyer's.
  buyerHeadings.push(...index.all.filter((p) => !table.phrases.has(p) && READER_IDS.test(p.text) && p.text.trim().split(/\s+/).length <= 6));
  // the sender's web and mail domains (see senderDomains), for both the sender's and the buyer's block
  const domains = senderDomains(index);
  parties.push(...returnAddressLine(index, ocr), unlabelledVendor(index, table.phrases, domains), ...windowRecipients(index, pages[0], table.phrases, domains));
  const slipCompany = ocr ? receiptCompany(index, pages[0]) : {};
  if (ocr) parties.push(domainVendor(index), slipCompany);
  for (const p of parties) {
    if (p.name) candidates.push(p.name);
    if (p.address) candidates.push(p.address);
  }
  candidates.push(
    ...titledNumbers(index, table.phrases),
    ...placeDates(index, decision.order),
    ...headingRowCandidates(index, table.phrases, decision.order),
    ...pairedCandidates(index, table.phrases, decision.order),
  );

  // A card terminal's slip printed on a receipt: its numbers ("Beleg-Nr. 8059", "BNr 1302") are the terminal's, not the receipt's.
  const slip = cardSlipLines(index);
  for (let i = candidates.length - 1; i >= 0; i--)
    if (candidates[i].field === 'invoice_number' && slip.has(`${candidates[i].phrase.pageNumber}:${candidates[i].phrase.lineIndex}`)) candidates.splice(i, 1);

  const fields: InvoiceExtraction['fields'] = {};
  const chosen = new Map<InvoiceFieldName, Candidate>();
  for (const field of INVOICE_FIELDS) {
    if (field === 'subtotal' || field === 'tax' || field === 'total') continue;
    // VAT ids by shape, read once the parties are chosen (the VAT fields come after them): one in
    // the block of a customer chosen with its address is the buyer's
    if (field === 'vendor_vat_id') {
      const customer = chosen.get('customer_name');
      candidates.push(...vatIds(index, buyerHeadings, customer && chosen.has('customer_address') ? partyLines(index, customer.phrase) : undefined));
    }
    // An address goes with the name chosen for its party, never with another party's name (the
    // customer's block under a sender's return-address line is not the sender's address).
    const owner = field === 'vendor_address' ? chosen.get('vendor_name') : field === 'customer_address' ? chosen.get('customer_name') : undefined;
    const vendor = field === 'customer_name' || field === 'customer_address' ? chosen.get('vendor_name') : undefined;
    const mine = candidates.filter(
      (c) =>
        c.field === field &&
        (!owner || c.owner === undefined || c.owner === String(owner.value)) &&
        !(c.unlabelled && vendor && sameName(String(c.owner ?? c.value), String(vendor.value))) &&
        // "9,190.00 U0 SEK" read under a heading: an amount with its cents names no party
        !((field === 'vendor_name' || field === 'customer_name') && CENTS_RE.test(String(c.value))) &&
        !(c.owner !== undefined && CENTS_RE.test(c.owner)),
    );
    if (mine.length === 0) continue;
    const best = mine.reduce((a, b) => (b.score > a.score + 1e-9 ? b : a));
    // Found twice, from two places, with one value: corroborated. A party's name counts where it
    // was read, not where a rule put the legal name it read elsewhere (the foot's one mention,
    // given to the letterhead's brand and to a logo, is one reading).
    const readThere = (c: Candidate) => !PARTY_NAMES.has(field) || lettersOf(c.phrase.text).includes(lettersOf(String(c.value)));
    const twice = readThere(best) && foundTwice(mine.filter(readThere), best);
    chosen.set(field, best);
    fields[field] = {
      value: best.value,
      confidence: round(twice ? Math.max(best.score, 0.95) : Math.min(best.score, UNCHECKED)),
      ...(String(best.raw) !== String(best.value) ? { raw: best.raw } : {}),
    };
  }
  const withheld = withholdings(index);
  const totals = chooseTotals([...candidates, ...rowTrios(index, table.phrases), ...breakdownSums(index, table.phrases)], withheld);
  Object.assign(fields, totals.fields);
  // The vendor cannot be the customer: when both came out the same, drop the weaker vendor guess.
  if (fields.vendor_name && fields.customer_name && fields.vendor_name.value === fields.customer_name.value) {
    delete fields.vendor_name;
    delete fields.vendor_address;
  }
  if (!fields.customer_name && fields.vendor_name) {
    const other = otherVatBlock(index, String(fields.vendor_name.value), fields.vendor_vat_id?.value);
    fields.customer_name = other.customer_name;
    fields.customer_vat_id ??= other.customer_vat_id;
    if (!fields.customer_name) delete fields.customer_name;
    if (!fields.customer_vat_id) delete fields.customer_vat_id;
  }
  // A scanned page under a brand whose foot names one company with its legal form, not the buyer
  // nor a bank ("BASTARD" over "XUQUER AGAIN S.L." at the foot of a till slip): that company is the
  // sender; where a till slip's head names another one, the head's goes first ("RESTAURACE" over
  // "Grip Central s.r.o.", with "A TĚŠÍME SE" read as a company at its foot).
  if (ocr && fields.vendor_name && !LEGAL_FORM_RE.test(String(fields.vendor_name.value).trim())) {
    const foot = onlyCompany(index, fields.customer_name?.value);
    const only = foot && slipCompany.name ? slipCompany.name.value : foot;
    if (only) fields.vendor_name = { value: String(only), confidence: Math.min(fields.vendor_name.confidence, 0.6) };
  }
  // No sender at the top: the company named in the last page's footer, with its legal form.
  if (!fields.vendor_name) {
    const footer = footerCompany(index, fields.customer_name?.value);
    if (footer) fields.vendor_name = { value: footer.text.replace(/^[^:]{1,30}:\s*/, '').trim(), confidence: round(0.5 * footer.confidence) };
  }

  if (!fields.payment_terms) {
    const m = index.all.map((p) => ({ p, m: PAYMENT_TERMS_RE.exec(p.text) })).find((x) => x.m);
    if (m?.m) fields.payment_terms = { value: m.m[0], confidence: round(0.7 * m.p.confidence) };
  }
  if (!fields.invoice_number) {
    // "INV-2023-001" and "INV0042" are the number as written; in "SHIPPING INVOICE 10112" and
    // "Invoice #88" the word is the document's title and the number is what follows it.
    const m = index.all.map((p) => ({ p, m: /\b(?:INV|INVOICE)(\s*#\s*|[-/ ])?(\d[\w\-/]*)/i.exec(p.text) })).find((x) => x.m);
    if (m?.m) fields.invoice_number = { value: /[\s#]/.test(m.m[1] ?? '') ? m.m[2] : m.m[0], confidence: round(0.6 * m.p.confidence) };
  }
  const moneyCurrency = candidates.find((c) => c.field === 'total' && c.currency)?.currency ?? candidates.find((c) => c.currency)?.currency;
  if (!fields.currency && (moneyCurrency || docCurrency)) {
    fields.currency = { value: (moneyCurrency ?? docCurrency)!, confidence: moneyCurrency ? 0.85 : 0.7 };
  }
  // A currency named only apart from any amount ("€/Stk", "Betrag in EUR"): the document's, less sure.
  const named = fields.currency ? undefined : namedCurrency(index.text);
  // (on a page read by OCR a lone sign may be a misread mark: not shown as sure)
  if (named) fields.currency = { value: named, confidence: ocr ? 0.5 : 0.6 };
  // "$" read as US dollars on a page that is plainly another dollar or peso country's: a Canadian
  // folio (its TPS/TVQ, HST), a Mexican CFDI ("… PESOS 00/100 M.N.", an RFC), a Chilean DTE (an RUT, the SII).
  if (fields.currency?.value === 'USD' && !/\bUSD\b/.test(index.text)) {
    const country = DOLLAR_SIGN_COUNTRIES.find(([, re]) => re.test(index.text))?.[0];
    if (country) fields.currency = { value: country, confidence: fields.currency.confidence };
  }
  // "₹" read by OCR as "¥" on an Indian invoice (its GSTIN, IGST/CGST/SGST, amounts grouped in lakhs): rupees.
  if (ocr && fields.currency?.value === 'JPY' && !/\bJPY\b/.test(index.text) && INDIAN_PAGE.test(index.text))
    fields.currency = { value: 'INR', confidence: fields.currency.confidence };
  // "$" is the sign of the US, Australian, Canadian, … dollar, "¥" of the yen and the yuan, "kr" of
  // four crowns: read from the sign alone, with the code printed nowhere, the currency needs a look.
  const code = fields.currency?.value;
  if (fields.currency && typeof code === 'string' && SHARED_SIGN.has(code) && !new RegExp(`\\b${code}\\b`).test(index.text)) cap(fields.currency, REVIEW);
  if (!fields.invoice_date) {
    const date = unlabelledDate(index, fields, decision.order);
    if (date) {
      fields.invoice_date = { value: date.value, confidence: round(date.score), ...(date.raw !== date.value ? { raw: date.raw } : {}) };
      chosen.set('invoice_date', date);
    }
  }
  const inferred = inferTotals(index, fields);

  const { items: lineItems, mended } = chooseLineItems(table.items, table.alternatives, fields);
  // A name that is one of the lines read ("DJI" under a receipt's article number) is no vendor.
  const vendorName = fields.vendor_name?.value;
  if (vendorName !== undefined && lineItems.some((i) => i.description.trim() === String(vendorName).trim())) {
    delete fields.vendor_name;
    delete fields.vendor_address;
  }
  const warnings = [...checkDates(fields, chosen, decision), ...crossCheck(fields, lineItems, withheld)];
  if (mended)
    warnings.push(
      `Line ${mended.line}'s amount was read as ${mended.read.toFixed(2)}; ${mended.amount.toFixed(2)} makes the lines add up, so it was taken: check it.`,
    );
  // Nothing read at all (a faint or blurred photo, a blank page): say so before "no total was found".
  if (pages.every((p) => p.words.length === 0)) warnings.unshift(NO_TEXT_READ);
  // An amount found by arithmetic alone is not certain, even when the sum it came from checks out.
  for (const name of [...inferred, ...totals.unlabelled]) cap(fields[name], INFERRED);
  for (const name of totals.unsure) cap(fields[name], UNCHECKED);
  // Another total printed under the one taken ("Summe 28,30", a discount, "SUMME € 27,63"): the
  // one taken may be a total before deductions, however well the lines add up to it.
  if (fields.total && laterTotal(index, candidates, fields.total.value)) cap(fields.total, UNCHECKED);
  // Read by OCR, an amount no sum checks and a party's name found once are wrong a third of the
  // time (dev scans and photos of tests/fixtures/real-invoices: 5 of 13 amounts and 5 of 15 names
  // between 0.6 and 0.9): the page asks for a look at them.
  if (ocr) for (const name of OCR_UNSURE) if (fields[name] && fields[name]!.confidence < 0.9) cap(fields[name], REVIEW);
  return { fields, lineItems, warnings };
}

/** Lowers a field's confidence to at most `limit` (nothing when the field is absent). */
function cap(field: ExtractedField | undefined, limit: number): void {
  if (field) field.confidence = Math.min(field.confidence, limit);
}

/** The fields an OCR reading gets wrong most often (see extractInvoice). */
const OCR_UNSURE = ['subtotal', 'tax', 'total', 'vendor_name', 'customer_name'] as const;

/**
 * The company a footer names (the bottom quarter of the last page): its first phrase that ends
 * in a legal form ("Sound and Vision OÜ", "Muster GmbH", the payee of "Account Name: Contoso
 * LTD"), holds no digit and is not the buyer.
 */
function footerCompany(index: PhraseIndex, customer: unknown): LayoutPhrase | undefined {
  const phrases = (index.lines[index.lines.length - 1] ?? []).flat();
  const bottom = Math.max(0, ...phrases.map((p) => p.y + p.height));
  return phrases.find((p) => {
    const t = p.text.trim();
    return (
      p.y > bottom * 0.75 &&
      LEGAL_FORM_RE.test(t) &&
      !/\d/.test(t) &&
      !matchLabel(t) &&
      !(typeof customer === 'string' && sameName(t, customer)) &&
      t.split(/\s+/).length <= 8
    );
  });
}

/** Whether a total other than `value` (and not zero) is labelled under the one taken, on its page. */
function laterTotal(index: PhraseIndex, candidates: readonly Candidate[], value: unknown): boolean {
  const taken = candidates.filter((c) => c.field === 'total' && c.value === value);
  if (taken.length === 0) return false;
  const at = taken.reduce((a, b) => (b.score > a.score ? b : a)).phrase;
  const under = (p: LayoutPhrase) => p.pageNumber === at.pageNumber && p.y > at.y + at.height / 2;
  if (candidates.some((c) => c.field === 'total' && c.value !== value && c.value !== 0 && under(c.phrase))) return true;
  // a total's label under it with digits that are no amount ("SUMME € 27:68": OCR misread it)
  return index.all.some((p) => {
    const label = under(p) ? matchLabel(p.text) : undefined;
    if (label?.spec.field !== 'total') return false;
    const row = [label.rest, ...rightOf(index, p).map((q) => q.text)].join(' ');
    return /\d/.test(row) && findAmounts(row).length === 0;
  });
}

/**
 * The buyer when no label and no window names one: on page 1, under a name other than the
 * vendor's, an address block (a postcode and town) holding a VAT id other than the vendor's
 * (two parties, each with its own id, as boxed layouts print them). Weak (0.5), with that id as
 * the buyer's when none was found.
 */
function otherVatBlock(index: PhraseIndex, vendor: string, vendorVat: string | number | undefined): InvoiceExtraction['fields'] {
  const page = index.lines[0] ?? [];
  for (const v of page.flat()) {
    const id = VAT_ID_ONE.exec(v.text)?.[1]?.replace(/[\s.-]/g, '');
    if (!id || id === vendorVat) continue;
    // up the block from the id's line, in its column, line by line: its top line is the name
    const block: LayoutPhrase[] = [];
    let at = v;
    for (let i = v.lineIndex - 1; i >= 0 && block.length < 5; i--) {
      const h = Math.max(at.height, index.textHeight);
      const up = page[i].find((q) => Math.abs(q.x - at.x) < 1.5 * h);
      if (!up || at.y - (up.y + up.height) > 3 * h) break;
      block.unshift(up);
      at = up;
    }
    const [name, ...address] = block;
    const t = name?.text.trim() ?? '';
    if (!name || !address.some((q) => POSTCODE_TOWN_RE.test(q.text)) || notAName(name) || STREET_RE.test(t) || /\d/.test(t) || sameName(t, vendor)) continue;
    const score = round(0.5 * name.confidence);
    return { customer_name: { value: t, confidence: score }, customer_vat_id: { value: id, confidence: score } };
  }
  return {};
}

/** What a card terminal prints on its slip: the slip's heading and its own numbers (not the payment line, "EC-Cash 19,99", printed near the receipt's own number). */
const CARD_SLIP_RE =
  /\b(?:kundenbeleg|h[äa]ndlerbeleg|girocard|terminal[-\s]?id|trace[-\s]?nr|genehmigungs?[-\s]?nr|autorisierungs?[-\s]?nr|cardholder\s+copy|merchant\s+copy|auth(?:orization)?\s*code|terminal\s*(?:no|#))/i;

/**
 * The lines of a card terminal's slip: each line within three lines of one naming the slip or
 * one of its numbers, as "page:line" keys.
 */
function cardSlipLines(index: PhraseIndex): Set<string> {
  const out = new Set<string>();
  index.lines.forEach((lines, page) =>
    lines.forEach((line, i) => {
      if (!line.some((p) => CARD_SLIP_RE.test(p.text))) return;
      for (let k = Math.max(0, i - 3); k <= Math.min(lines.length - 1, i + 3); k++) out.add(`${page + 1}:${k}`);
    }),
  );
  return out;
}

/** Two names of one party: the same letters, or one inside the other ("ACME" and "ACME GmbH"). */
function sameName(a: string, b: string): boolean {
  const [x, y] = [lettersOf(a), lettersOf(b)];
  return x === y || (Math.min(x.length, y.length) >= 4 && (x.includes(y) || y.includes(x)));
}

/**
 * A tax that can be on a net amount: no VAT or sales tax rate is above 30 %, so a tax larger than
 * that share of the subtotal means the two were read the wrong way round (or one is no tax).
 */
const plausibleTax = (subtotal: number, tax: number) => Math.abs(tax) <= Math.abs(subtotal) * 0.3 + 0.011;

/** The confidence of an amount found by arithmetic, with no label of its own. */
const INFERRED = 0.8;

/**
 * A missing total (or subtotal) found by arithmetic: the amount printed on the document that is
 * the subtotal plus the tax (or the total less the tax), wherever it stands ("elec.-cash 59,96"
 * under "Netto 50,38 | MwSt. 9,58" on a till receipt). Returns the fields it set.
 */
function inferTotals(index: PhraseIndex, fields: InvoiceExtraction['fields']): Array<'total' | 'subtotal'> {
  const num = (f?: ExtractedField) => (typeof f?.value === 'number' ? f.value : undefined);
  const [subtotal, tax, total] = [num(fields.subtotal), num(fields.tax), num(fields.total)];
  if (tax === undefined || tax === 0 || (subtotal === undefined) === (total === undefined)) return [];
  const name = total === undefined ? 'total' : 'subtotal';
  const target = cents(total === undefined ? subtotal! + tax : total - tax);
  if (!plausibleTax(name === 'total' ? subtotal! : target, tax)) return [];
  for (const p of index.all) {
    const hit = findAmounts(p.text).find((a) => Math.abs(a.value - target) <= 0.005);
    if (!hit) continue;
    fields[name] = { value: target, confidence: round(INFERRED * p.confidence), raw: hit.raw };
    return [name];
  }
  return [];
}

/** A currency sign or code printed apart from any amount, the most frequent; undefined when there is none. */
function namedCurrency(text: string): string | undefined {
  const counts = new Map<string, number>();
  // (the euro's name too, as slips print it: "Total (EURO)", "Euros")
  for (const m of text.matchAll(/[€£]|(?<![\p{L}\p{N}])(?:EUR(?:OS?)?|Euros?|USD|GBP|CHF)(?![\p{L}\p{N}])/gu)) {
    const code = currencyCode(m[0].slice(0, 3));
    if (code) counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** A phrase that is a date and little else: a time ("13:59"), a weekday or a bracket beside it at most. */
const aloneDate = (text: string, raw: string) =>
  !/\p{L}{2}/u.test(
    text
      .replace(raw, '')
      .replace(/\b\d{1,2}:\d{2}(?::\d{2})?\b/g, '')
      .replace(/\b(?:mon|tue|wed|thu|fri|sat|sun|mo|di|mi|do|fr|sa|so|lun|mar|mer|jeu|ven|sam|dim)\w*\.?/gi, ''),
  );

/** A folio's departure label right before its date ("Depart:", "Departure date", "Check-out", "Abreise", "Départ", "Salida"). */
const DEPARTURE_RE =
  /(?:^|[\s/])(?:depart(?:ure)?(?:\s*date)?|check[-\s]?out(?:\s*date)?|abreise(?:datum)?|d[ée]part|date\s*de\s*d[ée]part|salida|fecha\s*de\s*salida|vertrek(?:datum)?|partenza)\s*:?\s*$/i;

/**
 * The issue date when no label names it (a till receipt's "6/10/2019 13:59", a letter's date
 * alone at its top): the one date the document prints, besides its due date; or, when it prints
 * several, the only one standing alone on page 1, or failing that the only one on page 1 with a
 * time after it, or a hotel folio's departure date. Weak either way.
 */
function unlabelledDate(index: PhraseIndex, fields: InvoiceExtraction['fields'], order: DateOrder): Candidate | undefined {
  const due = fields.due_date?.value;
  const found = index.all.flatMap((p) => findDates(p.text, order).map((d) => ({ p, d }))).filter(({ d }) => d.iso !== due);
  const distinct = new Set(found.map(({ d }) => d.iso));
  const alone = found.filter(({ p, d }) => p.pageNumber === 1 && aloneDate(p.text, d.raw));
  // "27.02.2020 15:56 Bed.Nr.:120": a date with the time after it, as a till prints when it sold.
  const stamped = found.filter(({ p, d }) => p.pageNumber === 1 && /^\s*\d{1,2}:\d{2}\b/.test(p.text.slice(p.text.indexOf(d.raw) + d.raw.length)));
  const one = (list: typeof found) => (list.length && new Set(list.map(({ d }) => d.iso)).size === 1 ? list[0] : undefined);
  // "Depart: 28Mar21": a hotel folio is dated the day its guest leaves.
  const departed = found.filter(({ p, d }) => p.pageNumber === 1 && DEPARTURE_RE.test(p.text.slice(0, p.text.indexOf(d.raw))));
  const pick = distinct.size === 1 ? found[0] : (one(alone) ?? one(stamped) ?? one(departed));
  if (!pick) return undefined;
  const score = (distinct.size === 1 ? 0.6 : 0.5) * pick.p.confidence;
  return { field: 'invoice_date', value: pick.d.iso, raw: pick.d.raw, phrase: pick.p, score, ambiguous: pick.d.ambiguous };
}

/**
 * The lines that add up to the subtotal (or, with no tax, the total): the table's first reading
 * when it does, else another reading of its rows that does (amount-only rows as lines of their
 * own, or as notes on the line above); the first reading when none does.
 */
export function chooseLineItems(
  items: LineItem[],
  alternatives: readonly LineItem[][],
  fields: InvoiceExtraction['fields'],
): { items: LineItem[]; mended?: { line: number; read: number; amount: number } } {
  const num = (f?: ExtractedField) => (typeof f?.value === 'number' ? f.value : undefined);
  const target = num(fields.subtotal) ?? (fields.tax === undefined ? num(fields.total) : undefined);
  // With no table read, a receipt's rows may add up to its total (prices with tax) instead.
  const targets = [target, ...(items.length === 0 ? [num(fields.total)] : [])].filter((t): t is number => t !== undefined);
  const adds = (list: LineItem[]) => list.length > 0 && targets.some((t) => Math.abs(sumOf(list) - t) <= 0.011);
  const chosen = adds(items) ? items : alternatives.find(adds);
  if (chosen) return { items: chosen };
  // A misread amount may keep a table's lines, prices with tax, from their total too.
  const mendTargets = [...targets, num(fields.total)].filter((t, i, all): t is number => t !== undefined && all.indexOf(t) === i);
  for (const list of [items, ...alternatives]) {
    for (const t of mendTargets) {
      const mended = mendOneMisread(list, t);
      if (mended) return mended;
    }
  }
  return { items };
}

/**
 * OCR lines that miss their total by what one misread digit of one amount explains ("7,95" read
 * for "7,99"), or one amount's lost decimal point ("528" read for "5.28"): among the lines whose
 * amount differs from the amount that would make them add up in one character only, or by its
 * decimal point alone, the one whose amount was read least surely (and clearly less surely than
 * the next) is mended and marked for a look. Lines whose quantity × unit price makes their amount,
 * and text-layer lines (read surely), are never changed.
 */
export function mendOneMisread(
  list: readonly LineItem[],
  target: number,
): { items: LineItem[]; mended: { line: number; read: number; amount: number } } | undefined {
  if (list.length < 2) return undefined;
  const gap = cents(target - sumOf(list));
  if (gap === 0) return undefined;
  const suspects = list
    .map((item, line) => ({ item, line, sure: amountConfidence(item) }))
    .filter(({ item, sure }) => {
      if (item.amount === undefined || sure >= 0.9) return false;
      if (item.quantity !== undefined && item.unit_price !== undefined && fits(item.quantity, item.unit_price, item.amount)) return false;
      const to = cents(item.amount + gap);
      if (to <= 0) return false;
      // "5.28" read as "528": its decimal point lost, the amount a hundred times too large
      const pointLost = Number.isInteger(item.amount) && cents(item.amount / 100) === to;
      return pointLost || (Math.abs(gap) < target && oneCharApart(item.amount.toFixed(2), to.toFixed(2)));
    })
    .sort((a, b) => a.sure - b.sure);
  const [first, second] = suspects;
  if (!first || (second && second.sure - first.sure < 0.1)) return undefined;
  const amount = cents(first.item.amount! + gap);
  const items = list.map((item) => (item === first.item ? { ...item, amount, confidence: Math.min(item.confidence, REVIEW) } : item));
  return { items, mended: { line: first.line + 1, read: first.item.amount!, amount } };
}

/** Two numbers written alike but for one character ("7.95", "7.99"). */
function oneCharApart(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let differ = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
  return differ === 1;
}

/** The warning when no word could be read on any page. */
export const NO_TEXT_READ =
  'No text could be read on this document (a faint, blurred or blank page?), so nothing could be extracted: try a sharper scan or photo.';

/** The highest confidence a value gets from its label alone, with nothing to check it against. */
const UNCHECKED = 0.85;
/** The confidence of a value that failed a check: under the page's "check this" line (0.6). */
const REVIEW = 0.55;

function flag(f: ExtractedField | undefined): void {
  if (!f) return;
  f.needs_review = true;
  f.confidence = round(Math.min(f.confidence, REVIEW));
}

/**
 * Chooses subtotal, tax and total together among every labelled candidate: the best-scored trio
 * where subtotal + tax = total (or subtotal = total with no tax) wins, even over a better-scored
 * value that adds up with nothing; those values are certain. When no trio adds up, each field
 * takes its best candidate (the later one on a tie: totals come last) and is left for the
 * cross-check to flag.
 */
/**
 * A tax withheld at source and taken off the total: Spain's and Mexico's "Retención" / "IRPF" /
 * "ISR Retenido", Italy's "Ritenuta d'acconto", Portugal's "Retenção na fonte", "Withholding tax".
 */
const WITHHOLDING_RE =
  /^(?:total\s*)?(?:retenci[óo]n(?:es)?(?:\s*irpf)?|irpf|ritenuta(?:\s*d['’]\s*acconto)?|withholding(?:\s*tax)?|reten[çc][ãa]o(?:\s*na\s*fonte)?|(?:isr|iva)\s*retenido)(?![\p{L}])/iu;

/** The amounts withheld a page prints (see WITHHOLDING_RE): each the last amount of its label's line, unsigned. */
function withholdings(index: PhraseIndex): number[] {
  const out = new Set<number>();
  for (const p of index.all) {
    const m = WITHHOLDING_RE.exec(p.text.trim());
    if (!m) continue;
    const texts = [p.text.trim().slice(m[0].length), ...rightOf(index, p).map((q) => q.text)];
    const last = texts.flatMap((text) => findAmounts(text)).at(-1);
    if (last && last.value !== 0) out.add(Math.abs(last.value));
  }
  return [...out];
}

/**
 * Subtotal, tax and total chosen together: the surest trio whose sum checks (subtotal + tax =
 * total, or less a tax withheld, one of `withheld`), else each on its own and unsure.
 */
function chooseTotals(
  candidates: readonly Candidate[],
  withheld: readonly number[] = [],
): {
  fields: InvoiceExtraction['fields'];
  unlabelled: Array<'subtotal' | 'tax' | 'total'>;
  /** The amounts of a trio whose sum checks nothing (see below): never certain, whatever agrees later. */
  unsure: Array<'subtotal' | 'tax' | 'total'>;
} {
  const of = (field: InvoiceFieldName) => {
    // the best candidate of each amount (a breakdown's sum kept apart: it outlives its rows, see below)
    const best = new Map<string, Candidate>();
    for (const c of candidates) {
      if (c.field !== field || typeof c.value !== 'number') continue;
      const key = `${c.value}${c.breakdownRows ? ' summed' : ''}`;
      const cur = best.get(key);
      if (!cur || c.score > cur.score) best.set(key, c);
    }
    return [...best.values()];
  };
  // "Balance due 0.00" after a payment, "Subtotal 0.00" on a blank row: a zero is the total or
  // the subtotal only when nothing else is (a tax of 0.00 is common and stays).
  const nonZero = (list: Candidate[]) => (list.some((c) => c.value !== 0) ? list.filter((c) => c.value !== 0) : list);
  const subtotals = nonZero(of('subtotal'));
  const taxes = of('tax');
  const totals = nonZero(of('total'));
  const near = nearCent;
  type Trio = { s: Candidate; t?: Candidate; T: Candidate; score: number };
  /** The totals of every trio that adds up. */
  const checkedTotals = new Set<number>();
  const findTrio = (): Trio | undefined => {
    let best: Trio | undefined;
    for (const T of totals) {
      for (const s of subtotals) {
        const options: (Candidate | undefined)[] = [...taxes, undefined];
        for (const t of options) {
          const tax = t ? (t.value as number) : 0;
          const sum = (s.value as number) + tax;
          const adds = near(sum, T.value as number) || (t !== undefined && withheld.some((w) => near(sum - w, T.value as number)));
          if (!adds || !plausibleTax(s.value as number, tax)) continue;
          if (!t && T.value === s.value && taxes.some((x) => x.value !== 0)) continue;
          // a zero taken for the tax while the page names a tax of some amount: the sum checks nothing
          const vacuous = t?.value === 0 && taxes.some((x) => x.value !== 0);
          if (!vacuous) checkedTotals.add(T.value as number);
          const score = s.score + T.score + (t ? t.score : 0.5) - (vacuous ? 0.5 : 0);
          // equally sure trios: the larger total (a grand total is never less than a rate's row)
          if (!best || score > best.score + 1e-9 || (score > best.score - 1e-9 && (T.value as number) > (best.T.value as number))) best = { s, t, T, score };
        }
      }
    }
    return best;
  };
  const rowOf = (c: Candidate) => `${c.phrase.pageNumber}:${c.phrase.lineIndex}`;
  let trio = findTrio();
  // A trio whose net and gross stand on one row, with a larger total that is surer elsewhere, is
  // one rate's row of a tax breakdown ("Deductable 9%  1,355.05  121.95  1,477.00" on a folio whose
  // "Total" is 1,568.18 with its city tax): its net is no subtotal of the whole. The row's amounts
  // are set aside and the trio looked for again.
  // A row that a breakdown's sums take in (see breakdownSums) is such a row whatever the scores,
  // and its tax is one rate's.
  for (let tries = 0; trio && tries < 3; tries++) {
    const row = rowOf(trio.s);
    const T0 = trio.T;
    const summed = candidates.some((c) => c.breakdownRows?.includes(row));
    if (rowOf(T0) !== row || !(summed || totals.some((c) => rowOf(c) !== row && (c.value as number) > (T0.value as number) + 0.011 && c.score >= T0.score)))
      break;
    for (const list of summed ? [subtotals, totals, taxes] : [subtotals, totals])
      for (let i = list.length - 1; i >= 0; i--) if (rowOf(list[i]) === row && !list[i].breakdownRows) list.splice(i, 1);
    checkedTotals.clear();
    trio = findTrio();
  }
  const out: InvoiceExtraction['fields'] = {};
  const field = (c: Candidate, confidence: number): ExtractedField => ({
    value: c.value,
    confidence: round(confidence),
    ...(String(c.raw) !== String(c.value) ? { raw: c.raw } : {}),
  });
  if (trio) {
    // Certain only when the sum checks something: not when the subtotal and the total are one
    // printed amount read under two labels with no tax between them, nor when a trio with a
    // larger total also adds up (a rate's row of a tax breakdown adds up as well as the whole),
    // nor when everything is zero (0 + 0 = 0 checks nothing: a "0.00" row read as the totals).
    const t0 = trio.T.value as number;
    // Nor when the tax taken is a zero while the page names a tax of some amount (see `vacuous`).
    const zeroTax = trio.t?.value === 0 && taxes.some((x) => x.value !== 0);
    const checks = t0 !== 0 && !(trio.s.phrase === trio.T.phrase && !trio.t) && !zeroTax && ![...checkedTotals].some((x) => x > t0 + 0.011);
    const sure = (c: Candidate) => (checks ? 0.97 : Math.min(c.score, UNCHECKED));
    out.subtotal = field(trio.s, sure(trio.s));
    out.total = field(trio.T, sure(trio.T));
    if (trio.t) out.tax = field(trio.t, sure(trio.t));
    const unsure: Array<'subtotal' | 'tax' | 'total'> = checks ? [] : trio.t ? ['subtotal', 'tax', 'total'] : ['subtotal', 'total'];
    const unlabelled = (
      [
        ['subtotal', trio.s],
        ['tax', trio.t],
        ['total', trio.T],
      ] as const
    )
      .filter(([, c]) => c?.unlabelled)
      .map(([name]) => name);
    return { fields: out, unlabelled, unsure };
  }
  // No total named, and a "subtotal" that is another's net plus a tax ("Net 220.54 | VAT 12% 26.46 |
  // Subtotal 247.00" on a slip): that one is the gross, the total; never certain, its label says otherwise.
  const gross = totals.length
    ? undefined
    : subtotals
        .flatMap((T) => subtotals.flatMap((s) => taxes.map((t) => ({ s, t, T }))))
        .filter(
          ({ s, t, T }) =>
            s !== T &&
            t.value !== 0 &&
            near((s.value as number) + (t.value as number), T.value as number) &&
            plausibleTax(s.value as number, t.value as number),
        )
        .sort((a, b) => b.s.score + b.t.score + b.T.score - (a.s.score + a.t.score + a.T.score))[0];
  if (gross) {
    out.subtotal = field(gross.s, Math.min(gross.s.score, UNCHECKED));
    out.tax = field(gross.t, Math.min(gross.t.score, UNCHECKED));
    out.total = field(gross.T, Math.min(gross.T.score, UNCHECKED));
    return { fields: out, unlabelled: [], unsure: ['subtotal', 'tax', 'total'] };
  }
  const late = (a: Candidate, b: Candidate) =>
    b.score > a.score + 1e-9 || (Math.abs(b.score - a.score) <= 1e-9 && b.phrase.pageNumber * 1e6 + b.phrase.y > a.phrase.pageNumber * 1e6 + a.phrase.y)
      ? b
      : a;
  // A statement of several parts, each with its total, and the amount of the whole: the total
  // that the others add up to.
  const grand = sumOfOthers(candidates.filter((c) => c.field === 'total'));
  // An amount that two places give ("Total 1,568.18" under the charges, the foot of a breakdown's
  // "Total" column on the next page) goes before one that a single place gives ("Total Breakfast 52.29").
  const pick = (name: 'subtotal' | 'tax' | 'total', list: readonly Candidate[]) => {
    const same = candidates.filter((c) => c.field === name);
    const twice = new Set(list.filter((b) => foundTwice(same, b)));
    return list.reduce<Candidate | undefined>((a, b) => (!a ? b : twice.has(a) === twice.has(b) ? late(a, b) : twice.has(b) ? b : a), undefined);
  };
  const chosenTotal = pick('total', grand ? [grand] : totals);
  // The tax of a breakdown whose gross amounts add up to the chosen total (see breakdownSums): checked by it.
  const summedTax =
    chosenTotal &&
    taxes.find((t) => t.breakdownRows && candidates.some((c) => c.field === 'total' && c.breakdownRows === t.breakdownRows && c.value === chosenTotal.value));
  const chosen = { subtotal: pick('subtotal', subtotals), tax: summedTax ?? pick('tax', taxes), total: chosenTotal };
  for (const name of ['subtotal', 'tax', 'total'] as const) {
    const best = chosen[name];
    if (best) out[name] = field(best, Math.min(best.score, UNCHECKED));
  }
  return { fields: out, unlabelled: [], unsure: [] };
}

/** The fields that name a party (see readThere in readInvoice). */
const PARTY_NAMES: ReadonlySet<InvoiceFieldName> = new Set(['vendor_name', 'customer_name']);

/** Whether another place in the pool gives the candidate's value too: two phrases, one value. */
const foundTwice = (pool: readonly Candidate[], c: Candidate) => pool.some((o) => o !== c && o.phrase !== c.phrase && String(o.value) === String(c.value));

/** The candidate whose amount is the sum of two or more others, each printed in its own place (undefined when none is). */
function sumOfOthers(totals: readonly Candidate[]): Candidate | undefined {
  const byPhrase = new Map<LayoutPhrase, number>();
  for (const c of totals) if (typeof c.value === 'number' && c.value > 0 && !byPhrase.has(c.phrase)) byPhrase.set(c.phrase, c.value);
  const parts = [...byPhrase.entries()];
  return totals.find((T) => {
    const others = parts.filter(([p, v]) => p !== T.phrase && v !== T.value);
    return others.length >= 2 && Math.abs(cents(others.reduce((a, [, v]) => a + v, 0)) - (T.value as number)) <= 0.011;
  });
}

/** Three amounts that read as a net, its tax (a plausible one, zero allowed) and their sum. */
const netTaxGross = (net: number, tax: number, gross: number) => net > 0 && tax >= 0 && Math.abs(cents(net + tax) - gross) <= 0.005 && plausibleTax(net, tax);

/**
 * Two amounts of a row before its gross, as [net, tax]: in that order, or the tax first ("A 10%:
 * 6,05  60,55  66,60" under "MWSt  Netto  Brutto"); undefined when they add up to no gross.
 */
function netAndTax<T extends { a: { value: number } }>(first: T, second: T, gross: number): [T, T] | undefined {
  if (netTaxGross(first.a.value, second.a.value, gross)) return [first, second];
  if (netTaxGross(second.a.value, first.a.value, gross)) return [second, first];
  return undefined;
}

/**
 * Unlabelled totals: three amounts side by side on a row, outside the line table, where the first
 * two add up to the third and the second is a plausible tax on the first ("Total  1,64  0,31
 * 1,95" under "Netto  MwSt  Brutto" headings OCR could not read): net, tax and gross, weakly
 * (they only count where no labelled trio adds up, and are never shown as certain).
 */
function rowTrios(index: PhraseIndex, exclude: Set<LayoutPhrase>): Candidate[] {
  const out: Candidate[] = [];
  for (const line of index.lines.flat()) {
    const amounts = line.filter((p) => !exclude.has(p)).flatMap((p) => findAmounts(p.text).map((a) => ({ a, p })));
    for (let i = 0; i + 2 < amounts.length; i++) {
      const [a0, a1, T] = amounts.slice(i, i + 3);
      const [s, t] = netAndTax(a0, a1, T.a.value) ?? [];
      if (!s || !t || t.a.value === 0) continue;
      for (const [field, { a, p }] of [
        ['subtotal', s],
        ['tax', t],
        ['total', T],
      ] as const)
        out.push({ field, value: cents(a.value), raw: a.raw, phrase: p, score: 0.5 * p.confidence, unlabelled: true });
    }
  }
  return out;
}

/**
 * A tax breakdown of one row per rate and no row of sums ("B  12  2,50  0,30  2,80" over "A  21
 * 2,98  0,62  3,60" on a till receipt; a hotel invoice's "0,00 %  249,75  0,00  249,75" over
 * "12,00 %  14.126,92  1.695,23  15.822,15"): two or more rows, one under the other, each with net,
 * tax and gross amounts that add up, their gross amounts in one column. The sums of the gross and
 * tax columns are the invoice's total and tax (the sum of the nets is printed nowhere, so it is no
 * subtotal read), weakly: they count where no labelled total is surer.
 */
function breakdownSums(index: PhraseIndex, exclude: Set<LayoutPhrase>): Candidate[] {
  type Row = { tax: number; gross: number; at: LayoutPhrase; right: number; confidence: number };
  const rowOf = (line: LayoutPhrase[]): Row | undefined => {
    const amounts = line.filter((p) => !exclude.has(p)).flatMap((p) => findAmounts(p.text).map((a) => ({ a, p })));
    // the last three amounts of the row: net, tax, gross (a rate or a code may stand before them)
    if (amounts.length < 3) return undefined;
    const [a0, a1, g] = amounts.slice(-3);
    const [n, t] = netAndTax(a0, a1, g.a.value) ?? [];
    if (!n || !t) return undefined;
    return { tax: t.a.value, gross: g.a.value, at: g.p, right: g.p.x + g.p.width, confidence: Math.min(n.p.confidence, t.p.confidence, g.p.confidence) };
  };
  const out: Candidate[] = [];
  for (const lines of index.lines) {
    let group: Row[] = [];
    const close = () => {
      // a last row that sums the others is the breakdown's own sum row, which its labels read
      const taxed = group.some((r) => r.tax > 0);
      if (group.length >= 2 && taxed) {
        const last = group[group.length - 1];
        const others = group.slice(0, -1);
        const summed = others.length >= 2 && nearCent(cents(others.reduce((a, r) => a + r.gross, 0)), last.gross);
        const rows = summed ? others : group;
        const score = 0.85 * Math.min(...rows.map((r) => r.confidence));
        const gross = cents(rows.reduce((a, r) => a + r.gross, 0));
        const tax = cents(rows.reduce((a, r) => a + r.tax, 0));
        const breakdownRows = rows.map((r) => `${r.at.pageNumber}:${r.at.lineIndex}`);
        out.push({ field: 'total', value: gross, raw: gross.toFixed(2), phrase: last.at, score, unlabelled: true, breakdownRows });
        out.push({ field: 'tax', value: tax, raw: tax.toFixed(2), phrase: last.at, score, unlabelled: true, breakdownRows });
      }
      group = [];
    };
    for (const line of lines) {
      const row = rowOf(line);
      const prev = group[group.length - 1];
      if (row && prev && row.at.lineIndex - prev.at.lineIndex <= 2 && Math.abs(row.right - prev.right) < 2 * index.textHeight) group.push(row);
      else {
        close();
        if (row) group.push(row);
      }
    }
    close();
  }
  return out;
}

const swapDayMonth = (iso: string): string | undefined => {
  const [y, m, d] = iso.split('-').map(Number);
  if (d > 12 || m === d) return undefined;
  return `${y}-${String(d).padStart(2, '0')}-${String(m).padStart(2, '0')}`;
};

/**
 * Checks the issue and due dates (issue 19): a numeric date whose day and month could be swapped
 * is only certain when another date on the document settles the order; read by the document's
 * language or currency it is plausible, by nothing at all it needs a look. A due date before the
 * issue date is impossible: when swapping an ambiguous date's day and month (against a weak basis)
 * repairs it, the swap is made; either way both dates are flagged and a warning says why.
 */
export function checkDates(
  fields: InvoiceExtraction['fields'],
  chosen: ReadonlyMap<InvoiceFieldName, Pick<Candidate, 'ambiguous'>>,
  decision: DateOrderDecision,
): string[] {
  const warnings: string[] = [];
  const issue = fields.invoice_date;
  const due = fields.due_date;
  const ambiguous = (name: 'invoice_date' | 'due_date') => Boolean(fields[name] && chosen.get(name)?.ambiguous);
  for (const name of ['invoice_date', 'due_date'] as const) {
    const f = fields[name];
    if (!f || !ambiguous(name) || decision.basis === 'dates') continue;
    if (decision.basis === 'default') {
      flag(f);
      warnings.push(
        `The ${name === 'invoice_date' ? 'invoice' : 'due'} date ${f.raw ?? f.value} could be day-first or month-first, and nothing on the document says which; it was read as ${f.value}.`,
      );
    } else f.confidence = round(Math.min(f.confidence, 0.8));
  }
  if (issue && due && typeof issue.value === 'string' && typeof due.value === 'string' && due.value < issue.value) {
    const tries: [string, string][] = [];
    if (decision.basis !== 'dates') {
      const si = ambiguous('invoice_date') ? swapDayMonth(issue.value) : undefined;
      const sd = ambiguous('due_date') ? swapDayMonth(due.value) : undefined;
      if (si && sd) tries.push([si, sd]);
      if (si) tries.push([si, due.value]);
      if (sd) tries.push([issue.value, sd]);
    }
    const fixed = tries.find(([i, d]) => d >= i);
    const before = `${issue.value} / ${due.value}`;
    if (fixed) {
      issue.value = fixed[0];
      due.value = fixed[1];
      warnings.push(
        `Read day-first and month-first the other way round (${before} → ${fixed[0]} / ${fixed[1]}), because a due date cannot be before the invoice date; please check both dates.`,
      );
    } else {
      warnings.push(`The due date ${due.value} is before the invoice date ${issue.value}; please check both dates.`);
    }
    flag(issue);
    flag(due);
  }
  return warnings;
}

/** An Indian invoice: its GST number, its kinds of GST, an amount grouped in lakhs ("4,50,000.00"). */
const INDIAN_PAGE = /(?<![\p{L}])(?:GSTIN|IGST|CGST|SGST)(?![\p{L}])|(?<![\d,.])\d{1,2},\d{2},\d{3}\.\d{2}(?!\d)/u;

/** Currencies whose sign other currencies share ($, ¥, kr). */
const SHARED_SIGN = new Set(['USD', 'JPY', 'SEK']);

/** Dollars and pesos written with "$", known by what else the page prints (see readInvoice). */
const DOLLAR_SIGN_COUNTRIES: [string, RegExp][] = [
  ['CAD', /(?<![\p{L}])(?:CAD|C\$|TPS|TVQ|QST|HST)(?![\p{L}])/u],
  ['MXN', /(?<![\p{L}])(?:M\.\s?N\.|MXN|RFC)(?![\p{L}])/u],
  ['CLP', /(?<![\p{L}])(?:CLP|S\.I\.I\.|R\.?U\.?T\.?\s*:?\s*\d{1,2}\.?\d{3}\.?\d{3}-[\dkK])(?![\p{L}])/u],
];

/**
 * The currency most amounts are written with (or a "Currency: EUR" line). On a page read by OCR
 * only amounts with cents count: a sign beside a stray digit ("£5" in a crease) is noise.
 */
function dominantCurrency(text: string, ocr: boolean): string | undefined {
  const counts = new Map<string, number>();
  for (const a of findAmounts(text)) if (a.currency && (!ocr || CENTS_RE.test(a.raw))) counts.set(a.currency, (counts.get(a.currency) ?? 0) + 1);
  const m = /\bcurrency\s*:?\s*([A-Z]{3})\b/i.exec(text);
  if (m && currencyCode(m[1])) return currencyCode(m[1]);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

const round = (n: number) => Math.round(Math.max(0, Math.min(1, n)) * 100) / 100;
/** An amount as a sentence shows it, to the cent. */
export const money = (n: number) => n.toFixed(2);
/** Two amounts equal to the cent (a cent's rounding allowed). */
export const nearCent = (a: number, b: number) => Math.abs(a - b) <= 0.011;

/**
 * Checks subtotal + tax = total (less a tax withheld, one of `withheld`) and Σ line amounts =
 * subtotal (to the cent). Agreement raises the amounts' confidence; disagreement adds a warning
 * sentence (and lines that do not add up are no longer certain).
 */
export function crossCheck(fields: InvoiceExtraction['fields'], items: readonly LineItem[], withheld: readonly number[] = []): string[] {
  const warnings: string[] = [];
  const num = (f?: ExtractedField) => (typeof f?.value === 'number' ? f.value : undefined);
  const subtotal = num(fields.subtotal);
  const tax = num(fields.tax);
  const total = num(fields.total);
  const near = nearCent;
  const boost = (...fs: (ExtractedField | undefined)[]) => fs.forEach((f) => f && (f.confidence = round(Math.max(f.confidence, 0.97))));
  if (subtotal !== undefined && total !== undefined) {
    const sum = subtotal + (tax ?? 0);
    // the sum as the page states it: less a tax withheld at source when that is what makes it add up
    const expected = tax !== undefined && !near(sum, total) ? (withheld.map((w) => sum - w).find((x) => near(x, total)) ?? sum) : sum;
    if (near(expected, total) && plausibleTax(subtotal, tax ?? 0)) boost(fields.subtotal, fields.tax, fields.total);
    else if (near(expected, total)) {
      [fields.subtotal, fields.tax].forEach(flag);
      warnings.push(`The tax ${money(tax!)} is more than 30% of the subtotal ${money(subtotal)}: the two may be read the wrong way round.`);
    } else {
      [fields.subtotal, fields.tax, fields.total].forEach(flag);
      warnings.push(`Subtotal ${money(subtotal)}${tax !== undefined ? ` + tax ${money(tax)}` : ''} = ${money(sum)}, but the total is ${money(total)}.`);
    }
  }
  const amounts = items.map((i) => i.amount).filter((a): a is number => a !== undefined);
  if (amounts.length > 0) {
    const sum = cents(amounts.reduce((a, b) => a + b, 0));
    const target = subtotal ?? (tax === undefined ? total : undefined);
    if (target !== undefined) {
      if (near(sum, target)) boost(subtotal !== undefined ? fields.subtotal : fields.total);
      else {
        warnings.push(`The line items add up to ${money(sum)}, but the ${subtotal !== undefined ? 'subtotal' : 'total'} is ${money(target)}.`);
        // lines that fail their sum are not shown as certain: one of them, or a line missed, is wrong
        for (const item of items) item.confidence = Math.min(item.confidence, UNCHECKED);
      }
    }
  }
  for (const [i, item] of items.entries()) {
    if (
      item.quantity !== undefined &&
      item.unit_price !== undefined &&
      item.amount !== undefined &&
      // a credited or returned line may print its amount negative beside a positive price
      !near(cents(Math.abs(item.quantity * item.unit_price)), Math.abs(item.amount))
    ) {
      warnings.push(
        `Line ${i + 1}: ${item.quantity} × ${money(item.unit_price)} = ${money(cents(item.quantity * item.unit_price))}, but its amount is ${money(item.amount)}.`,
      );
    }
  }
  if (total === undefined) warnings.push('No invoice total was found.');
  return warnings;
}

export type { LineItem, ParsedAmount };
