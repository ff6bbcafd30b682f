import type { ColumnType, Generated } from 'kysely';

/**
 * The database schema as Kysely sees it. Plugins add their tables by declaration merging:
 *   declare module '../../src/server/db/schema' { interface Database { my_table: MyTable } }
 */
export interface Database {
  schema_migrations: SchemaMigrationsTable;
  users: UsersTable;
  managed_users: ManagedUsersTable;
  one_time_tokens: OneTimeTokensTable;
  refresh_token_uses: RefreshTokenUsesTable;
  revoked_sessions: RevokedSessionsTable;
}

export interface SchemaMigrationsTable {
  id: string;
  applied_at: ColumnType<Date, Date | undefined, never>;
}

export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string;
  password_hash: string;
  /** sign-up role code: cpo, ds, mlops, devops, dev, pm, bm, sm, other */
  role: string;
  company_name: string;
  currency: Generated<string>;
  time_zone: Generated<string>;
  is_verified: Generated<boolean>;
  /** session generation: access and refresh tokens carry it as `ver`; older ones are refused */
  token_version: Generated<number>;
  /** a new address waiting for its confirmation link; the old one stays in force until then */
  pending_email: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** The user's workspace in the automation provider ("managed user"); id is the workato id. */
export interface ManagedUsersTable {
  id: Generated<number>;
  user_id: number;
  external_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** Single-use signed tokens (verification, password reset): the jti of each, once used. */
export interface OneTimeTokensTable {
  jti: string;
  user_id: number;
  purpose: string;
  expires_at: Date;
  used_at: Date | null;
}

/** Each refresh token once used (rotation): a second use after the grace window revokes its session. */
export interface RefreshTokenUsesTable {
  jti: string;
  user_id: number;
  session_id: string;
  used_at: Date;
  expires_at: Date;
}

/** Sessions ended on the server (log-out, reuse of a refresh token): their tokens are refused. */
export interface RevokedSessionsTable {
  session_id: string;
  user_id: number;
  revoked_at: Date;
  reason: string;
  expires_at: Date;
}
