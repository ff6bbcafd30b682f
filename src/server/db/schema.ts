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
