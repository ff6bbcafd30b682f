import type { FastifyRequest } from 'fastify';
import { unauthorised } from '../http/errors';
import type { Db } from '../db/database';
import { sessionStands } from '../auth/sessions';
import { verifyWidgetGrant } from '../provider/widget-token';

/**
 * The managed user a connection-widget call acts for: the workatoToken from
 * `Authorization: Bearer …` (widget API calls) or `?token=` (the Connect popup, which cannot set
 * headers). A session token is not accepted here, nor a widget token anywhere else. The token
 * ends with the session it was issued in: after a log-out or a password change it is refused.
 */
export async function widgetCaller(request: FastifyRequest, deps: { secret: string; db: Db }): Promise<{ workatoId: number; userId: number }> {
  const header = request.headers.authorization;
  const fromHeader = typeof header === 'string' && /^Bearer\s+/i.test(header) ? header.replace(/^Bearer\s+/i, '').trim() : undefined;
  const fromQuery = (request.query as { token?: unknown } | undefined)?.token;
  const token = fromHeader || (typeof fromQuery === 'string' ? fromQuery : undefined);
  if (!token) throw unauthorised('Open the connections with a connection token (POST /api/platform/workatoToken).');
  let grant: Awaited<ReturnType<typeof verifyWidgetGrant>>;
  try {
    grant = await verifyWidgetGrant(deps.secret, token);
  } catch (e) {
    throw unauthorised((e as Error).message);
  }
  if (!(await sessionStands(deps.db, grant)))
    throw unauthorised('The connection token belongs to a session that has ended: sign in again and reopen the connections.');
  return { workatoId: grant.workatoId, userId: grant.userId };
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
