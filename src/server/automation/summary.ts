import type { FileRef, TriggerPayload } from './kinds';

const MAX_SUMMARY = 240;
const MAX_VALUE = 60;

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function isFileRef(v: unknown): v is FileRef {
  return !!v && typeof v === 'object' && typeof (v as FileRef).key === 'string' && typeof (v as FileRef).bucket === 'string' && typeof (v as FileRef).name === 'string';
}

function isTriggerPayload(v: unknown): v is TriggerPayload {
  const p = v as TriggerPayload;
  return !!p && typeof p === 'object' && typeof p.source === 'string' && !!p.data && typeof p.data === 'object' && Array.isArray(p.files);
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
  if (isFileRef(value)) return clip(`File ${value.name} (${value.size} bytes)`, MAX_SUMMARY);
  if (isTriggerPayload(value)) {
    const files = value.files.length ? `; ${value.files.length} ${value.files.length === 1 ? 'file' : 'files'} (${value.files.slice(0, 3).map((f) => f.name).join(', ')})` : '';
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
};

/** "Webhook call with 3 fields and 1 file (invoice.pdf)" */
export function summariseTrigger(payload: TriggerPayload): string {
  const fields = Object.keys(payload.data).length;
  const parts: string[] = [];
  if (fields) parts.push(`${fields} ${fields === 1 ? 'field' : 'fields'}`);
  if (payload.files.length) {
    const names = payload.files.slice(0, 3).map((f) => f.name).join(', ');
    parts.push(`${payload.files.length} ${payload.files.length === 1 ? 'file' : 'files'} (${names}${payload.files.length > 3 ? ', …' : ''})`);
  }
  const subject = typeof payload.data.subject === 'string' && payload.source === 'manual_email' ? ` "${clip(payload.data.subject, 60)}"` : '';
  return clip(`${SOURCE_LABEL[payload.source]}${subject}${parts.length ? ` with ${parts.join(' and ')}` : ''}`, MAX_SUMMARY);
}
