import { sql } from 'kysely';
import type { Migration } from '../db/migrate';

/** The API keys table, owned by the public API module: only a hash of each key is kept. */
export const publicApiMigrations: Migration[] = [
  {
    id: 'public-api/0001_api_keys',
    async up(db) {
      await sql`create table api_keys (
        id serial primary key,
        user_id integer not null references users(id) on delete cascade,
        name text not null,
        prefix text not null,
        secret_hash text not null unique,
        created_at timestamptz not null default now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      )`.execute(db);
      await sql`create index api_keys_user_idx on api_keys (user_id, id)`.execute(db);
    },
  },
];
