import { HttpError } from '../../src/server';

/** Drive's MIME types of a folder and of a Google Sheet. */
export const FOLDER_MIME = 'application/vnd.google-apps.folder';
export const SPREADSHEET_MIME = 'application/vnd.google-apps.spreadsheet';

/** Per-request time limit of a Google call made outside a workflow step. */
const CALL_TIMEOUT_MS = 30_000;

/** A Drive file as files.list / files.get answer it (the fields this product asks for). */
export interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  createdTime?: string;
  size?: string;
  parents?: string[];
}

/** Google answered with an error: its status and its own words. */
export class GoogleApiError extends Error {
  constructor(
    readonly what: string,
    readonly status: number,
    readonly detail: string,
  ) {
    super(`${what} answered HTTP ${status}${detail ? `: ${detail}` : ''}.`);
    this.name = 'GoogleApiError';
  }
}

/** A Drive query string literal: '…' with \ and ' escaped (Drive's query syntax). */
export function quoteQ(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** One JSON call to a Google API with a user's access token. */
export async function googleJson<T>(what: string, url: string, init: { token: string; method?: string; json?: unknown; signal?: AbortSignal }): Promise<T> {
  const signal = init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(CALL_TIMEOUT_MS)]) : AbortSignal.timeout(CALL_TIMEOUT_MS);
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${init.token}`, accept: 'application/json', ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
    signal,
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const detail = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
    throw new GoogleApiError(what, res.status, typeof detail === 'string' ? detail.slice(0, 300) : '');
  }
  return body as T;
}

/**
 * files.list with a query, every page (at most `maxPages` of 100), oldest first when the caller
 * orders by createdTime. Only the fields this product uses are asked for.
 */
export async function listDriveFiles(
  driveUrl: string,
  token: string,
  q: string,
  opts: { orderBy?: string; signal?: AbortSignal; maxPages?: number } = {},
): Promise<DriveFile[]> {
  const out: DriveFile[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < (opts.maxPages ?? 10); page++) {
    const params = new URLSearchParams({
      q,
      fields: 'nextPageToken,files(id,name,mimeType,createdTime,size,parents)',
      pageSize: '100',
      orderBy: opts.orderBy ?? 'name',
      spaces: 'drive',
    });
    if (pageToken) params.set('pageToken', pageToken);
    const body = await googleJson<{ files?: DriveFile[]; nextPageToken?: string }>('Google Drive', `${driveUrl}/drive/v3/files?${params}`, {
      token,
      signal: opts.signal,
    });
    out.push(...(body.files ?? []));
    pageToken = body.nextPageToken;
    if (!pageToken) break;
  }
  return out;
}

/** files.get (metadata); undefined when the file does not exist for this account. */
export async function getDriveFile(driveUrl: string, token: string, id: string, signal?: AbortSignal): Promise<DriveFile | undefined> {
  try {
    return await googleJson<DriveFile>('Google Drive', `${driveUrl}/drive/v3/files/${encodeURIComponent(id)}?fields=id,name,mimeType,parents`, {
      token,
      signal,
    });
  } catch (e) {
    if (e instanceof GoogleApiError && (e.status === 404 || e.status === 403)) return undefined;
    throw e;
  }
}

/** A new folder in the root of the account's Drive. */
export async function createDriveFolder(driveUrl: string, token: string, name: string, signal?: AbortSignal): Promise<DriveFile> {
  return googleJson<DriveFile>('Google Drive', `${driveUrl}/drive/v3/files?fields=id,name,mimeType`, {
    token,
    method: 'POST',
    json: { name, mimeType: FOLDER_MIME },
    signal,
  });
}

/** A new spreadsheet (Sheets spreadsheets.create). */
export async function createSpreadsheet(sheetsUrl: string, token: string, title: string, signal?: AbortSignal): Promise<{ id: string; name: string }> {
  const body = await googleJson<{ spreadsheetId: string; properties?: { title?: string } }>('Google Sheets', `${sheetsUrl}/v4/spreadsheets`, {
    token,
    method: 'POST',
    json: { properties: { title } },
    signal,
  });
  return { id: body.spreadsheetId, name: body.properties?.title ?? title };
}

/** A Google error as an HTTP answer of this product's routes (502: the provider failed, not the caller). */
export function asHttpError(e: unknown): unknown {
  if (e instanceof GoogleApiError) return new HttpError(e.status === 401 ? 409 : 502, e.message);
  return e;
}
