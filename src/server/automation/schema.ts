import type { ColumnType, Generated } from 'kysely';
import type { TriggerPayload } from './kinds';

/** The engine's tables (migration 'automation/0001_jobs'), added to the Kysely schema. */
declare module '../db/schema' {
  interface Database {
    automation_jobs: AutomationJobsTable;
    automation_steps: AutomationStepsTable;
    automation_sent_keys: AutomationSentKeysTable;
    automation_records: AutomationRecordsTable;
    automation_notices: AutomationNoticesTable;
    user_recipes: UserRecipesTable;
  }
}

type Json<T> = ColumnType<T, string, string>;
type Stamp = ColumnType<Date, Date | undefined, Date>;

export type AutomationJobStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export type AutomationStepStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'skipped';

/** One run of a user's recipe. */
export interface AutomationJobsTable {
  id: string;
  managed_user_id: number;
  user_id: number;
  recipe_id: number;
  combination_id: number;
  status: AutomationJobStatus;
  title: string;
  trigger_summary: string;
  trigger_payload: Json<TriggerPayload>;
  /** runs of the job (1 + retries asked for by the user) */
  attempt: Generated<number>;
  error: string | null;
  /** while a process runs the job; an expired lease means its process stopped */
  lease_until: Date | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  started_at: Date | null;
  completed_at: Date | null;
}

/** One step of a job, with its checkpointed output. */
export interface AutomationStepsTable {
  job_id: string;
  index: number;
  provider: string;
  action: string;
  name: string;
  status: AutomationStepStatus;
  input_summary: string | null;
  output_summary: string | null;
  output: ColumnType<unknown, string | null, string | null>;
  /** what the step produced, as the job view shows it (OutputGroup[] of summary.ts), written with the checkpoint */
  output_details: ColumnType<unknown, string | null | undefined, string | null>;
  error: string | null;
  attempts: Generated<number>;
  started_at: Date | null;
  completed_at: Date | null;
}

/** Side effects already done, by idempotency key (the e-mail action records each message). */
export interface AutomationSentKeysTable {
  key: string;
  kind: string;
  created_at: Stamp;
}

/** Rows kept by the 'flowmatic:store_record' action. */
export interface AutomationRecordsTable {
  id: Generated<number>;
  managed_user_id: number;
  recipe_id: number;
  job_id: string;
  idempotency_key: string;
  data: Json<unknown>;
  created_at: Stamp;
}

/** When a recipe's owner was last told of a failed job (at most one e-mail an hour). */
export interface AutomationNoticesTable {
  recipe_id: number;
  sent_at: Date;
}

/** A managed user's recipe; `id` is the provider recipe id, combination 0 the starter recipe. */
export interface UserRecipesTable {
  id: Generated<number>;
  managed_user_id: number;
  combination_id: number;
  name: string;
  status: 'no started' | 'ready' | 'started' | 'complete';
  running: Generated<boolean>;
  job_succeeded_count: Generated<number>;
  job_failed_count: Generated<number>;
  workato_webhook: string | null;
  folder_id: string | null;
  sheet_id: string | null;
  location: string | null;
  description: string | null;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  /** the secret end of the recipe's webhook address (automation/0001_jobs) */
  webhook_token: string | null;
  /** the owner's own settings of typed steps, by step index ({"1": {...}}), over the template's params (automation/0005_step_params) */
  step_params: ColumnType<Record<string, Record<string, unknown>> | null, string | null | undefined, string | null>;
}
