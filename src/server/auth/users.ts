import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
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

/** An account as the request guard and the API keys resolve it. */
export interface AccountRow {
  id: number;
  email: string;
  name: string;
  isVerified: boolean;
  /** the account's workspace (managed user) id; null before it has one */
  workatoId: number | null;
  /** the password generation its tokens must carry */
  tokenVersion: number;
}

/** The account with this id and its workspace, or undefined. */
export async function accountById(db: Kysely<Database>, userId: number): Promise<AccountRow | undefined> {
  const row = await db
    .selectFrom('users')
    .leftJoin('managed_users', 'managed_users.user_id', 'users.id')
    .select(['users.id', 'users.email', 'users.name', 'users.is_verified', 'users.token_version', sql<number | null>`managed_users.id`.as('workato_id')])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  return row && { id: row.id, email: row.email, name: row.name, isVerified: row.is_verified, workatoId: row.workato_id, tokenVersion: row.token_version };
}

/**
 * A workspace's (managed user's) account for other modules' queries, spelled by the auth module
 * (which owns users and managed_users): scalar subqueries to place in one set-based query, so a
 * module that keeps managed user ids (the automation module's recipes and jobs) never names them.
 */
export interface WorkspaceOwners {
  /** The id of the account owning the workspace `managedUserId` refers to (a column of the caller's query, `sql.ref('ur.managed_user_id')`). */
  userIdOf(managedUserId: Expression<number>): RawBuilder<number>;
  /** That account's e-mail address. */
  emailOf(managedUserId: Expression<number>): RawBuilder<string>;
  /** Every workspace, as a table to select from (`from ${workspaces()} m` gives `m.id`). */
  workspaces(): RawBuilder<{ id: number }>;
}

/** What other modules may ask about accounts (the users table belongs to the auth module). */
export interface AccountDirectory extends WorkspaceOwners {
  /** Whether a verified account has this e-mail address (whatever its case). */
  isVerifiedAddress(email: string): Promise<boolean>;
  /** The account with this id (verified or not) and its workspace, or undefined. */
  byId(userId: number): Promise<AccountRow | undefined>;
}
export const Accounts = token<AccountDirectory>('Accounts');

/** The WorkspaceOwners fragments (they need no database handle). */
export function workspaceOwners(): WorkspaceOwners {
  return {
    userIdOf: (managedUserId) => sql<number>`(select wo.user_id from managed_users wo where wo.id = ${managedUserId})`,
    emailOf: (managedUserId) => sql<string>`(select wu.email from managed_users wo join users wu on wu.id = wo.user_id where wo.id = ${managedUserId})`,
    workspaces: () => sql<{ id: number }>`(select wo.id from managed_users wo)`,
  };
}

export function accountDirectory(db: Kysely<Database>): AccountDirectory {
  return {
    ...workspaceOwners(),
    async isVerifiedAddress(email) {
      const row = await db
        .selectFrom('users')
        .select('id')
        .where(sql<string>`lower(email)`, '=', normaliseEmail(email))
        .where('is_verified', '=', true)
        .executeTakeFirst();
      return !!row;
    },
    byId: (userId) => accountById(db, userId),
  };
}
