import type { FileRef, TriggerPayload } from './kinds';
import { capitaliseInitialisms } from '../../core/labels';

const MAX_SUMMARY = 240;
const MAX_VALUE = 60;

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A stored file's reference (bucket, key, name, kind): a document read from one (which has no kind) is not one. */
function isFileRef(v: unknown): v is FileRef {
  const f = v as FileRef;
  return !!f && typeof f === 'object' && typeof f.key === 'string' && typeof f.bucket === 'string' && typeof f.name === 'string' && typeof f.kind === 'string';
}

function isTriggerPayload(v: unknown): v is TriggerPayload {
  const p = v as TriggerPayload;
  return !!p && typeof p === 'object' && typeof p.source === 'string' && !!p.data && typeof p.data === 'object' && Array.isArray(p.files);
}

/** "File invoice.pdf (2,048 bytes)", the size only when known. */
function fileLine(f: FileRef): string {
  return typeof f.size === 'number' && Number.isFinite(f.size) ? `File ${f.name} (${f.size.toLocaleString('en-GB')} bytes)` : `File ${f.name}`;
}

function describeValue(v: unknown): string {
  if (v === null || v === undefined) return 'empty';
  if (typeof v === 'string') {
    // long text (a document's content, a base64 file) is counted, never shown
    return v.length > MAX_VALUE ? `text of ${v.length} characters` : JSON.stringify(v);
  }
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (isFileRef(v)) return `file ${v.name}`;
  if (Array.isArray(v)) return `${v.length} ${v.length === 1 ? 'item' : 'items'}`;
  const n = Object.keys(v as object).length;
  return `${n} ${n === 1 ? 'field' : 'fields'}`;
}

/**
 * A short, readable line about a step's input or output: its fields with small values shown
 * and big ones counted ("3 fields: total 120.5, vendor "Acme", lines 4 items"). Never contains
 * a whole file or document: at most 240 characters.
 */
export function summarise(value: unknown): string {
  if (value === undefined || value === null) return 'Nothing';
  if (typeof value !== 'object') return clip(describeValue(value), MAX_SUMMARY);
  if (Array.isArray(value)) return clip(`${value.length} ${value.length === 1 ? 'item' : 'items'}`, MAX_SUMMARY);
  if (isFileRef(value)) return clip(fileLine(value), MAX_SUMMARY);
  if (isTriggerPayload(value)) {
    const files = value.files.length
      ? `; ${value.files.length} ${value.files.length === 1 ? 'file' : 'files'} (${value.files
          .slice(0, 3)
          .map((f) => f.name)
          .join(', ')})`
      : '';
    return clip(`${summarise(value.data)}${files}`, MAX_SUMMARY);
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (!entries.length) return 'No fields';
  const shown = entries.slice(0, 6).map(([k, v]) => `${k} ${describeValue(v)}`);
  const more = entries.length > 6 ? `, and ${entries.length - 6} more` : '';
  return clip(`${entries.length} ${entries.length === 1 ? 'field' : 'fields'}: ${shown.join(', ')}${more}`, MAX_SUMMARY);
}

const SOURCE_LABEL: Record<TriggerPayload['source'], string> = {
  webhook: 'Webhook call',
  manual_upload: 'Upload',
  manual_email: 'E-mail',
  setup: 'Setup',
  rerun: 'Run again',
  poll: 'New item',
  push: 'Started by a plugin',
};

/** "Webhook call with 3 fields and 1 file (invoice.pdf)" */
export function summariseTrigger(payload: TriggerPayload): string {
  const fields = Object.keys(payload.data).length;
  const parts: string[] = [];
  if (fields) parts.push(`${fields} ${fields === 1 ? 'field' : 'fields'}`);
  if (payload.files.length) {
    const names = payload.files
      .slice(0, 3)
      .map((f) => f.name)
      .join(', ');
    parts.push(`${payload.files.length} ${payload.files.length === 1 ? 'file' : 'files'} (${names}${payload.files.length > 3 ? ', …' : ''})`);
  }
  const subject = typeof payload.data.subject === 'string' && payload.source === 'manual_email' ? ` "${clip(payload.data.subject, 60)}"` : '';
  return clip(`${SOURCE_LABEL[payload.source]}${subject}${parts.length ? ` with ${parts.join(' and ')}` : ''}`, MAX_SUMMARY);
}

/* ---------- what a step produced ---------- */

/** One line of a step's output summary: a field and its value; `missing` / `check` flag one to look at. */
export interface OutputItem {
  label: string;
  value: string;
  state?: 'missing' | 'check';
}

/** One thing a step produced (a document read, a row written, a bill, an e-mail): its fields and its warnings. */
export interface OutputGroup {
  title: string;
  items: OutputItem[];
  notes?: string[];
}

/**
 * Summarises outputs of one shape. The summarisers are tried in order and the first that
 * recognises an output describes it, whatever step produced it: a new step whose output has a
 * known shape (extracted fields, rows written, bills, an e-mail) is summarised with no change here.
 */
export interface OutputShape {
  id: string;
  summarise(output: Record<string, unknown>): OutputGroup[] | undefined;
}

/** A found field read with less confidence than this is flagged "needs a look" (as the invoice page does). */
export const NEEDS_A_LOOK_BELOW = 0.6;
const MAX_GROUPS = 10;
const MAX_ITEMS = 40;

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const records = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);
const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;

/** 'invoice_number' → 'Invoice number', 'vendor_vat_id' → 'Vendor VAT ID'. */
export function fieldLabel(name: string): string {
  const words = name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  const labelled = capitaliseInitialisms(words);
  return labelled ? labelled[0].toUpperCase() + labelled.slice(1) : name;
}

/** A value as a person reads it: text and numbers as they are, lists counted, objects by their fields. */
function shown(v: unknown): string {
  if (v === null || v === undefined || v === '') return '';
  if (typeof v === 'string') return clip(v, 120);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `${v.length} ${v.length === 1 ? 'item' : 'items'}`;
  return clip(JSON.stringify(v), 120);
}

const notesOf = (v: unknown): string[] => (Array.isArray(v) ? v.filter((w): w is string => typeof w === 'string' && !!w.trim()) : []);

/** Extracted fields by name with their confidence (the invoice reader), or values by label (the document reader). */
export const extractedFieldsShape: OutputShape = {
  id: 'extracted-fields',
  summarise(output) {
    const docs = records(output.documents).length ? records(output.documents) : [output];
    const groups = docs.map((d) => {
      const fields = isRecord(d.fields) ? d.fields : isRecord(d.values) ? d.values : undefined;
      if (!fields) return undefined;
      const confidence = isRecord(d.confidence) ? d.confidence : {};
      const items: OutputItem[] = Object.entries(fields).map(([name, v]) => {
        const value = shown(v);
        if (!value) return { label: fieldLabel(name), value: 'not found', state: 'missing' as const };
        const c = confidence[name];
        return typeof c === 'number' && c < NEEDS_A_LOOK_BELOW
          ? { label: fieldLabel(name), value, state: 'check' as const }
          : { label: fieldLabel(name), value };
      });
      const lines = Array.isArray(d.lineItems) ? d.lineItems.length : Array.isArray(d.line_items) ? d.line_items.length : undefined;
      if (lines !== undefined) items.push({ label: 'Line items', value: String(lines) });
      const name = text(d.name);
      return { title: name ? `Read from ${name}` : 'Fields read', items, notes: notesOf(d.warnings) };
    });
    return groups.every((g) => g) && groups.length ? (groups as OutputGroup[]) : undefined;
  },
};

/** Rows written to a Google Sheet, each as { header: value }, with the range they went to. */
export const sheetRowsShape: OutputShape = {
  id: 'sheet-rows',
  summarise(output) {
    const rows = records(output.rows).length ? records(output.rows) : isRecord(output.row) ? [output.row] : [];
    if (!rows.length) {
      if (output.already_appended === true) return [{ title: 'Rows already written by an earlier try (not written again)', items: [] }];
      return undefined;
    }
    const range = text(output.range) ?? text(output.updated_range) ?? text(output.updatedRange);
    const warnings = notesOf(output.warnings);
    return rows.map((row, i) => ({
      title: `Row written to the Sheet${rows.length > 1 ? ` (${i + 1} of ${rows.length})` : ''}${range && rows.length === 1 ? `, ${range}` : ''}`,
      items: Object.entries(row).map(([header, v]) =>
        shown(v) ? { label: header, value: shown(v) } : { label: header, value: 'empty', state: 'missing' as const },
      ),
      // the step's warnings (a column added, a value left out) once, with the first row
      notes: i === 0 ? [...(range && rows.length > 1 ? [`Range ${range}`] : []), ...warnings] : undefined,
    }));
  },
};

const money = (amount: unknown, currency: string | undefined): string | undefined => {
  const n = typeof amount === 'number' ? amount : typeof amount === 'string' && amount.trim() !== '' ? Number(amount) : NaN;
  if (!Number.isFinite(n)) return undefined;
  return `${currency ? `${currency} ` : ''}${n.toFixed(2)}`;
};

const isBill = (b: Record<string, unknown>) => 'InvoiceID' in b || 'InvoiceNumber' in b;

/** Xero bills (InvoiceID, InvoiceNumber, SubTotal, TotalTax, Total, CurrencyCode, warnings), as a list under any name or one bill. */
export const xeroBillsShape: OutputShape = {
  id: 'xero-bills',
  summarise(output) {
    let bills = Object.values(output).flatMap((v) => records(v).filter(isBill));
    if (!bills.length && isBill(output)) bills = [output];
    if (!bills.length && 'invoice_id' in output) {
      bills = [{ InvoiceID: output.invoice_id, InvoiceNumber: output.invoice_number, Total: output.total, Status: output.status, Contact: output.contact }];
    }
    if (!bills.length) return undefined;
    return bills.map((b) => {
      const currency = text(b.CurrencyCode);
      const number = text(b.InvoiceNumber);
      const items: OutputItem[] = [{ label: 'Number', value: number ?? 'none', ...(number ? {} : { state: 'missing' as const }) }];
      const contact = text(isRecord(b.Contact) ? b.Contact.Name : b.Contact);
      if (contact) items.push({ label: 'Supplier', value: contact });
      const file = text(b.file);
      if (file) items.push({ label: 'From', value: file });
      for (const [label, key] of [
        ['Subtotal', 'SubTotal'],
        ['Tax', 'TotalTax'],
        ['Total', 'Total'],
      ] as const) {
        if (!(key in b)) continue;
        const m = money(b[key], currency);
        items.push(m ? { label, value: m } : { label, value: 'not given', state: 'missing' });
      }
      if (text(b.Status)) items.push({ label: 'Status', value: text(b.Status)! });
      const id = text(b.InvoiceID);
      if (id) items.push({ label: 'Xero id', value: id });
      return { title: `Xero bill ${number ?? ''}`.trim(), items, notes: notesOf(b.warnings) };
    });
  },
};

/** An e-mail sent (to, subject), or one an earlier try sent. */
export const emailShape: OutputShape = {
  id: 'email',
  summarise(output) {
    const to = text(output.to);
    if (!to || typeof output.subject !== 'string' || !('sent' in output)) return undefined;
    const title =
      output.sent === true ? 'E-mail sent' : output.already_sent === true ? 'E-mail already sent by an earlier try (not sent again)' : 'E-mail not sent';
    return [
      {
        title,
        items: [
          { label: 'To', value: to },
          { label: 'Subject', value: clip(output.subject, 120) },
        ],
      },
    ];
  },
};

/** A run's trigger: the fields it was given and its files. */
export const triggerShape: OutputShape = {
  id: 'trigger',
  summarise(output) {
    if (!isTriggerPayload(output)) return undefined;
    const items: OutputItem[] = Object.entries(output.data).map(([k, v]) => ({ label: k, value: shown(v) || 'empty' }));
    for (const f of output.files) items.push({ label: 'File', value: fileLine(f).replace(/^File /, '') });
    return [{ title: SOURCE_LABEL[output.source] ?? 'Trigger', items }];
  },
};

/** Files a step passed on (a download): their names and sizes, and the step's other small fields. */
export const filesShape: OutputShape = {
  id: 'files',
  summarise(output) {
    const files = Array.isArray(output.files) ? output.files.filter(isFileRef) : isFileRef(output) ? [output] : [];
    if (!files.length) return undefined;
    const items: OutputItem[] = files.map((f) => ({ label: 'File', value: fileLine(f).replace(/^File /, '') }));
    for (const [k, v] of Object.entries(output)) {
      if (k === 'files' || isFileRef(output) || typeof v === 'object') continue;
      items.push({ label: k, value: shown(v) || 'empty' });
    }
    return [{ title: files.length === 1 ? 'File passed on' : `${files.length} files passed on`, items }];
  },
};

/**
 * A step whose whole result is kept as a file (`result_file`, e.g. a reconciliation of 100,000
 * rows): the file, and the step's counts and short fields; the job view offers the download.
 */
export const resultFileShape: OutputShape = {
  id: 'result-file',
  summarise(output) {
    if (!isFileRef(output.result_file)) return undefined;
    const items: OutputItem[] = [{ label: 'Result', value: fileLine(output.result_file).replace(/^File /, '') }];
    for (const [k, v] of Object.entries(output)) {
      if (k === 'result_file' || k === 'text' || (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')) continue;
      items.push({ label: fieldLabel(k), value: shown(v) || 'empty' });
    }
    return [{ title: 'Result kept as a file', items }];
  },
};

/** Any other object: its fields and values. */
const fieldsShape: OutputShape = {
  id: 'fields',
  summarise(output) {
    const entries = Object.entries(output);
    return [{ title: entries.length ? 'Output' : 'No fields', items: entries.map(([k, v]) => ({ label: k, value: shown(v) || 'empty' })) }];
  },
};

/** The known output shapes, most specific first; the last one takes any object. */
export const OUTPUT_SHAPES: readonly OutputShape[] = [
  triggerShape,
  extractedFieldsShape,
  sheetRowsShape,
  xeroBillsShape,
  emailShape,
  resultFileShape,
  filesShape,
  fieldsShape,
];

/** What a step produced, as groups of labelled values (bounded: at most 10 groups of 40 values). */
export function describeOutput(output: unknown): OutputGroup[] {
  if (output === null || output === undefined) return [];
  if (!isRecord(output)) return [{ title: 'Output', items: [{ label: 'Value', value: shown(output) || 'empty' }] }];
  for (const shape of OUTPUT_SHAPES) {
    const groups = shape.summarise(output);
    if (!groups) continue;
    return groups.slice(0, MAX_GROUPS).map((g) => ({
      title: g.title,
      items: g.items.slice(0, MAX_ITEMS),
      ...(g.notes?.length ? { notes: g.notes.slice(0, MAX_ITEMS).map((n) => clip(n, 300)) } : {}),
    }));
  }
  return [];
}

/**
 * The one line the job lists show for a step's output (at most 240 characters), from the same
 * description as the job view: "Read from invoice.pdf: Invoice number INV-1, Total 120; missing: Due date".
 */
export function summariseOutput(output: unknown): string {
  return summaryLine(describeOutput(output));
}

/** The one line of a described output (see summariseOutput). */
export function summaryLine(groups: OutputGroup[]): string {
  if (!groups.length) return 'Nothing';
  const line = groups
    .map((g) => {
      const found = g.items.filter((i) => i.state !== 'missing').map((i) => `${i.label} ${i.value}${i.state === 'check' ? ' (needs a look)' : ''}`);
      const missing = g.items.filter((i) => i.state === 'missing').map((i) => i.label);
      return `${g.title}${found.length ? `: ${found.join(', ')}` : ''}${missing.length ? `; missing: ${missing.join(', ')}` : ''}`;
    })
    .join(' | ');
  return clip(line, MAX_SUMMARY);
}
