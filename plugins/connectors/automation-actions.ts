import {
  ALL_FILE_KINDS,
  PermanentStepError,
  defineAction,
  type ActionDefinition,
  type FileRef,
  type RecipeTargetService,
  type StepConnection,
  type StepContext,
} from '../../src/server';
import type { Endpoints } from './providers';
import { cell, columnName, documentsOf, planHeader, record, rowUnder, tableOfExtraction, type Cell, type SheetTable } from './sheet-mapping';
import { billOfInvoice, type XeroTaxRate } from './xero-bill';

/** What the connector steps need from the running plugin. */
export interface ConnectorStepServices {
  endpoints: () => Endpoints;
  /** the recipes' stored folder and Sheet (the automation module's user recipes) */
  recipes: RecipeTargetService;
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

/** The provider's own words from an error body (Google `error.message`, Xero `Message` / validation errors). */
function errorDetail(body: unknown): string {
  const b = record(body);
  const google = record(b.error).message;
  if (typeof google === 'string') return google;
  const elements = Array.isArray(b.Elements)
    ? b.Elements.flatMap((e) => (record(e).ValidationErrors as Array<{ Message?: string }> | undefined) ?? [])
        .map((v) => v.Message)
        .filter(Boolean)
    : [];
  if (elements.length) return elements.join(' ');
  for (const k of ['Message', 'Detail', 'message']) if (typeof b[k] === 'string') return b[k] as string;
  return '';
}

/**
 * One call to a provider's API with the user's access token. 4xx answers (except 401, 408 and
 * 429, which a later try may pass) fail the step at once with the provider's message; 5xx and
 * network failures throw an ordinary error, so the engine retries the step.
 */
async function call(
  ctx: StepContext,
  provider: string,
  url: string,
  init: { method?: string; token: string; headers?: Record<string, string>; json?: unknown; raw?: true },
): Promise<{ body: unknown; bytes?: Buffer; headers: Headers }> {
  const send = (token: string) =>
    fetch(url, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        accept: init.raw ? '*/*' : 'application/json',
        ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
      body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
      signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(CALL_TIMEOUT_MS)]),
    });
  const connection = ctx.connection;
  let res = await send(connection?.token ?? init.token);
  // 401: the token was refused before it expired (the grant revoked at the provider): renewed once, or the connection is marked lost
  if (res.status === 401 && connection) res = await send(await renew(connection, provider));
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

/**
 * A refused token renewed (the engine's StepConnection.rejected, ConnectionService.rejected): a
 * dead grant (invalid_grant) marks the connection lost, so the screens show it needing
 * reconnect, and fails the step saying so.
 */
async function renew(connection: StepConnection, provider: string): Promise<string> {
  // a grant found dead once in this step stays dead: later calls fail the same way (a caught refusal is not asked again)
  const dead = refused.get(connection);
  if (dead) throw dead;
  try {
    return await connection.rejected();
  } catch (error) {
    if (!(error instanceof PermanentStepError)) throw error;
    const lost = new PermanentStepError(
      `${provider} refused the saved sign-in and it could not be renewed, so the connection now needs reconnecting: ${error.message}`,
    );
    refused.set(connection, lost);
    throw lost;
  }
}
const refused = new WeakMap<StepConnection, PermanentStepError>();

/** The step's connection, resolved by the engine (its `auth`): a step without one cannot call its provider. */
function connectionOf(ctx: StepContext): StepConnection {
  if (!ctx.connection) throw new PermanentStepError('This step calls its provider, but it declares no `auth`.');
  return ctx.connection;
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
  return defineAction({
    provider: 'google_drive',
    action: 'download_file',
    title: 'Download the file from Google Drive',
    auth: 'google_drive',
    async run(input, ctx) {
      const s = services();
      const data = record(record(input).data);
      const fileId = stringOf(ctx.params.file_id, record(input).file_id, data.file_id, data.id, ctx.trigger.data.file_id);
      if (!fileId)
        throw new PermanentStepError(
          "This run names no Google Drive file to read. Start it from the Drive folder trigger, or send the file's id in the webhook call.",
        );
      if (!/^[\w-]{1,200}$/.test(fileId)) throw new PermanentStepError(`"${fileId.slice(0, 60)}" is not a Google Drive file id.`);
      const e = google(s);
      const { token } = connectionOf(ctx);
      const base = `${e.driveUrl}/drive/v3/files/${encodeURIComponent(fileId)}`;
      const meta = record((await call(ctx, 'Google Drive', `${base}?fields=id,name,mimeType,size`, { token })).body);
      const size = Number(meta.size ?? 0);
      if (size > s.maxDownloadBytes)
        throw new PermanentStepError(
          `"${String(meta.name)}" is ${Math.ceil(size / 1048576)} MB, more than the ${Math.floor(s.maxDownloadBytes / 1048576)} MB a workflow file may be.`,
        );
      const { bytes } = await call(ctx, 'Google Drive', `${base}?alt=media`, { token, raw: true });
      let stored;
      try {
        stored = await ctx.files.put(ctx.userId, bytes!, {
          originalName: String(meta.name ?? `${fileId}`),
          allowed: [...ALL_FILE_KINDS],
          maxBytes: s.maxDownloadBytes,
          bucket: 'automation',
        });
      } catch (error) {
        const status = (error as { statusCode?: number }).statusCode;
        if (status && status >= 400 && status < 500) throw new PermanentStepError(`"${String(meta.name)}": ${(error as Error).message}`);
        throw error;
      }
      const ref: FileRef = { bucket: stored.bucket, key: stored.key, name: stored.originalName, kind: stored.kind, size: stored.size };
      return { file_id: fileId, name: ref.name, mime_type: meta.mimeType ?? null, files: [ref] };
    },
  });
}

/** The spreadsheet of a run: the step's param, the recipe's chosen Sheet, or the run's `sheet_id`. */
async function spreadsheetOf(s: ConnectorStepServices, ctx: StepContext): Promise<string> {
  const id = stringOf(ctx.params.spreadsheet_id, (await s.recipes.targets(ctx.recipeId))?.sheetId, ctx.trigger.data.sheet_id, ctx.trigger.data.spreadsheet_id);
  if (!id)
    throw new PermanentStepError(
      "No Google Sheet is chosen for this workflow. Choose one in its setup, or send the Sheet's id in the webhook call, then try again.",
    );
  if (!/^[\w-]{1,200}$/.test(id)) throw new PermanentStepError(`"${id.slice(0, 60)}" is not a Google Sheet id.`);
  return id;
}

/** What a Sheets step writes: rows by column name (a table) or, with no header at all, rows as given. */
type SheetWrite = { table: SheetTable } | { positional: Cell[][] };

/**
 * Appends rows with values.append, once per job and step: the step's idempotency key is checked
 * in the ledger before and recorded after, so a retried or resumed step never writes twice.
 * A table is written by column name: row 1 of the sheet is read (values.get 1:1); an empty sheet
 * gets the table's declared columns as its header, a sheet with a header keeps it as the user left
 * it and gets the missing columns added at its end (values.update), and each value goes under the
 * column of its name. Every value is written as RAW input, so text that looks like a formula
 * ("=IMAGE(...)" in a file name or on an invoice) stays text. Returns the rows written as
 * {column: value} and the range they landed in.
 */
async function appendOnce(services: () => ConnectorStepServices, ctx: StepContext, what: SheetWrite) {
  const s = services();
  const key = `google_sheets:${ctx.idempotencyKey}`;
  const spreadsheetId = await spreadsheetOf(s, ctx);
  const warnings = 'table' in what ? what.table.warnings : [];
  if (await ctx.ledger.has(key)) return { appended: false, already_appended: true, spreadsheet_id: spreadsheetId, warnings };
  const count = 'table' in what ? what.table.records.length : what.positional.length;
  if (!count) return { appended: false, spreadsheet_id: spreadsheetId, rows: [], warnings };
  const e = google(s);
  const { token } = connectionOf(ctx);
  const base = `${e.sheetsUrl}/v4/spreadsheets/${encodeURIComponent(spreadsheetId)}/values`;
  let header: string[] | undefined;
  let values: Cell[][];
  if ('table' in what) {
    const existing = record((await call(ctx, 'Google Sheets', `${base}/${encodeURIComponent('1:1')}?valueRenderOption=FORMATTED_VALUE`, { token })).body);
    const first = Array.isArray(existing.values) && Array.isArray(existing.values[0]) ? (existing.values[0] as unknown[]).map((v) => String(v ?? '')) : [];
    const plan = planHeader(first, what.table.columns);
    header = plan.header;
    if (plan.added.length) {
      const at = `${columnName(plan.header.length - plan.added.length + 1)}1`;
      await call(ctx, 'Google Sheets', `${base}/${encodeURIComponent(at)}?valueInputOption=RAW`, {
        method: 'PUT',
        token,
        json: { majorDimension: 'ROWS', values: [plan.added] },
      });
    }
    values = what.table.records.map((r) => rowUnder(plan.header, r));
  } else {
    values = what.positional;
  }
  const res = record(
    (
      await call(ctx, 'Google Sheets', `${base}/${encodeURIComponent('A1')}:append?valueInputOption=RAW&insertDataOption=INSERT_ROWS`, {
        method: 'POST',
        token,
        json: { majorDimension: 'ROWS', values },
      })
    ).body,
  );
  await ctx.ledger.record(key, 'google_sheets.append');
  const range = record(res.updates).updatedRange ?? null;
  const rows = header ? values.map((v) => Object.fromEntries(header!.map((h, i) => [h, v[i]] as const).filter(([h]) => h.trim()))) : values;
  return { appended: true, spreadsheet_id: spreadsheetId, range, rows, warnings };
}

/** google_sheets:append_row: the extracted fields as one row per document, by column name (see tableOfExtraction). */
function appendRow(services: () => ConnectorStepServices): ActionDefinition {
  return defineAction({
    provider: 'google_sheets',
    action: 'append_row',
    title: 'Add a row to Google Sheets',
    auth: 'google_sheets',
    async run(input, ctx) {
      const table = tableOfExtraction(input);
      if (!table.records.length) throw new PermanentStepError('There is nothing to write to the sheet: the previous step passed on no fields.');
      return appendOnce(services, ctx, { table });
    },
  });
}

/** google_sheets:append_rows: the previous step's `rows` (a list of rows, e.g. one per sentence), under its `header` by name when it has one. */
function appendRows(services: () => ConnectorStepServices): ActionDefinition {
  return defineAction({
    provider: 'google_sheets',
    action: 'append_rows',
    title: 'Add rows to Google Sheets',
    auth: 'google_sheets',
    async run(input, ctx) {
      const rec = record(input);
      if (!Array.isArray(rec.rows) || !rec.rows.every(Array.isArray))
        throw new PermanentStepError('There are no rows to write: the previous step passed on no "rows" list.');
      const rows = (rec.rows as unknown[][]).map((r) => r.map(cell));
      if (!Array.isArray(rec.header)) return appendOnce(services, ctx, { positional: rows });
      const columns = rec.header.map(String);
      return appendOnce(services, ctx, {
        table: { columns, records: rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i] ?? '']))), warnings: [] },
      });
    },
  });
}

/** The organisation's tax rates (GET TaxRates), or why they could not be read. */
async function taxRatesOf(
  ctx: StepContext,
  api: string,
  token: string,
  headers: Record<string, string>,
): Promise<{ taxRates?: XeroTaxRate[]; taxRatesNote?: string }> {
  try {
    const body = record((await call(ctx, 'Xero', `${api}/TaxRates`, { token, headers })).body);
    return { taxRates: Array.isArray(body.TaxRates) ? (body.TaxRates as XeroTaxRate[]) : [] };
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return { taxRatesNote: "Xero's tax rates could not be read (connect Xero again to allow it)" };
  }
}

/** The supplier's contact, found by name or created (once: the creation carries an Idempotency-Key). */
async function contactOf(
  ctx: StepContext,
  api: string,
  token: string,
  headers: Record<string, string>,
  vendor: string,
  idempotencyKey: string,
): Promise<string> {
  const where = encodeURIComponent(`Name=="${vendor.replace(/["\\]/g, '')}"`);
  const found = record((await call(ctx, 'Xero', `${api}/Contacts?where=${where}`, { token, headers })).body);
  const existing = (Array.isArray(found.Contacts) ? (found.Contacts as Array<{ ContactID: string }>) : [])[0];
  if (existing) return existing.ContactID;
  const made = record(
    (
      await call(ctx, 'Xero', `${api}/Contacts`, {
        method: 'POST',
        token,
        headers: { ...headers, 'idempotency-key': idempotencyKey },
        json: { Contacts: [{ Name: vendor }] },
      })
    ).body,
  );
  return (made.Contacts as Array<{ ContactID: string }>)[0].ContactID;
}

/**
 * xero:create_draft_bill: each extracted invoice (one per document: an e-mail with two invoices
 * gives two bills) as a draft bill (ACCPAY) in the user's Xero organisation, for review (see
 * billOfInvoice for the mapping). Each bill is sent with its own Idempotency-Key (the step's key
 * and the document's number), so a retry returns the same bills. A document that cannot give a
 * right bill (no total, totals that disagree, no supplier) is not written, and the step fails
 * naming it once the others are written; a bill Xero totals differently from the invoice fails
 * the step too. Returns each bill's InvoiceID, InvoiceNumber, SubTotal, TotalTax, Total,
 * CurrencyCode and warnings.
 */
function createDraftBill(services: () => ConnectorStepServices): ActionDefinition {
  return defineAction({
    provider: 'xero',
    action: 'create_draft_bill',
    title: 'Create a draft bill in Xero',
    auth: 'xero',
    async run(input, ctx) {
      const s = services();
      const docs = documentsOf(input);
      const e = xero(s);
      const { token, accountId } = connectionOf(ctx);
      if (!accountId) throw new PermanentStepError('The Xero connection has no organisation: connect Xero again and choose one.');
      const headers = { 'xero-tenant-id': accountId };
      const api = `${e.apiUrl}/api.xro/2.0`;
      const rates = await taxRatesOf(ctx, api, token, headers);
      const outcomes = docs.map((d) => billOfInvoice(d, { ...rates, accountCode: stringOf(ctx.params.account_code) }));
      const bills: Array<Record<string, unknown>> = [];
      const problems: string[] = [];
      for (const [i, o] of outcomes.entries()) {
        if (!o.ok) {
          problems.push(`No bill was drafted for "${o.file}": ${o.reason}.`);
          continue;
        }
        const docKey = docs.length > 1 ? `${ctx.idempotencyKey}:${i + 1}` : ctx.idempotencyKey;
        const contactId = await contactOf(ctx, api, token, headers, o.vendor, `${docKey}:contact`);
        const res = record(
          (
            await call(ctx, 'Xero', `${api}/Invoices?unitdp=4`, {
              method: 'POST',
              token,
              headers: { ...headers, 'idempotency-key': docKey },
              json: { Invoices: [{ ...o.bill, Contact: { ContactID: contactId } }] },
            })
          ).body,
        );
        const made = record((res.Invoices as unknown[] | undefined)?.[0]);
        const bill = {
          file: o.file,
          InvoiceID: made.InvoiceID ?? null,
          InvoiceNumber: made.InvoiceNumber ?? null,
          Contact: o.vendor,
          Status: made.Status ?? null,
          CurrencyCode: made.CurrencyCode ?? null,
          SubTotal: made.SubTotal ?? null,
          TotalTax: made.TotalTax ?? null,
          Total: made.Total ?? null,
          warnings: o.warnings,
        };
        bills.push(bill);
        const off = (['SubTotal', 'TotalTax', 'Total'] as const).filter((k) => Math.round(Number(made[k]) * 100) !== Math.round(o.expected[k] * 100));
        if (off.length)
          problems.push(
            `The draft bill for "${o.file}" came out in Xero with ${off.map((k) => `${k} ${String(made[k])} instead of ${o.expected[k].toFixed(2)}`).join(', ')}: correct or delete it in Xero.`,
          );
      }
      if (problems.length) {
        const written = bills.length
          ? ` Drafted: ${bills.map((b) => `"${String(b.file)}" as ${String(b.InvoiceNumber ?? 'a bill')} (${Number(b.Total).toFixed(2)} ${String(b.CurrencyCode ?? '')})`.trim()).join(', ')}.`
          : '';
        throw new PermanentStepError(`${problems.join(' ')}${written}`);
      }
      return {
        bills,
        count: bills.length,
        warnings: bills.flatMap((b) => (b.warnings as string[]).map((w) => (bills.length > 1 ? `${String(b.file)}: ${w}` : w))),
      };
    },
  });
}

/** The connector steps the catalogue's Google Drive, Google Sheets and Xero recipes name. */
export function connectorActions(services: () => ConnectorStepServices): ActionDefinition[] {
  return [downloadFile(services), appendRow(services), appendRows(services), createDraftBill(services)];
}
