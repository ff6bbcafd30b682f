import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { JobQueue } from '../queue/job-queue';
import { REFRESH_REUSE_GRACE_SECONDS, REFRESH_TTL_SECONDS, type TokenClaims } from './token-service';

export type RefreshOutcome =
  /** first use, or a repeat within the grace window: a new pair may be issued in the session */
  | { kind: 'rotate'; session: string }
  /** the session was ended (log-out or an earlier reuse) */
  | { kind: 'revoked' }
  /** used again after the grace window: the session is now revoked */
  | { kind: 'reused' };

/** The session of a refresh token: its `sid`, or for tokens from before sessions its own jti. */
export function refreshSession(claims: TokenClaims): string {
  return typeof claims.sid === 'string' && claims.sid !== '' ? claims.sid : claims.jti;
}

/** Ends a session on the server: its access and refresh tokens are refused from now on. */
export async function revokeSession(db: Kysely<Database>, userId: number, session: string, reason: 'logout' | 'reuse', now: Date): Promise<void> {
  await db
    .insertInto('revoked_sessions')
    .values({ session_id: session, user_id: userId, revoked_at: now, reason, expires_at: new Date(now.getTime() + REFRESH_TTL_SECONDS * 1000) })
    .onConflict((oc) => oc.column('session_id').doNothing())
    .execute();
}

/** Whether a session was ended. */
export async function isSessionRevoked(db: Kysely<Database>, session: string): Promise<boolean> {
  return (await db.selectFrom('revoked_sessions').select('session_id').where('session_id', '=', session).executeTakeFirst()) !== undefined;
}

/**
 * Whether a credential minted in a session still stands: the user exists, its password
 * generation is still `version` (a password change ends every earlier credential), and the
 * session was not ended (log-out). Widget tokens and download links are checked with it.
 */
export async function sessionStands(db: Kysely<Database>, claim: { userId: number; session?: string; version: number }): Promise<boolean> {
  const user = await db.selectFrom('users').select('token_version').where('id', '=', claim.userId).executeTakeFirst();
  if (!user || user.token_version !== claim.version) return false;
  return !claim.session || !(await isSessionRevoked(db, claim.session));
}

/** The user's sessions ended recently enough that their access tokens could still be alive. */
export async function revokedSessionsOf(db: Kysely<Database>, userId: number, now: Date): Promise<Set<string>> {
  const rows = await db.selectFrom('revoked_sessions').select('session_id').where('user_id', '=', userId).where('expires_at', '>', now).execute();
  return new Set(rows.map((r) => r.session_id));
}

/**
 * Records the use of a refresh token (rotation): every refresh token is good for one exchange.
 * A second use within REFRESH_REUSE_GRACE_SECONDS (two tabs racing, a lost reply) still
 * rotates; a later one means the token was copied, so the whole session is revoked.
 */
export async function useRefreshToken(db: Kysely<Database>, claims: TokenClaims & { userId: number }, now: Date): Promise<RefreshOutcome> {
  const session = refreshSession(claims);
  if (await isSessionRevoked(db, session)) return { kind: 'revoked' };
  const inserted = await db
    .insertInto('refresh_token_uses')
    .values({ jti: claims.jti, user_id: claims.userId, session_id: session, used_at: now, expires_at: new Date(claims.exp * 1000) })
    .onConflict((oc) => oc.column('jti').doNothing())
    .returning('jti')
    .executeTakeFirst();
  if (inserted) return { kind: 'rotate', session };
  const previous = await db.selectFrom('refresh_token_uses').select('used_at').where('jti', '=', claims.jti).executeTakeFirst();
  const usedAt = previous ? new Date(previous.used_at).getTime() : 0;
  if (now.getTime() - usedAt <= REFRESH_REUSE_GRACE_SECONDS * 1000) return { kind: 'rotate', session };
  await revokeSession(db, claims.userId, session, 'reuse', now);
  return { kind: 'reused' };
}

/** Deletes the records of refresh tokens and sessions that have expired anyway. */
export async function pruneSessionRecords(db: Kysely<Database>, now: Date): Promise<void> {
  await db.deleteFrom('refresh_token_uses').where('expires_at', '<', now).execute();
  await db.deleteFrom('revoked_sessions').where('expires_at', '<', now).execute();
}

/** The queue job that prunes the session records, once an hour. */
export const PRUNE_SESSIONS_JOB = 'auth.prune-sessions';
export const PRUNE_SESSIONS_EVERY_MS = 60 * 60 * 1000;

/**
 * Queues the prune of hour `slot` (hours since the epoch), to run at the slot's start. The job id
 * is the slot's, so a restart, a second server or a late run never doubles the chain.
 */
export async function schedulePruneSessions(queue: JobQueue, nowMs: number, slot = Math.floor(nowMs / PRUNE_SESSIONS_EVERY_MS)): Promise<void> {
  const delayMs = Math.max(0, slot * PRUNE_SESSIONS_EVERY_MS - nowMs);
  await queue.add(PRUNE_SESSIONS_JOB, { slot }, { jobId: `auth.prune-sessions.${slot}`, delayMs, attempts: 3, backoffMs: 60_000 });
}

/** The job's handler: prunes, then queues the next hour's run. */
export async function runPruneSessions(db: Kysely<Database>, queue: JobQueue, data: { slot?: number }, now: Date): Promise<void> {
  await pruneSessionRecords(db, now);
  const current = Math.floor(now.getTime() / PRUNE_SESSIONS_EVERY_MS);
  await schedulePruneSessions(queue, now.getTime(), Math.max(current, data.slot ?? current) + 1);
}
