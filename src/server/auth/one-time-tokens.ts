import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { InvalidTokenError, type TokenService } from './token-service';

/** The single-use tokens sent by e-mail. */
export type OneTimePurpose = 'verify' | 'reset' | 'email-change' | 'email-cancel';

/**
 * Signs a single-use token and records its jti, so that it can be used exactly once.
 * `db` may be a transaction.
 */
export async function issueOneTimeToken(
  db: Kysely<Database>,
  tokens: TokenService,
  purpose: OneTimePurpose,
  userId: number,
  ttlSeconds: number,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const { token, jti, exp } = await tokens.sign(purpose, userId, ttlSeconds, extra);
  await db
    .insertInto('one_time_tokens')
    .values({ jti, user_id: userId, purpose, expires_at: new Date(exp * 1000), used_at: null })
    .execute();
  return token;
}

/** Checks the signature, expiry and type of a single-use token; throws InvalidTokenError. */
export async function verifyOneTimeToken(tokens: TokenService, token: string | undefined, purpose: OneTimePurpose) {
  if (!token) throw new InvalidTokenError('invalid');
  const claims = await tokens.verify(token, purpose);
  if (typeof claims.jti !== 'string' || claims.jti === '') throw new InvalidTokenError('invalid');
  return claims;
}

/**
 * Marks a recorded token used, atomically: of two concurrent uses only one gets `true`.
 * A token never recorded (signed but not issued), already used or expired gives `false`.
 */
export async function consumeOneTimeToken(db: Kysely<Database>, claims: { jti: string; userId: number }, purpose: OneTimePurpose, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('one_time_tokens')
    .set({ used_at: now })
    .where('jti', '=', claims.jti)
    .where('user_id', '=', claims.userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('jti')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Retires every unused token of a user: of the given purposes, or of all of them (after any
 * credential change, so that a link sent before it can no longer be used).
 */
export async function retireOneTimeTokens(db: Kysely<Database>, userId: number, purposes: OneTimePurpose | OneTimePurpose[] | 'all', now: Date): Promise<void> {
  let q = db.updateTable('one_time_tokens').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null);
  if (purposes !== 'all') q = q.where('purpose', 'in', Array.isArray(purposes) ? purposes : [purposes]);
  await q.execute();
}

/** Reads `Authorization: Token <token>` (the e-mailed verification and reset links). */
export function tokenFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  return /^Token\s+(\S+)\s*$/i.exec(header)?.[1];
}
