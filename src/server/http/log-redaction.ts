import type { FastifyRequest } from 'fastify';
import type { DestinationStream } from 'pino';
import { logFormat, prettyStream, type LogFormat } from '../ops/logging';

/**
 * Query parameters that carry a credential: the connection widget's token and a download link's
 * (`?token=`), an OAuth callback's code and state, and the names providers use for tokens.
 */
const SECRET_PARAMS = new Set(['token', 'code', 'state', 'access_token', 'refresh_token', 'id_token', 'password']);

/** A request URL with the value of every credential-bearing query parameter replaced by [redacted]. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        /* a malformed name is logged as it is */
      }
      return SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

/**
 * The request logger's `req` serializer: Fastify's default fields, with credentials in the
 * query string redacted, so widget tokens, download links and OAuth codes never reach the log.
 */
export function requestLogSerializer(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: request.headers?.['accept-version'],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * The server's logger options: the level, the serializers that keep credentials out of the log,
 * and (LOG_FORMAT, see ops/logging) a readable stream instead of JSON lines in development.
 */
export function loggerOptions(
  level: string,
  format: LogFormat = logFormat(),
): { level: string; serializers: { req: typeof requestLogSerializer }; stream?: DestinationStream } {
  return { level, serializers: { req: requestLogSerializer }, ...(format === 'pretty' ? { stream: prettyStream() } : {}) };
}
