import { SignJWT, jwtVerify } from 'jose';

/** How long a connection-widget token lives: enough to open the widget, no more. */
export const WIDGET_TOKEN_TTL_SECONDS = 10 * 60;
const AUDIENCE = 'flowmatic:connection-widget';

/**
 * The short-lived token of POST /api/platform/workatoToken: signed with SECRET_KEY, bound to one
 * managed user and its user, and usable only as a connection-widget token (its own audience),
 * never as a session.
 */
export async function signWidgetToken(
  secret: string,
  claims: { workatoId: number; userId: number; session?: string; version?: number },
  now = Date.now(),
): Promise<{ token: string; exp: number }> {
  const iat = Math.floor(now / 1000);
  const exp = iat + WIDGET_TOKEN_TTL_SECONDS;
  // the session it was issued in (sid, ver): the token ends with that session (log-out, password change)
  const token = await new SignJWT({ uid: claims.userId, sid: claims.session, ver: claims.version ?? 0 })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(claims.workatoId))
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(secret));
  return { token, exp };
}

export class InvalidWidgetTokenError extends Error {
  constructor() {
    super('The connection token is invalid or has expired.');
    this.name = 'InvalidWidgetTokenError';
  }
}

/** Checks a widget token; returns whom it was issued for. */
export async function verifyWidgetToken(secret: string, token: string, now = Date.now()): Promise<{ workatoId: number; userId: number }> {
  const { workatoId, userId } = await verifyWidgetGrant(secret, token, now);
  return { workatoId, userId };
}

/** Checks a widget token; returns whom and which session (sid, password generation) it was issued for. */
export async function verifyWidgetGrant(
  secret: string,
  token: string,
  now = Date.now(),
): Promise<{ workatoId: number; userId: number; session?: string; version: number }> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'], audience: AUDIENCE, currentDate: new Date(now) });
    const workatoId = Number(payload.sub);
    const userId = Number(payload.uid);
    if (!Number.isInteger(workatoId) || !Number.isInteger(userId)) throw new InvalidWidgetTokenError();
    return {
      workatoId,
      userId,
      session: typeof payload.sid === 'string' && payload.sid ? payload.sid : undefined,
      version: typeof payload.ver === 'number' ? payload.ver : 0,
    };
  } catch {
    throw new InvalidWidgetTokenError();
  }
}
