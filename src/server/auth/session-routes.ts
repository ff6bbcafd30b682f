import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import loginSchema from '../../../schemas/auth/login.schema.json';
import refreshSchema from '../../../schemas/auth/token-refresh.schema.json';
import logoutSchema from '../../../schemas/auth/logout.schema.json';
import { HttpError } from '../http/errors';
import type { AuthDeps } from './deps';
import { bearerToken } from './guard';
import { refreshSession, revokeSession, useRefreshToken } from './sessions';
import { tokenVersion, type TokenClaims } from './token-service';
import { findUserByEmail } from './users';

export const NO_ACTIVE_ACCOUNT = 'No active account found with the given credentials';
export const TOKEN_NOT_VALID = 'Token is invalid or expired';
export const SESSION_REVOKED = 'This session has ended. Please log in again.';
export const LOGGED_OUT = 'You have been logged out.';

/**
 * SimpleJWT-compatible login and refresh, and the userId call. Tokens are issued to
 * unverified users too: the client reads is_verify from userId and asks them to verify.
 */
export function registerSessionRoutes(app: FastifyInstance, deps: AuthDeps): void {
  const { db, tokens, hasher } = deps;

  // A hash to verify against when the account does not exist, so that a wrong e-mail
  // address takes as long to refuse as a wrong password.
  let dummy: Promise<string> | undefined;
  const dummyHash = () =>
    (dummy ??= hasher.hash(randomBytes(16).toString('hex')).catch((e) => {
      dummy = undefined;
      throw e;
    }));

  app.post<{ Body: { username: string; password: string } }>(
    '/api/platform/api-jwt-token/',
    { schema: { body: loginSchema }, config: deps.rateLimited },
    async (request) => {
      const { username, password } = request.body;
      const user = await findUserByEmail(db, username);
      const ok = user ? await hasher.verify(user.password_hash, password) : (await hasher.verify(await dummyHash(), password), false);
      if (!user || !ok) {
        request.log.info({ userId: user?.id }, 'login refused');
        throw new HttpError(401, NO_ACTIVE_ACCOUNT, { detail: NO_ACTIVE_ACCOUNT });
      }
      return tokens.sessionPair(user.id, user.token_version);
    },
  );

  /**
   * Rotation: every refresh returns a new refresh token beside the access token (same session).
   * A refresh token used again after the grace window revokes its whole session.
   */
  app.post<{ Body: { refresh: string } }>('/api/platform/api-jwt-token-refresh/', { schema: { body: refreshSchema } }, async (request) => {
    const notValid = (message = TOKEN_NOT_VALID) => new HttpError(401, message, { detail: message, code: 'token_not_valid' });
    let claims: TokenClaims & { userId: number };
    try {
      claims = await tokens.verify(request.body.refresh, 'refresh');
    } catch {
      throw notValid();
    }
    const version = tokenVersion(claims);
    const user = await db.selectFrom('users').select(['id', 'token_version']).where('id', '=', claims.userId).executeTakeFirst();
    // gone, or the password changed since this refresh token was issued
    if (!user || user.token_version !== version) throw notValid();
    const outcome = await useRefreshToken(db, claims, deps.now());
    if (outcome.kind === 'reused') {
      request.log.warn({ userId: user.id }, 'refresh token reused after the grace window: session revoked');
      throw notValid(SESSION_REVOKED);
    }
    if (outcome.kind === 'revoked') throw notValid(SESSION_REVOKED);
    return tokens.sessionPair(user.id, version, outcome.session);
  });

  /**
   * Log out: ends the session on the server, named by the refresh token in the body or the
   * bearer access token (either may be expired already: then there is nothing left to end).
   */
  app.post<{ Body: { refresh?: string } }>('/api/platform/logout', { schema: { body: logoutSchema } }, async (request) => {
    const candidates: Array<[string | undefined, 'refresh' | 'access']> = [
      [request.body?.refresh, 'refresh'],
      [bearerToken(request), 'access'],
    ];
    for (const [token, type] of candidates) {
      if (!token) continue;
      try {
        const claims = await tokens.verify(token, type);
        await revokeSession(db, claims.userId, refreshSession(claims), 'logout', deps.now());
        request.log.info({ userId: claims.userId }, 'logged out');
        break;
      } catch {
        /* expired or not ours: nothing to end with this one */
      }
    }
    return { status: 'success', message: LOGGED_OUT };
  });

  app.get('/api/platform/userId', { auth: 'unverified' }, async (request) => {
    const user = request.user!;
    const row = await db.selectFrom('users').select('time_zone').where('id', '=', user.id).executeTakeFirstOrThrow();
    return { userID: user.id, workato_id: user.workatoId, is_verify: user.isVerified, time_zone: row.time_zone, email: user.email };
  });
}
