/**
 * Files sent as base64 inside a JSON body (the spec's `file*_binary` fields): decoded with a
 * size check against MAX_UPLOAD_MB before anything else is done with them.
 */
import { HttpError, badRequest } from '../http/errors';

/** Upper bound of a base64 string for `bytes` decoded bytes (4 characters per 3 bytes, plus padding). */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/**
 * The route body limit for JSON carrying `files` base64 files of up to `maxBytes` each, plus
 * 64 KB for the other fields (base64 is 4/3 of the size; 1.37 leaves room for line breaks).
 */
export function base64BodyLimit(files: number, maxBytes: number): number {
  return Math.ceil(files * 1.37 * maxBytes) + 64 * 1024;
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * Decodes one uploaded file: accepts plain base64 or a data URL (`data:text/csv;base64,...`),
 * refuses text that is not base64 (400) and a file over `maxBytes` decoded (413), naming the file.
 */
export function decodeBase64File(name: string, text: string, maxBytes: number): Buffer {
  const payload = text.startsWith('data:') ? text.slice(text.indexOf(',') + 1) : text;
  const compact = payload.replace(/\s+/g, '');
  if (!BASE64.test(compact)) throw badRequest(`"${name}" was not sent as base64, so it could not be read.`);
  const decodedSize = Math.floor((compact.length * 3) / 4) - (compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0);
  const limitMb = Math.round((maxBytes / (1024 * 1024)) * 10) / 10;
  if (decodedSize > maxBytes) throw new HttpError(413, `"${name}" is too large: the limit is ${limitMb} MB per file.`);
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length === 0) throw badRequest(`"${name}" is empty.`);
  return bytes;
}
