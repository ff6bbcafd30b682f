import { sql } from 'kysely';
import type { Migration } from '../../../src/server';

/**
 * Tables of the public generators: the press releases Mia wrote, their three PNGs (bytea, a few
 * hundred KB a release: the FileStore keeps files per user and these belong to no user), and the
 * e-mails sent for them, counted per recipient to cap sending at three a day.
 */
export const migrations: Migration[] = [
  {
    id: 'public-generators/0001_mia_releases',
    async up(db) {
      await sql`create table mia_releases (
        id uuid primary key,
        email text not null default '',
        company text not null,
        product text not null,
        url text not null,
        title text not null,
        paraphrase_1 text not null,
        paraphrase_2 text not null,
        logo_source text not null,
        text_source text not null,
        created_at timestamptz not null default now()
      )`.execute(db);
      await sql`create table mia_images (
        release_id uuid not null references mia_releases(id) on delete cascade,
        name text not null check (name in ('logo', 'image-1', 'image-2')),
        png bytea not null,
        primary key (release_id, name)
      )`.execute(db);
      await sql`create table mia_mails (
        id bigserial primary key,
        release_id uuid not null references mia_releases(id) on delete cascade,
        recipient text not null,
        job_id text,
        sent_at timestamptz not null default now()
      )`.execute(db);
      await sql`create index mia_mails_recipient_sent_at on mia_mails (recipient, sent_at)`.execute(db);
    },
  },
  {
    id: 'public-generators/0002_mia_confirmations',
    async up(db) {
      // an address that is not a verified account's receives a press release only after its owner
      // clicks the link of a confirmation mail (which carries nothing a sender chose)
      await sql`create table mia_recipients (
        recipient text primary key,
        confirmed_at timestamptz not null default now()
      )`.execute(db);
      await sql`create table mia_confirmations (
        token text primary key,
        release_id uuid not null references mia_releases(id) on delete cascade,
        recipient text not null,
        created_at timestamptz not null default now(),
        used_at timestamptz
      )`.execute(db);
      await sql`create index mia_confirmations_recipient on mia_confirmations (recipient, created_at)`.execute(db);
    },
  },
];
