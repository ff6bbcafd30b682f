import { sql } from 'kysely';
import type { Migration } from '../db/migrate';

/**
 * The votes table, owned by this module. Databases made before this migration got the same table
 * from catalogue/0001_catalogue, so it finds the table there and does nothing. Runs after the
 * catalogue's migrations (core module order), whose combinations table it references.
 */
export const votesMigrations: Migration[] = [
  {
    id: 'votes/0001_votes',
    async up(db) {
      // one vote per user and combination: the primary key makes a race of two votes count once
      await sql`create table if not exists votes (
        user_id integer not null references users(id) on delete cascade,
        combination_id integer not null references combinations(id),
        created_at timestamptz not null default now(),
        primary key (user_id, combination_id)
      )`.execute(db);
      await sql`create index if not exists votes_combination_idx on votes (combination_id)`.execute(db);
    },
  },
];
