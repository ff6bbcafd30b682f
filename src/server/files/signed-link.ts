import { createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidDownloadLinkError, InvalidFileRequestError } from './errors';

export interface DownloadGrant {
  owner: number;
  bucket: string;
  key: string;
  /** the owner's session the link was made in and its password generation: the link ends with that session */
  session?: string;
  version?: number;
}

export interface VerifiedDownload extends DownloadGrant {
  /** Unix time in seconds after which the link is refused. */
  expiresAt: number;
}

const MIN_SECRET_LENGTH = 16;
const MAX_EXPIRY_SEC = 7 * 24 * 3600;

/**
 * A short-lived download token: base64url(JSON {o, b, k, e}) + '.' + base64url(HMAC-SHA256).
 * The token carries the owner so a download route can check the file belongs to them without
 * a session (e.g. an <img src> or a link opened in a new tab).
 */
export function signDownload(grant: DownloadGrant & { expiresInSec: number }, secret: string, now: number = Date.now()): string {
  checkSecret(secret);
  if (!Number.isFinite(grant.expiresInSec) || grant.expiresInSec <= 0 || grant.expiresInSec > MAX_EXPIRY_SEC) {
    throw new InvalidFileRequestError(`A download link must expire within 1 second to ${MAX_EXPIRY_SEC / 86400} days.`);
  }
  if (!Number.isSafeInteger(grant.owner) || typeof grant.bucket !== 'string' || typeof grant.key !== 'string') {
    throw new InvalidFileRequestError('A download link needs an owner id, a bucket and a key.');
  }
  const payload = {
    o: grant.owner,
    b: grant.bucket,
    k: grant.key,
    e: Math.floor(now / 1000) + Math.ceil(grant.expiresInSec),
    ...(grant.version !== undefined ? { v: grant.version, ...(grant.session ? { s: grant.session } : {}) } : {}),
  };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(body, secret)}`;
}

/**
 * Checks a token's signature (constant-time) and expiry and returns what it grants; throws
 * InvalidDownloadLinkError ('not valid' for malformed or tampered, 'expired' past its time).
 */
export function verifyDownload(token: string, secret: string, now: number = Date.now()): VerifiedDownload {
  checkSecret(secret);
  if (typeof token !== 'string' || token.length > 2048) throw new InvalidDownloadLinkError('malformed');
  const parts = token.split('.');
  if (parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0]) || !/^[A-Za-z0-9_-]+$/.test(parts[1])) {
    throw new InvalidDownloadLinkError('malformed');
  }
  const [body, signature] = parts;
  const expected = Buffer.from(mac(body, secret), 'base64url');
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new InvalidDownloadLinkError('tampered');

  let payload: { o?: unknown; b?: unknown; k?: unknown; e?: unknown; s?: unknown; v?: unknown };
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidDownloadLinkError('malformed');
  }
  const { o, b, k, e, s, v } = payload;
  if (!Number.isSafeInteger(o) || typeof b !== 'string' || typeof k !== 'string' || !Number.isSafeInteger(e)) {
    throw new InvalidDownloadLinkError('malformed');
  }
  if ((v !== undefined && !Number.isSafeInteger(v)) || (s !== undefined && typeof s !== 'string')) throw new InvalidDownloadLinkError('malformed');
  if (Math.floor(now / 1000) >= (e as number)) throw new InvalidDownloadLinkError('expired');
  return {
    owner: o as number,
    bucket: b,
    key: k,
    expiresAt: e as number,
    ...(v !== undefined ? { version: v as number, ...(s ? { session: s as string } : {}) } : {}),
  };
}

function mac(body: string, secret: string): string {
  return createHmac('sha256', secret).update(`flowmatic-download:${body}`).digest('base64url');
}

function checkSecret(secret: string): void {
  if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) {
    throw new InvalidFileRequestError(`The download-link secret must be at least ${MIN_SECRET_LENGTH} characters long.`);
  }
}
