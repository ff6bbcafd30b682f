import dns from 'node:dns';
import type { LookupAddress } from 'node:dns';
import { Agent, buildConnector, request } from 'undici';
import { describeForbiddenReason, InvalidHostError, isForbiddenAddress, parseHostLiteral, type ForbiddenReason } from './address-guard';

/**
 * Fetches a user-supplied URL without letting it reach private networks (SSRF defence).
 *
 * - Only http(s), no credentials in the URL.
 * - Hostnames are resolved by our own `lookup`, which refuses the connection when any resolved
 *   address is forbidden; the socket then connects to exactly the address that was checked, so
 *   there is no window for DNS rebinding. IP literals (in every written form) are checked before
 *   connecting, and the connected socket's remote address is checked again.
 * - Redirects are followed by hand, each hop re-validated, at most `maxRedirects`.
 * - The whole exchange has one deadline; the body is read with a byte cap.
 */

export type WebFetchErrorCode =
  | 'invalid-url'
  | 'unsupported-method'
  | 'unsupported-scheme'
  | 'credentials-in-url'
  | 'forbidden-address'
  | 'dns-failure'
  | 'too-many-redirects'
  | 'too-large'
  | 'timeout'
  | 'unsupported-content-type'
  | 'http-status'
  | 'network';

/** A refused or failed website read, with a sentence fit to show to the user. */
export class WebFetchError extends Error {
  constructor(
    readonly code: WebFetchErrorCode,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'WebFetchError';
  }
}

export const HTML_TYPES = ['text/html', 'application/xhtml+xml'] as const;
export const IMAGE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/svg+xml',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'image/bmp',
] as const;

export interface SafeFetchOptions {
  /** Largest body accepted, in bytes (default 2 MB). */
  maxBytes?: number;
  /** Deadline for the whole exchange, redirects and body included (default 10 s). */
  timeoutMs?: number;
  /** Most redirects followed (default 5). */
  maxRedirects?: number;
  /** Accepted media types; `image/*` style wildcards allowed (default HTML types). */
  accept?: readonly string[];
  /** Test-only: permit 127.0.0.0/8 and ::1 so a loopback fixture site can be read. */
  allowLoopback?: boolean;
  /** Name resolver (default dns.lookup); replaceable in tests. */
  lookup?: typeof dns.lookup;
  /** GET (default) or POST. */
  method?: 'GET' | 'POST';
  /** A POST's body, sent as JSON (`content-type: application/json`). */
  json?: unknown;
  /** Extra request headers (an API key, an Authorization header); host and content-length are set by the client. */
  headers?: Record<string, string>;
  /** Answer a non-2xx status with its body instead of throwing 'http-status' (an API client reads the error body). */
  allowErrorStatus?: boolean;
  /** Largest JSON body sent, in bytes (default 1 MB). */
  maxRequestBytes?: number;
}

export interface SafeFetchResult {
  /** The URL finally read, after redirects. */
  url: string;
  status: number;
  /** Media type without parameters, lower case. */
  contentType: string;
  /** Charset named by the Content-Type header, if any. */
  charset?: string;
  body: Buffer;
  /** The URLs visited, first to last. */
  redirects: string[];
}

const DEFAULTS = { maxBytes: 2 * 1024 * 1024, timeoutMs: 10_000, maxRedirects: 5, maxRequestBytes: 1024 * 1024 };
/** Headers a caller may not set: the client owns the connection and the body framing. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'content-type']);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Judges an address under the loopback allowance. */
function refusal(address: string, allowLoopback: boolean): ForbiddenReason | undefined {
  const reason = isForbiddenAddress(address);
  if (reason === 'loopback' && allowLoopback) return undefined;
  return reason;
}

function forbiddenError(reason: ForbiddenReason, where: string): WebFetchError {
  return new WebFetchError('forbidden-address', describeForbiddenReason(reason), `${where}: ${reason}`);
}

/** Validates one URL (first or redirect target) and returns it parsed. */
function validateUrl(raw: string, allowLoopback: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebFetchError('invalid-url', 'That is not a valid web address.', raw);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WebFetchError('unsupported-scheme', 'Only http and https web addresses can be read.', url.protocol);
  }
  if (url.username || url.password) {
    throw new WebFetchError('credentials-in-url', 'Web addresses with a user name or password cannot be read.');
  }
  let literal;
  try {
    literal = parseHostLiteral(url.hostname);
  } catch (error) {
    if (error instanceof InvalidHostError) throw new WebFetchError('invalid-url', 'That is not a valid web address.', raw);
    throw error;
  }
  if (literal.kind !== 'domain') {
    const reason = refusal(literal.address, allowLoopback);
    if (reason) throw forbiddenError(reason, url.hostname);
  }
  return url;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** Builds the undici Agent whose every connection is checked at connect time. */
function guardedAgent(allowLoopback: boolean, resolve: typeof dns.lookup, onRefusal: (e: WebFetchError) => void): Agent {
  const lookup = (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) {
        const failure = new WebFetchError('dns-failure', 'That website could not be found.', `${hostname}: ${err.code ?? err.message}`);
        onRefusal(failure);
        callback(failure as NodeJS.ErrnoException, []);
        return;
      }
      const list = addresses as LookupAddress[];
      for (const entry of list) {
        const reason = refusal(entry.address, allowLoopback);
        if (reason) {
          const error = forbiddenError(reason, `${hostname} -> ${entry.address}`);
          onRefusal(error);
          callback(error as NodeJS.ErrnoException, []);
          return;
        }
      }
      if (list.length === 0) {
        const failure = new WebFetchError('dns-failure', 'That website could not be found.', hostname);
        onRefusal(failure);
        callback(failure as NodeJS.ErrnoException, []);
        return;
      }
      if (options.all) callback(null, list);
      else callback(null, list[0].address, list[0].family);
    });
  };
  const base = buildConnector({ lookup: lookup as never });
  return new Agent({
    connections: 2,
    pipelining: 0,
    connect: (opts, callback) => {
      base(opts, (err, socket) => {
        if (err || !socket) {
          callback(err as Error, null);
          return;
        }
        const remote = socket.remoteAddress;
        const reason = remote ? refusal(remote, allowLoopback) : 'not-an-address';
        if (reason) {
          socket.destroy();
          const error = forbiddenError(reason, `connected to ${remote}`);
          onRefusal(error);
          callback(error, null);
          return;
        }
        callback(null, socket);
      });
    },
  });
}

/** Reads `type/subtype; charset=x` into parts. */
function parseContentType(header: string | string[] | undefined): { type: string; charset?: string } {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return { type: '' };
  const [type, ...params] = value.split(';');
  const charsetParam = params.map((p) => p.trim()).find((p) => /^charset=/i.test(p));
  const charset = charsetParam?.slice('charset='.length).replace(/^"|"$/g, '').trim();
  return { type: type.trim().toLowerCase(), charset: charset || undefined };
}

function accepts(accept: readonly string[], type: string): boolean {
  return accept.some((a) => a === '*/*' || (a.endsWith('/*') ? type.startsWith(a.slice(0, -1)) : a === type));
}

/**
 * Fetches `rawUrl` under every guard described above and returns the body bytes.
 * Throws WebFetchError (with a user-readable message and a code) on any refusal or failure.
 * A POST sends `json` as its body; a 307/308 redirect repeats the POST at the (re-validated)
 * target, a 301/302/303 continues there as a GET without the body, as browsers do.
 */
export async function safeFetch(rawUrl: string, options: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  let method = options.method ?? 'GET';
  if (method !== 'GET' && method !== 'POST') throw new WebFetchError('unsupported-method', `Only GET and POST requests can be sent, not ${String(method)}.`);
  let payload: string | undefined;
  if (method === 'POST') {
    payload = JSON.stringify(options.json ?? null);
    const limit = options.maxRequestBytes ?? DEFAULTS.maxRequestBytes;
    if (Buffer.byteLength(payload) > limit)
      throw new WebFetchError('too-large', `The request body is larger than ${Math.round(limit / 1024)} KB and was not sent.`);
  }
  const extraHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower) || !/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(lower) || /[\r\n]/.test(value)) continue;
    extraHeaders[lower] = value;
  }
  const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const maxRedirects = options.maxRedirects ?? DEFAULTS.maxRedirects;
  const accept = options.accept ?? HTML_TYPES;
  const allowLoopback = options.allowLoopback ?? false;

  let guardError: WebFetchError | undefined;
  const agent = guardedAgent(allowLoopback, options.lookup ?? dns.lookup, (e) => {
    guardError = e;
  });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const seconds = Math.max(1, Math.round(timeoutMs / 1000));
  const timeoutError = () => new WebFetchError('timeout', `The website took longer than ${seconds} second${seconds === 1 ? '' : 's'} to answer.`);

  try {
    let url = validateUrl(rawUrl, allowLoopback);
    const visited = [url.href];
    for (let hop = 0; ; hop++) {
      let response;
      try {
        response = await request(url, {
          method,
          dispatcher: agent,
          signal: controller.signal,
          headers: {
            'user-agent': 'FlowmaticBot/1.0 (+website reader)',
            accept: accept.join(', ') + ', */*;q=0.1',
            ...extraHeaders,
            ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          body: payload,
        });
      } catch (error) {
        if (guardError) throw guardError;
        if (controller.signal.aborted) throw timeoutError();
        throw new WebFetchError('network', 'The website could not be reached.', (error as Error).message);
      }

      if (REDIRECT_STATUSES.has(response.statusCode)) {
        discard(response.body);
        const location = response.headers.location;
        const target = Array.isArray(location) ? location[0] : location;
        if (!target) throw new WebFetchError('http-status', 'The website sent a redirect without a destination.');
        if (hop >= maxRedirects) {
          throw new WebFetchError('too-many-redirects', `The website redirected more than ${maxRedirects} times.`);
        }
        let next: string;
        try {
          next = new URL(target, url).href;
        } catch {
          throw new WebFetchError('invalid-url', 'The website redirected to an invalid address.', target);
        }
        url = validateUrl(next, allowLoopback);
        visited.push(url.href);
        if (method === 'POST' && response.statusCode !== 307 && response.statusCode !== 308) {
          method = 'GET';
          payload = undefined;
        }
        continue;
      }

      if ((response.statusCode < 200 || response.statusCode >= 300) && !options.allowErrorStatus) {
        discard(response.body);
        throw new WebFetchError('http-status', `The website answered with status ${response.statusCode}.`);
      }

      const { type, charset } = parseContentType(response.headers['content-type']);
      if (!accepts(accept, type)) {
        discard(response.body);
        throw new WebFetchError(
          'unsupported-content-type',
          `That address does not serve a web page or image we can read (it sent ${type || 'no content type'}).`,
        );
      }

      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        discard(response.body);
        throw tooLarge(maxBytes);
      }

      const chunks: Buffer[] = [];
      let total = 0;
      try {
        for await (const chunk of response.body) {
          total += (chunk as Buffer).length;
          if (total > maxBytes) {
            discard(response.body);
            throw tooLarge(maxBytes);
          }
          chunks.push(chunk as Buffer);
        }
      } catch (error) {
        if (error instanceof WebFetchError) throw error;
        if (controller.signal.aborted) throw timeoutError();
        throw new WebFetchError('network', 'The website stopped answering part-way.', (error as Error).message);
      }

      return {
        url: url.href,
        status: response.statusCode,
        contentType: type,
        charset,
        body: Buffer.concat(chunks, total),
        redirects: visited,
      };
    }
  } finally {
    clearTimeout(timer);
    agent.destroy().catch(() => undefined);
  }
}

/** Drops a response body we will not read; undici reports the abort as an error we expect. */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => undefined);
  body.destroy();
}

function tooLarge(maxBytes: number): WebFetchError {
  const mb = maxBytes / (1024 * 1024);
  const size = mb >= 1 ? `${Number(mb.toFixed(1))} MB` : `${Math.round(maxBytes / 1024)} KB`;
  return new WebFetchError('too-large', `The page is larger than ${size} and was not read.`);
}

/** Decodes a fetched HTML body using the header charset, then a <meta charset>, then UTF-8. */
export function decodeBody(result: Pick<SafeFetchResult, 'body' | 'charset'>): string {
  const head = result.body.subarray(0, 2048).toString('latin1');
  const meta = /<meta[^>]+charset=["']?\s*([\w-]+)/i.exec(head)?.[1];
  for (const label of [result.charset, meta, 'utf-8']) {
    if (!label) continue;
    try {
      return new TextDecoder(label).decode(result.body);
    } catch {
      // unknown label: try the next one
    }
  }
  return result.body.toString('utf8');
}
