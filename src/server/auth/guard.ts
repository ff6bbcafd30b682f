import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Container } from 'inversify';
import { sql } from 'kysely';
import { unauthorised } from '../http/errors';
import * as T from '../tokens';
import type { Db } from '../db/database';
import { tokenVersion, type TokenService } from './token-service';

export interface AuthUser {
  id: number;
  email: string;
  name: string;
  isVerified: boolean;
  workatoId: number | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    user?: AuthUser;
  }
}

/** Reads the bearer token of a request; undefined when absent. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m?.[1];
}

/**
 * A pre-handler that requires a valid access token of an existing user. Unverified users are
 * refused unless `allowUnverified` (the userId call, which tells the client to ask for it).
 * Replies 401 with status_code 401, which the client answers by clearing its session.
 */
export function requireUser(container: Container, opts: { allowUnverified?: boolean } = {}): preHandlerAsyncHookHandler {
  return async function (request: FastifyRequest, _reply: FastifyReply) {
    const token = bearerToken(request);
    if (!token) throw unauthorised();
    const tokens = container.get<TokenService>(T.TokenService);
    let userId: number;
    let version: number;
    try {
      const claims = await tokens.verify(token, 'access');
      userId = claims.userId;
      version = tokenVersion(claims);
    } catch {
      throw unauthorised('Given token not valid for any token type', { code: 'token_not_valid' });
    }
    const db = container.get<Db>(T.Db);
    const row = await db
      .selectFrom('users')
      .leftJoin('managed_users', 'managed_users.user_id', 'users.id')
      .select(['users.id', 'users.email', 'users.name', 'users.is_verified', 'users.token_version', sql<number | null>`managed_users.id`.as('workato_id')])
      .where('users.id', '=', userId)
      .executeTakeFirst();
    if (!row) throw unauthorised('User not found', { code: 'user_not_found' });
    // the password changed since this token was issued
    if (row.token_version !== version) throw unauthorised('Given token not valid for any token type', { code: 'token_not_valid' });
    if (!row.is_verified && !opts.allowUnverified) throw unauthorised('Please verify your account, then login.', { code: 'user_not_verified' });
    request.user = { id: row.id, email: row.email, name: row.name, isVerified: row.is_verified, workatoId: row.workato_id };
  };
}
