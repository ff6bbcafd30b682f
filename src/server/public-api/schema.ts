import type { ColumnType, Generated } from 'kysely';

/** The public API's table (migration 'public-api/0001_api_keys'), added to the Kysely schema. */
declare module '../db/schema' {
  interface Database {
    api_keys: ApiKeysTable;
  }
}

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** the first characters of the key, shown in the list so a user can tell keys apart */
  prefix: string;
  /** SHA-256 of the whole key, hex */
  secret_hash: string;
  created_at: ColumnType<Date, Date | undefined, Date>;
  last_used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}
