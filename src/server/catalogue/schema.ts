import type { ColumnType, Generated } from 'kysely';
import type { Connector, Trigger } from '../../core/domain';
import type { RecipeTemplateSeed } from './types';

/**
 * The catalogue's tables, added to the Kysely schema by declaration merging. Catalogue rows
 * (solutions, workflows, combinations) are owned by the plugin that contributed them
 * (`plugin_id`) and are never deleted: an entry no plugin contributes any more is `hidden`, so
 * the votes cast for it are kept if its plugin comes back.
 */
declare module '../db/schema' {
  interface Database {
    solutions: SolutionsTable;
    workflows: WorkflowsTable;
    combinations: CombinationsTable;
    votes: VotesTable;
    marketing_events: MarketingEventsTable;
    connections: ConnectionsTable;
  }
}

type Json<T> = ColumnType<T, string, string>;

export interface CatalogueRowBase {
  plugin_id: string;
  hidden: Generated<boolean>;
  seeded_at: ColumnType<Date, Date | undefined, Date>;
}

export interface SolutionsTable extends CatalogueRowBase {
  id: number;
  name: string;
  descrption: string;
  icon: string;
  status: string;
  author_first_name: string;
  created_time: ColumnType<Date, Date | string, Date | string>;
}

export interface WorkflowsTable extends CatalogueRowBase {
  id: number;
  solution_id: number;
  name: string;
  descrption: string;
  icon: string;
  /** minutes of manual work one successful run saves (catalogue field); null when not said */
  minutes_per_run: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface CombinationsTable extends CatalogueRowBase {
  id: number;
  workflow_id: number;
  order: number;
  name: string;
  sub_title: string;
  icon: string;
  created_time: ColumnType<Date, Date | string, Date | string>;
  status: string;
  enabled: boolean;
  recommended: boolean;
  /** as stored: each connector with its declared catalogue id and name */
  connectors: Json<Connector[]>;
  /** as stored: each trigger with its declared catalogue id, name and icon */
  triggers: Json<Trigger[]>;
  recipe: Json<RecipeTemplateSeed>;
  starter_recipe: Generated<boolean>;
  completes_on_start: Generated<boolean>;
  new_combination_target: Generated<boolean>;
}

export interface VotesTable {
  user_id: number;
  combination_id: number;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface MarketingEventsTable {
  id: Generated<number>;
  user_id: number;
  topic: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** A managed user's connection to a third-party app (the automation provider's view of it). */
export interface ConnectionsTable {
  id: Generated<number>;
  managed_user_id: number;
  provider: string;
  name: string;
  /** 'success' when connected, null when not (provider wording) */
  authorization_status: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}
