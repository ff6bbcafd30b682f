import { sql } from 'kysely';
import type { Migration } from '../db/migrate';

export const catalogueMigrations: Migration[] = [
  {
    id: 'catalogue/0001_catalogue',
    async up(db) {
      // Catalogue ids are the public ids of the spec (combination 10 is reconciliation...), so
      // they are given by the contributing plugin, never generated. No foreign keys between
      // solutions, workflows and combinations: a plugin may be removed, and its entries are then
      // hidden rather than deleted (votes keep pointing at them).
      await sql`create table solutions (
        id integer primary key check (id > 0),
        name text not null,
        descrption text not null,
        icon text not null,
        status text not null,
        author_first_name text not null,
        created_time timestamptz not null,
        plugin_id text not null,
        hidden boolean not null default false,
        seeded_at timestamptz not null default now()
      )`.execute(db);
      await sql`create table workflows (
        id integer primary key check (id > 0),
        solution_id integer not null,
        name text not null,
        descrption text not null,
        icon text not null,
        plugin_id text not null,
        hidden boolean not null default false,
        seeded_at timestamptz not null default now()
      )`.execute(db);
      await sql`create index workflows_solution_idx on workflows (solution_id)`.execute(db);
      await sql`create table combinations (
        id integer primary key check (id > 0),
        workflow_id integer not null,
        "order" integer not null,
        name text not null,
        sub_title text not null,
        icon text not null,
        created_time timestamptz not null,
        status text not null,
        enabled boolean not null,
        recommended boolean not null,
        connectors jsonb not null,
        triggers jsonb not null,
        recipe jsonb not null,
        plugin_id text not null,
        hidden boolean not null default false,
        seeded_at timestamptz not null default now()
      )`.execute(db);
      await sql`create index combinations_workflow_idx on combinations (workflow_id)`.execute(db);
      // votes, marketing_events, connections and user_recipes were created here too; each is owned by
      // its own module now (votes/0001_votes, marketing/0001_events, connections/0000_connections,
      // automation/0000_user_recipes), which creates it when missing
    },
  },
  {
    // what the core needs to know about a combination is a field of its catalogue entry
    id: 'catalogue/0002_setup_flags',
    async up(db) {
      await sql`alter table combinations
        add column starter_recipe boolean not null default false,
        add column completes_on_start boolean not null default false,
        add column new_combination_target boolean not null default false`.execute(db);
    },
  },
  {
    // a workflow's minutes per run (its catalogue field), written by the seed. Databases where the
    // monitoring plugin's first migration already added the column keep it as it is.
    id: 'catalogue/0003_minutes_per_run',
    async up(db) {
      await sql`alter table workflows add column if not exists minutes_per_run double precision`.execute(db);
    },
  },
];
