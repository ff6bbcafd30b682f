import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import signupRoleMap from '../../../schemas/account/signup-role-map.json';
import type { Database } from '../db/schema';
import { token } from '../../core/di';

/** E-mail addresses are stored lower-cased and trimmed; lookups are case-insensitive. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The numeric profile Role code of a sign-up role code (unknown codes read as Other, 14). */
export function profileRole(signupCode: string): number {
  const map = signupRoleMap.map as Record<string, number>;
  return map[signupCode] ?? map.other ?? 14;
}

/** True for PostgreSQL's unique_violation (from pg and from PGlite alike). */
export function isUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === '23505';
}

/** Finds a user by e-mail, whatever its case (uses the unique index on lower(email)). */
export function findUserByEmail(db: Kysely<Database>, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'password_hash', 'is_verified', 'token_version'])
    .where(sql<string>`lower(email)`, '=', normaliseEmail(email))
    .executeTakeFirst();
}

/** Whether another user already has this e-mail address. */
export async function emailTaken(db: Kysely<Database>, email: string, exceptUserId?: number): Promise<boolean> {
  let q = db
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(email)`, '=', normaliseEmail(email));
  if (exceptUserId !== undefined) q = q.where('id', '!=', exceptUserId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** What other modules may ask about accounts (the users table belongs to the auth module). */
export interface AccountDirectory {
  /** Whether a verified account has this e-mail address (whatever its case). */
  isVerifiedAddress(email: string): Promise<boolean>;
}
export const Accounts = token<AccountDirectory>('Accounts');

export function accountDirectory(db: Kysely<Database>): AccountDirectory {
  return {
    async isVerifiedAddress(email) {
      const row = await db
        .selectFrom('users')
        .select('id')
        .where(sql<string>`lower(email)`, '=', normaliseEmail(email))
        .where('is_verified', '=', true)
        .executeTakeFirst();
      return !!row;
    },
  };
}
