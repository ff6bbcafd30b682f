import { sql } from 'kysely';
import type { Migration } from '../db/migrate';
import { triggerCursorMigration } from './trigger-cursors';

/** The token store: credentials beside each connection, pending Connects, trigger cursors. */
export const connectionMigrations: Migration[] = [
  {
    id: 'connections/0001_token_store',
    async up(db) {
      // one connection per managed user and provider (older duplicates: the first one stays)
      await sql`delete from connections c using connections d
        where c.managed_user_id = d.managed_user_id and c.provider = d.provider and c.id > d.id`.execute(db);
      await sql`create unique index connections_user_provider_uq on connections (managed_user_id, provider)`.execute(db);
      await sql`create table connection_credentials (
        connection_id integer primary key references connections(id) on delete cascade,
        secret text,
        expires_at timestamptz,
        account_id text,
        account_name text not null,
        lost_reason text,
        version integer not null default 1,
        updated_at timestamptz not null default now()
      )`.execute(db);
      await sql`create table oauth_pending (
        id text primary key,
        user_id integer not null references users(id) on delete cascade,
        managed_user_id integer not null references managed_users(id) on delete cascade,
        provider text not null,
        state_hash text not null,
        verifier text not null,
        expires_at timestamptz not null
      )`.execute(db);
      await sql`create index oauth_pending_expiry_idx on oauth_pending (expires_at)`.execute(db);
      await sql`create table connector_cursors (
        recipe_id integer not null references user_recipes(id) on delete cascade,
        trigger text not null,
        cursor text not null,
        updated_at timestamptz not null default now(),
        primary key (recipe_id, trigger)
      )`.execute(db);
    },
  },
  {
    // the provider's answer waits here, sealed, until the signed-in user who pressed Connect confirms it
    id: 'connections/0002_pending_callback',
    async up(db) {
      await sql`alter table oauth_pending add column callback text`.execute(db);
    },
  },
  triggerCursorMigration,
];
