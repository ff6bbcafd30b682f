import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import loginSchema from '../../../schemas/auth/login.schema.json';
import refreshSchema from '../../../schemas/auth/token-refresh.schema.json';
import { HttpError } from '../http/errors';
import type { AuthDeps } from './deps';
import { requireUser } from './guard';
import { ACCESS_TTL_SECONDS, tokenVersion } from './token-service';
import { findUserByEmail } from './users';

export const NO_ACTIVE_ACCOUNT = 'No active account found with the given credentials';
export const TOKEN_NOT_VALID = 'Token is invalid or expired';

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

  app.post<{ Body: { refresh: string } }>('/api/platform/api-jwt-token-refresh/', { schema: { body: refreshSchema } }, async (request) => {
    const notValid = () => new HttpError(401, TOKEN_NOT_VALID, { detail: TOKEN_NOT_VALID, code: 'token_not_valid' });
    let userId: number;
    let version: number;
    try {
      const claims = await tokens.verify(request.body.refresh, 'refresh');
      userId = claims.userId;
      version = tokenVersion(claims);
    } catch {
      throw notValid();
    }
    const user = await db.selectFrom('users').select(['id', 'token_version']).where('id', '=', userId).executeTakeFirst();
    // gone, or the password changed since this refresh token was issued
    if (!user || user.token_version !== version) throw notValid();
    return { access: (await tokens.sign('access', userId, ACCESS_TTL_SECONDS, { ver: version })).token };
  });

  app.get('/api/platform/userId', { preHandler: requireUser(deps.container, { allowUnverified: true }) }, async (request) => {
    const user = request.user!;
    const row = await db.selectFrom('users').select('time_zone').where('id', '=', user.id).executeTakeFirstOrThrow();
    return { userID: user.id, workato_id: user.workatoId, is_verify: user.isVerified, time_zone: row.time_zone, email: user.email };
  });
}
