import type { ColumnType } from 'kysely';

/** The token store's tables (migrations 'connections/…'), added to the Kysely schema. */
declare module '../db/schema' {
  interface Database {
    connection_credentials: ConnectionCredentialsTable;
    oauth_pending: OAuthPendingTable;
    connector_cursors: ConnectorCursorsTable;
  }
}

type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;

/**
 * The secret half of a connection (the `connections` row is the public half): its tokens sealed
 * with AES-256-GCM (`secret`, null once lost or revoked), when the access token expires, the
 * account it reaches, and why it was lost. `version` moves on every write, so a refresh only
 * lands on the version it read (Xero's rotating refresh token is never overwritten by a stale one).
 */
export interface ConnectionCredentialsTable {
  connection_id: number;
  secret: string | null;
  expires_at: Stamp | null;
  account_id: string | null;
  account_name: string;
  lost_reason: string | null;
  version: number;
  updated_at: Stamp;
}

/**
 * A Connect in progress: the PKCE verifier (sealed) and the state (hashed), found by the hash of
 * the HttpOnly cookie set when Connect was pressed; it lives ten minutes and is used once. The
 * provider's answer (`callback`, sealed) waits here until the signed-in user who pressed Connect
 * confirms it from the same browser; only then is the code redeemed.
 */
export interface OAuthPendingTable {
  id: string;
  user_id: number;
  managed_user_id: number;
  provider: string;
  state_hash: string;
  verifier: string;
  expires_at: Stamp;
  callback: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Where a polling trigger stopped (e.g. the newest Drive file seen), per recipe and trigger. */
export interface ConnectorCursorsTable {
  recipe_id: number;
  trigger: string;
  cursor: string;
  updated_at: Stamp;
  /** when the trigger last looked (migration connections/0003) */
  last_polled_at: Stamp | null;
  /** why its last look failed, null when it worked */
  last_error: string | null;
}
