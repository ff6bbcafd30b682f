import { sql } from 'kysely';
import { ALL_FILE_KINDS, NotConnectedError, PermanentStepError, type ActionContext, type ActionDefinition, type Db, type FileRef } from '../../src/server';
import type { Endpoints } from './providers';

/** What the connector steps need from the running plugin. */
export interface ConnectorStepServices {
  connections: { accessToken(managedUserId: number, provider: string): Promise<{ token: string; accountId: string | null }> };
  endpoints: () => Endpoints;
  db: Db;
  maxDownloadBytes: number;
}

/** Per-request time limit of a provider call (the step's own time-out still applies). */
const CALL_TIMEOUT_MS = 30_000;

/** A provider refused a request: trying again cannot help (4xx other than 401/408/429). */
export class ProviderRefusedError extends PermanentStepError {
  constructor(provider: string, status: number, detail: string) {
    super(`${provider} refused the request (HTTP ${status})${detail ? `: ${detail}` : ''}.`);
    this.name = 'ProviderRefusedError';
  }
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The provider's own words from an error body (Google `error.message`, Xero `Message` / validation errors). */
function errorDetail(body: unknown): string {
  const b = record(body);
  const google = record(b.error).message;
  if (typeof google === 'string') return google;
  const elements = Array.isArray(b.Elements) ? b.Elements.flatMap((e) => (record(e).ValidationErrors as Array<{ Message?: string }> | undefined) ?? []).map((v) => v.Message).filter(Boolean) : [];
  if (elements.length) return elements.join(' ');
  for (const k of ['Message', 'Detail', 'message']) if (typeof b[k] === 'string') return b[k] as string;
  return '';
}

/**
 * One call to a provider's API with the user's access token. 4xx answers (except 401, 408 and
 * 429, which a later try may pass) fail the step at once with the provider's message; 5xx and
 * network failures throw an ordinary error, so the engine retries the step.
 */
async function call(ctx: ActionContext, provider: string, url: string, init: { method?: string; token: string; headers?: Record<string, string>; json?: unknown; raw?: true }): Promise<{ body: unknown; bytes?: Buffer; headers: Headers }> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${init.token}`, accept: init.raw ? '*/*' : 'application/json', ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
    signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(CALL_TIMEOUT_MS)]),
  });
  if (init.raw && res.ok) return { body: undefined, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  if (res.ok) return { body, headers: res.headers };
  const detail = errorDetail(body).slice(0, 300);
  if (res.status >= 400 && res.status < 500 && ![401, 408, 429].includes(res.status)) throw new ProviderRefusedError(provider, res.status, detail);
  throw new Error(`${provider} answered HTTP ${res.status}${detail ? `: ${detail}` : ''}.`);
}

/** The user's token for a provider; "not connected" fails the step at once with the widget's advice. */
async function tokenFor(services: ConnectorStepServices, ctx: ActionContext, provider: string): Promise<{ token: string; accountId: string | null }> {
  try {
    return await services.connections.accessToken(ctx.managedUserId, provider);
  } catch (error) {
    if (error instanceof NotConnectedError) throw new PermanentStepError(error.message);
    throw error;
  }
}

function google(services: ConnectorStepServices): NonNullable<Endpoints['google']> {
  const e = services.endpoints().google;
  if (!e) throw new PermanentStepError('Google is not configured on this server: set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, or SANDBOX_PROVIDERS=true.');
  return e;
}

function xero(services: ConnectorStepServices): NonNullable<Endpoints['xero']> {
  const e = services.endpoints().xero;
  if (!e) throw new PermanentStepError('Xero is not configured on this server: set XERO_CLIENT_ID and XERO_CLIENT_SECRET, or SANDBOX_PROVIDERS=true.');
  return e;
}

/** The recipe's own record: the Drive folder and Sheet chosen when it was set up. */
async function recipeTargets(db: Db, recipeId: number): Promise<{ folder_id: string | null; sheet_id: string | null }> {
  const { rows } = await sql<{ folder_id: string | null; sheet_id: string | null }>`select folder_id, sheet_id from user_recipes where id = ${recipeId}`.execute(db);
  return rows[0] ?? { folder_id: null, sheet_id: null };
}

function stringOf(...values: unknown[]): string | undefined {
  for (const v of values) if (typeof v === 'string' && v.trim()) return v.trim();
  return undefined;
}

/**
 * google_drive:download_file: copies the Drive file the run names (`file_id`, from the Drive
 * trigger or a webhook body) into the owner's file store and passes on its reference as
 * `files`, which the reading steps take.
 */
function downloadFile(services: () => ConnectorStepServices): ActionDefinition {
  return {
    provider: 'google_drive',
    action: 'download_file',
    name: 'Download the file from Google Drive',
    async run(input, ctx) {
      const s = services();
      const data = record(record(input).data);
      const fileId = stringOf(ctx.params.file_id, record(input).file_id, data.file_id, data.id, ctx.trigger.data.file_id);
      if (!fileId) throw new PermanentStepError('This step downloads a Google Drive file, but the run names none: give its "file_id".');
      if (!/^[\w-]{1,200}$/.test(fileId)) throw new PermanentStepError(`"${fileId.slice(0, 60)}" is not a Google Drive file id.`);
      const e = google(s);
      const { token } = await tokenFor(s, ctx, 'google_drive');
      const base = `${e.driveUrl}/drive/v3/files/${encodeURIComponent(fileId)}`;
      const meta = record((await call(ctx, 'Google Drive', `${base}?fields=id,name,mimeType,size`, { token })).body);
      const size = Number(meta.size ?? 0);
      if (size > s.maxDownloadBytes) throw new PermanentStepError(`"${String(meta.name)}" is ${Math.ceil(size / 1048576)} MB, more than the ${Math.floor(s.maxDownloadBytes / 1048576)} MB a workflow file may be.`);
      const { bytes } = await call(ctx, 'Google Drive', `${base}?alt=media`, { token, raw: true });
      let stored;
      try {
        stored = await ctx.files.put(ctx.userId, bytes!, { originalName: String(meta.name ?? `${fileId}`), allowed: [...ALL_FILE_KINDS], maxBytes: s.maxDownloadBytes, bucket: 'automation' });
      } catch (error) {
        const status = (error as { statusCode?: number }).statusCode;
        if (status && status >= 400 && status < 500) throw new PermanentStepError(`"${String(meta.name)}": ${(error as Error).message}`);
        throw error;
      }
      const ref: FileRef = { bucket: stored.bucket, key: stored.key, name: stored.originalName, kind: stored.kind, size: stored.size };
      return { file_id: fileId, name: ref.name, mime_type: meta.mimeType ?? null, files: [ref] };
    },
  };
}

/** A cell value as Sheets takes it. */
function cell(value: unknown): string | number | boolean {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/**
 * The rows an extraction step's output becomes: one per document, the file name first, then the
 * invoice fields (or the document's label / value pairs), the line-item count and the warnings.
 */
export function rowsOfExtraction(input: unknown): { header: string[]; rows: Array<Array<string | number | boolean>> } {
  const rec = record(input);
  const docs = Array.isArray(rec.documents) && rec.documents.length ? (rec.documents as unknown[]).map(record) : [rec];
  const first = docs[0];
  if (first.fields && !Array.isArray(first.fields) && typeof first.fields === 'object') {
    const names = Object.keys(record(first.fields));
    return {
      header: ['file', ...names, 'line_items', 'warnings'],
      rows: docs.map((d) => [cell(d.name), ...names.map((n) => cell(record(d.fields)[n])), Array.isArray(d.lineItems) ? d.lineItems.length : 0, Array.isArray(d.warnings) ? d.warnings.join(' ') : '']),
    };
  }
  if (first.values && typeof first.values === 'object') {
    return { header: ['file', 'fields'], rows: docs.map((d) => [cell(d.name), ...Object.entries(record(d.values)).map(([k, v]) => `${k}: ${cell(v)}`)]) };
  }
  const entries = Object.entries(rec).filter(([k]) => k !== 'files');
  if (!entries.length) throw new PermanentStepError('There is nothing to write to the sheet: the previous step passed on no fields.');
  return { header: entries.map(([k]) => k), rows: [entries.map(([, v]) => cell(v))] };
}

/** The spreadsheet of a run: the step's param, the recipe's chosen Sheet, or the run's `sheet_id`. */
async function spreadsheetOf(s: ConnectorStepServices, ctx: ActionContext): Promise<string> {
  const id = stringOf(ctx.params.spreadsheet_id, (await recipeTargets(s.db, ctx.recipeId)).sheet_id, ctx.trigger.data.sheet_id, ctx.trigger.data.spreadsheet_id);
  if (!id) throw new PermanentStepError('No Google Sheet is chosen for this workflow: choose one in its setup (or send "sheet_id"), then try again.');
  if (!/^[\w-]{1,200}$/.test(id)) throw new PermanentStepError(`"${id.slice(0, 60)}" is not a Google Sheet id.`);
  return id;
}

/**
 * Appends rows with values.append, once per job and step: the step's idempotency key is checked
 * in the ledger before and recorded after, so a retried or resumed step never writes twice. The
 * column headers go first when the sheet is empty.
 */
async function appendOnce(services: () => ConnectorStepServices, ctx: ActionContext, table: { header?: string[]; rows: Array<Array<string | number | boolean>> }) {
  const s = services();
  const key = `google_sheets:${ctx.idempotencyKey}`;
  const spreadsheetId = await spreadsheetOf(s, ctx);
  if (await ctx.ledger.has(key)) return { appended: false, already_appended: true, spreadsheet_id: spreadsheetId, rows: table.rows.length };
  if (!table.rows.length) return { appended: false, spreadsheet_id: spreadsheetId, rows: 0 };
  const e = google(s);
  const { token } = await tokenFor(s, ctx, 'google_sheets');
  const base = `${e.sheetsUrl}/v4/spreadsheets/${encodeURIComponent(spreadsheetId)}/values`;
  let values = table.rows;
  if (table.header) {
    const existing = record((await call(ctx, 'Google Sheets', `${base}/${encodeURIComponent('A1:A2')}`, { token })).body);
    if (!Array.isArray(existing.values) || existing.values.length === 0) values = [table.header, ...values];
  }
  const res = record((await call(ctx, 'Google Sheets', `${base}/${encodeURIComponent('A1')}:append?valueInputOption=USER_ENTERED&insertDataOption=INSERT_ROWS`, { method: 'POST', token, json: { majorDimension: 'ROWS', values } })).body);
  await ctx.ledger.record(key, 'google_sheets.append');
  const updates = record(res.updates);
  return { appended: true, spreadsheet_id: spreadsheetId, rows: table.rows.length, updated_range: updates.updatedRange ?? null };
}

/** google_sheets:append_row: the extracted fields as one row per document (see rowsOfExtraction). */
function appendRow(services: () => ConnectorStepServices): ActionDefinition {
  return {
    provider: 'google_sheets',
    action: 'append_row',
    name: 'Add a row to Google Sheets',
    async run(input, ctx) {
      return appendOnce(services, ctx, rowsOfExtraction(input));
    },
  };
}

/** google_sheets:append_rows: the previous step's `rows` (a list of rows, e.g. one per sentence), with its `header`. */
function appendRows(services: () => ConnectorStepServices): ActionDefinition {
  return {
    provider: 'google_sheets',
    action: 'append_rows',
    name: 'Add rows to Google Sheets',
    async run(input, ctx) {
      const rec = record(input);
      if (!Array.isArray(rec.rows) || !rec.rows.every(Array.isArray)) throw new PermanentStepError('There are no rows to write: the previous step passed on no "rows" list.');
      const header = Array.isArray(rec.header) ? rec.header.map(String) : undefined;
      return appendOnce(services, ctx, { header, rows: (rec.rows as unknown[][]).map((r) => r.map(cell)) });
    },
  };
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The Xero bill (Invoices, Type ACCPAY, Status DRAFT) of an extracted invoice. */
export function draftBillOf(input: unknown, contactId: string, accountCode?: string): Record<string, unknown> {
  const rec = record(input);
  const fields = record(rec.fields);
  const items = Array.isArray(rec.lineItems) ? (rec.lineItems as Array<Record<string, unknown>>) : [];
  const lines = items
    .map((l) => {
      const qty = num(l.quantity) ?? 1;
      const unit = num(l.unit_price) ?? (num(l.amount) !== undefined ? num(l.amount)! / qty : undefined);
      return unit === undefined ? undefined : { Description: String(l.description ?? '').slice(0, 4000) || 'Item', Quantity: qty, UnitAmount: Math.round(unit * 10000) / 10000, ...(accountCode ? { AccountCode: accountCode } : {}) };
    })
    .filter((l): l is NonNullable<typeof l> => !!l);
  const subtotal = num(fields.subtotal);
  const total = num(fields.total);
  const tax = num(fields.tax);
  if (!lines.length) {
    const amount = subtotal ?? total;
    if (amount === undefined) throw new PermanentStepError('The invoice has no line items and no total, so no bill can be drafted.');
    lines.push({ Description: `Invoice ${stringOf(fields.invoice_number) ?? ''}`.trim(), Quantity: 1, UnitAmount: amount, ...(accountCode ? { AccountCode: accountCode } : {}) });
  }
  // amounts exclude tax when a subtotal and tax were read; otherwise the lines are taken as they are, tax included
  const exclusive = subtotal !== undefined && tax !== undefined;
  const currency = stringOf(fields.currency);
  return {
    Type: 'ACCPAY',
    Status: 'DRAFT',
    Contact: { ContactID: contactId },
    ...(stringOf(fields.invoice_number) ? { InvoiceNumber: stringOf(fields.invoice_number) } : {}),
    ...(stringOf(fields.po_number) ? { Reference: stringOf(fields.po_number) } : {}),
    ...(stringOf(fields.invoice_date) ? { Date: stringOf(fields.invoice_date) } : {}),
    ...(stringOf(fields.due_date) ? { DueDate: stringOf(fields.due_date) } : {}),
    ...(currency && /^[A-Z]{3}$/.test(currency) ? { CurrencyCode: currency } : {}),
    LineAmountTypes: exclusive ? 'Exclusive' : 'Inclusive',
    LineItems: lines,
  };
}

/**
 * xero:create_draft_bill: the extracted invoice as a draft bill (ACCPAY) in the user's Xero
 * organisation, for review. The supplier contact is found by name (created when missing), and
 * the bill is sent with Idempotency-Key = the step's key, so a retry returns the same bill.
 */
function createDraftBill(services: () => ConnectorStepServices): ActionDefinition {
  return {
    provider: 'xero',
    action: 'create_draft_bill',
    name: 'Create a draft bill in Xero',
    async run(input, ctx) {
      const s = services();
      const vendor = stringOf(record(record(input).fields).vendor_name);
      if (!vendor) throw new PermanentStepError('The supplier\'s name was not found on the invoice, so no Xero bill can be drafted.');
      const e = xero(s);
      const { token, accountId } = await tokenFor(s, ctx, 'xero');
      if (!accountId) throw new PermanentStepError('The Xero connection has no organisation: connect Xero again and choose one.');
      const headers = { 'xero-tenant-id': accountId };
      const api = `${e.apiUrl}/api.xro/2.0`;
      const where = encodeURIComponent(`Name=="${vendor.replace(/["\\]/g, '')}"`);
      const found = record((await call(ctx, 'Xero', `${api}/Contacts?where=${where}`, { token, headers })).body);
      let contact = (Array.isArray(found.Contacts) ? (found.Contacts as Array<{ ContactID: string }>) : [])[0];
      if (!contact) {
        const made = record((await call(ctx, 'Xero', `${api}/Contacts`, { method: 'POST', token, headers: { ...headers, 'idempotency-key': `${ctx.idempotencyKey}:contact` }, json: { Contacts: [{ Name: vendor }] } })).body);
        contact = (made.Contacts as Array<{ ContactID: string }>)[0];
      }
      const bill = draftBillOf(input, contact.ContactID, stringOf(ctx.params.account_code));
      const res = record((await call(ctx, 'Xero', `${api}/Invoices`, { method: 'POST', token, headers: { ...headers, 'idempotency-key': ctx.idempotencyKey }, json: { Invoices: [bill] } })).body);
      const created = record((res.Invoices as unknown[] | undefined)?.[0]);
      return { invoice_id: created.InvoiceID ?? null, status: created.Status ?? null, contact: vendor, invoice_number: created.InvoiceNumber ?? null, total: created.Total ?? null };
    },
  };
}

/** The connector steps the catalogue's Google Drive, Google Sheets and Xero recipes name. */
export function connectorActions(services: () => ConnectorStepServices): ActionDefinition[] {
  return [downloadFile(services), appendRow(services), appendRows(services), createDraftBill(services)];
}
