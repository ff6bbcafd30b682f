import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { unauthorised } from '../http/errors';
import type { Db } from '../db/database';
import { changeFeedOf } from '../db/change-feed';
import { AUTH_TABLES, InvalidatingCache } from '../catalogue/cache';
import { revokedSessionsOf } from './sessions';
import { accountById } from './users';
import { sessionId, tokenVersion, type TokenService } from './token-service';

export interface AuthUser {
  id: number;
  email: string;
  name: string;
  isVerified: boolean;
  workatoId: number | null;
  /** the session (refresh-token family) of the caller's access token, so credentials minted for it end with it */
  session?: string;
  /** the password generation of the caller's access token */
  tokenVersion?: number;
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

export type RouteAuth = 'user' | 'unverified';

declare module 'fastify' {
  interface RouteShorthandOptions {
    /**
     * 'user': a valid access token of an existing, verified user; 'unverified': the same but an
     * unverified user passes (the userId call, which tells the client to ask for it). Checked in
     * onRequest, before the body is read or validated, so an anonymous caller always gets 401.
     */
    auth?: RouteAuth;
  }
}

/** What the guard knows of a user: the row it checks tokens against, and ended sessions. */
export interface AuthEntry {
  user: AuthUser;
  tokenVersion: number;
  /** sessions ended on the server whose access tokens may still be unexpired */
  revokedSessions: Set<string>;
}

/** Per-user auth entries in memory, dropped whenever users, workspaces or sessions change. */
export type AuthUserCache = InvalidatingCache<number, AuthEntry | null>;

/** The guard's cache for a database handle that reports its writes; undefined otherwise. */
export function createAuthUserCache(db: Db): AuthUserCache | undefined {
  const feed = changeFeedOf(db);
  if (!feed) return undefined;
  const cache: AuthUserCache = new InvalidatingCache(50_000);
  cache.clearOn(feed, AUTH_TABLES);
  return cache;
}

export interface AuthLookup {
  tokens: TokenService;
  db: Db;
  /** caches the user rows between requests (the session generation included) */
  users?: AuthUserCache;
}

async function loadAuthEntry(db: Db, userId: number): Promise<AuthEntry | null> {
  const row = await accountById(db, userId);
  if (!row) return null;
  return {
    user: { id: row.id, email: row.email, name: row.name, isVerified: row.isVerified, workatoId: row.workatoId },
    tokenVersion: row.tokenVersion,
    revokedSessions: await revokedSessionsOf(db, userId, new Date()),
  };
}

/**
 * Resolves the caller of a request from its bearer token. Throws 401 with status_code 401,
 * which the client answers by clearing its session.
 */
export async function authenticate(request: FastifyRequest, deps: AuthLookup, mode: RouteAuth): Promise<AuthUser> {
  const token = bearerToken(request);
  if (!token) throw unauthorised();
  const notValid = () => unauthorised('Given token not valid for any token type', { code: 'token_not_valid' });
  let userId: number;
  let version: number;
  let session: string | undefined;
  try {
    const claims = await deps.tokens.verify(token, 'access');
    userId = claims.userId;
    version = tokenVersion(claims);
    session = sessionId(claims);
  } catch {
    throw notValid();
  }
  const entry = deps.users ? await deps.users.get(userId, () => loadAuthEntry(deps.db, userId)) : await loadAuthEntry(deps.db, userId);
  if (!entry) throw unauthorised('User not found', { code: 'user_not_found' });
  // the password changed since this token was issued, or its session was ended (log-out)
  if (entry.tokenVersion !== version) throw notValid();
  if (session && entry.revokedSessions.has(session)) throw notValid();
  if (!entry.user.isVerified && mode !== 'unverified') throw unauthorised('Please verify your account, then login.', { code: 'user_not_verified' });
  return { ...entry.user, session, tokenVersion: version };
}

/**
 * Makes the `auth` route option work on every route of the app, plugins' included: such a route
 * gets an onRequest hook that sets `request.user`.
 */
export function installRouteAuth(app: FastifyInstance, deps: () => AuthLookup): void {
  app.addHook('onRoute', (route) => {
    const mode = route.auth;
    if (!mode) return;
    const check: onRequestAsyncHookHandler = async (request) => {
      request.user = await authenticate(request, deps(), mode);
    };
    const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    route.onRequest = [check, ...existing];
  });
}

/** The caller of a route declared with `auth`. */
export function userOf(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorised();
  return request.user;
}
