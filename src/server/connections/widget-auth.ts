import type { FastifyRequest } from 'fastify';
import { unauthorised } from '../http/errors';
import { verifyWidgetToken } from '../provider/widget-token';

/**
 * The managed user a connection-widget call acts for: the workatoToken from
 * `Authorization: Bearer …` (widget API calls) or `?token=` (the Connect popup, which cannot set
 * headers). A session token is not accepted here, nor a widget token anywhere else.
 */
export async function widgetCaller(request: FastifyRequest, secret: string): Promise<{ workatoId: number; userId: number }> {
  const header = request.headers.authorization;
  const fromHeader = typeof header === 'string' && /^Bearer\s+/i.test(header) ? header.replace(/^Bearer\s+/i, '').trim() : undefined;
  const fromQuery = (request.query as { token?: unknown } | undefined)?.token;
  const token = fromHeader || (typeof fromQuery === 'string' ? fromQuery : undefined);
  if (!token) throw unauthorised('Open the connections with a connection token (POST /api/platform/workatoToken).');
  try {
    return await verifyWidgetToken(secret, token);
  } catch (e) {
    throw unauthorised((e as Error).message);
  }
}

/** Reads one cookie from the Cookie header. */
export function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const raw = request.headers.cookie;
  if (!raw) return undefined;
  for (const part of raw.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return undefined;
}
