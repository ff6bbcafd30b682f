import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { WorkspaceOwners } from '../auth/users';
import type { CombinationFactsService } from '../catalogue/combination-facts';
import type { TriggerPayload } from './kinds';
import type { PlannedStep } from './plan';
import type { AutomationJobStatus, AutomationJobsTable, AutomationStepsTable } from './schema';
import { recipeRowOf, type RecipeColumns, type RecipeRow } from './user-recipes';
import './schema';

/** A job record as read (every column but the lease). */
export type JobRow = Omit<Selectable<AutomationJobsTable>, 'lease_until'>;

/** A step record as read, without its job id. */
export type StepRow = Omit<Selectable<AutomationStepsTable>, 'job_id'>;

export type ClaimResult =
  | { kind: 'claimed'; job: JobRow; recipe: RecipeRow | undefined; steps: StepRow[] }
  | { kind: 'busy' }
  | { kind: 'leased' }
  | { kind: 'done' }
  | { kind: 'missing' };

/** A succeeded step's checkpoint. */
export interface StepCheckpoint {
  index: number;
  output: string;
  inputSummary: string;
  outputSummary: string;
  /** JSON text of what the step produced, as the job view shows it (describeOutput) */
  outputDetails: string;
  /** the try that succeeded */
  attempts: number;
  /** when the try began (kept if the step was marked running earlier) and ended */
  startedAt: Date;
  completedAt: Date;
}

/** What ends with a job (JobStore.finish), in the same transaction. */
export interface JobEnd {
  /** checkpoints of steps not written yet (the last step's, and quick ones before it) */
  checkpoints?: StepCheckpoint[];
  /** the recipe whose succeeded / failed count the job adds to (once per job: see finish) */
  countRecipeId?: number;
  /** further consequences (the starter's setup moves): the end then runs in a transaction */
  settle?: (trx: Db) => Promise<void>;
}

interface ClaimedColumns extends Omit<RecipeColumns, 'id'> {
  claim: unknown;
  id: number | null;
  steps: unknown;
}

function dateOrNull(v: unknown): Date | null {
  return v === null || v === undefined ? null : new Date(String(v));
}

/** Writes succeeded steps' checkpoints (one statement for any number of them). */
function checkpointsStatement(jobId: string, checkpoints: StepCheckpoint[]) {
  const rows = JSON.stringify(
    checkpoints.map((c) => ({
      index: c.index,
      output: c.output,
      input_summary: c.inputSummary,
      output_summary: c.outputSummary,
      output_details: c.outputDetails,
      attempts: c.attempts,
      started_at: c.startedAt.toISOString(),
      completed_at: c.completedAt.toISOString(),
    })),
  );
  return sql`update automation_steps as s set status = 'succeeded', output = cast(v.output as jsonb),
      input_summary = v.input_summary, output_summary = v.output_summary, output_details = cast(v.output_details as jsonb), error = null, attempts = v.attempts,
      started_at = coalesce(s.started_at, v.started_at), completed_at = v.completed_at
    from jsonb_to_recordset(cast(${rows}::text as jsonb))
      as v(index integer, output text, input_summary text, output_summary text, output_details text, attempts integer, started_at timestamptz, completed_at timestamptz)
    where s.job_id = ${jobId} and s.index = v.index`;
}

/** `, c as (<checkpoints>)` to put in front of a statement, or nothing. */
function withCheckpoints(jobId: string, checkpoints: StepCheckpoint[] | undefined) {
  return checkpoints?.length ? sql`with cp as (${checkpointsStatement(jobId, checkpoints)}) ` : sql``;
}

const JOB_COLUMNS = [
  'id',
  'managed_user_id',
  'user_id',
  'recipe_id',
  'combination_id',
  'status',
  'title',
  'trigger_summary',
  'trigger_payload',
  'attempt',
  'error',
  'created_at',
  'started_at',
  'completed_at',
] as const;

const json = (v: unknown): string => JSON.stringify(v ?? null);

/**
 * Inserts a new job's steps, for use after a CTE `j` that inserted the job (returning id,
 * trigger_payload, created_at): the trigger step (index 0) has succeeded with the payload as its
 * output, the actions wait.
 */
function insertSteps(plan: PlannedStep[], triggerSummary: string) {
  const steps = JSON.stringify(plan.map((s) => ({ index: s.index, provider: s.provider, action: s.action, name: s.name })));
  return sql`insert into automation_steps (job_id, index, provider, action, name, status, input_summary, output_summary, output, attempts, started_at, completed_at)
    select j.id, s.index, s.provider, s.action, s.name,
           case when s.index = 0 then 'succeeded' else 'pending' end,
           case when s.index = 0 then ${triggerSummary} end,
           case when s.index = 0 then ${triggerSummary} end,
           case when s.index = 0 then j.trigger_payload end,
           case when s.index = 0 then 1 else 0 end,
           case when s.index = 0 then j.created_at end,
           case when s.index = 0 then j.created_at end
    from j cross join jsonb_to_recordset(cast(${steps}::text as jsonb)) as s(index integer, provider text, action text, name text)`;
}

/** The job and step records of the engine (automation_jobs, automation_steps). */
export class JobStore {
  /**
   * `owners`: the auth module's fragments for a workspace's account (users and managed_users are
   * its tables); `catalogue`: the catalogue's for a combination's facts (combinations is its table).
   */
  constructor(
    private readonly db: Db,
    private readonly owners: WorkspaceOwners,
    private readonly catalogue: CombinationFactsService,
  ) {}

  /**
   * Records a new job and its steps in one statement: the trigger step (index 0) has succeeded
   * with the payload as its output, the actions wait.
   */
  async create(input: {
    recipe: { id: number; managedUserId: number; userId: number; combinationId: number };
    plan: PlannedStep[];
    payload: TriggerPayload;
    title: string;
    triggerSummary: string;
  }): Promise<string> {
    const id = randomUUID();
    await sql`
      with j as (
        insert into automation_jobs (id, managed_user_id, user_id, recipe_id, combination_id, status, title, trigger_summary, trigger_payload)
        values (${id}, ${input.recipe.managedUserId}, ${input.recipe.userId}, ${input.recipe.id}, ${input.recipe.combinationId}, 'queued',
                ${input.title}, ${input.triggerSummary}, cast(${json(input.payload)}::text as jsonb))
        returning id, trigger_payload, created_at
      )
      ${insertSteps(input.plan, input.triggerSummary)}`.execute(this.db);
    return id;
  }

  /**
   * Records a webhook call's job as create does, for a recipe whose webhook was called before,
   * in the statement that checks it still stands as it was then: the token still its own, the
   * recipe running, and its combination's recipe (what `plan` was made from) unchanged. The job
   * takes the recipe's name and owner as they are now. Undefined when the check fails: nothing
   * is written, and the caller takes the recipe afresh.
   */
  async createForWebhook(input: {
    token: string;
    recipeId: number;
    combinationId: number;
    /** the combination's recipe as read with the plan (JSON text; null: none); unused for the starter */
    catalogueRecipe: string | null;
    plan: PlannedStep[];
    payload: TriggerPayload;
    triggerSummary: string;
  }): Promise<string | undefined> {
    const id = randomUUID();
    const same =
      input.combinationId === 0
        ? sql`true` // the starter's template is the engine's own (STARTER_TEMPLATE)
        : sql`${this.catalogue.recipeOf(sql.ref('ur.combination_id'))} is not distinct from cast(${input.catalogueRecipe}::text as jsonb)`;
    const { rows } = await sql<{ created: number }>`
      with r as (
        select ur.id, ur.managed_user_id, ${this.owners.userIdOf(sql.ref('ur.managed_user_id'))} as user_id, ur.combination_id, ur.name
        from user_recipes ur
        where ur.webhook_token = ${input.token} and ur.id = ${input.recipeId} and ur.combination_id = ${input.combinationId}
          and ur.running and ${same}
      ),
      j as (
        insert into automation_jobs (id, managed_user_id, user_id, recipe_id, combination_id, status, title, trigger_summary, trigger_payload)
        select ${id}, r.managed_user_id, r.user_id, r.id, r.combination_id, 'queued', r.name, ${input.triggerSummary}, cast(${json(input.payload)}::text as jsonb)
        from r
        returning id, trigger_payload, created_at
      ),
      s as (
        ${insertSteps(input.plan, input.triggerSummary)}
      )
      select count(*)::int as created from j`.execute(this.db);
    return Number(rows[0]?.created ?? 0) > 0 ? id : undefined;
  }

  async job(id: string): Promise<JobRow | undefined> {
    if (!isUuid(id)) return undefined;
    return (await this.db
      .selectFrom('automation_jobs')
      .select([...JOB_COLUMNS])
      .where('id', '=', id)
      .executeTakeFirst()) as JobRow | undefined;
  }

  async steps(jobId: string): Promise<StepRow[]> {
    return (await this.db
      .selectFrom('automation_steps')
      .select([
        'index',
        'provider',
        'action',
        'name',
        'status',
        'input_summary',
        'output_summary',
        'output',
        'output_details',
        'error',
        'attempts',
        'started_at',
        'completed_at',
      ])
      .where('job_id', '=', jobId)
      .orderBy('index')
      .execute()) as StepRow[];
  }

  /** A recipe's jobs, newest first. */
  async listForRecipe(recipeId: number, limit: number): Promise<JobRow[]> {
    return (await this.db
      .selectFrom('automation_jobs')
      .select([...JOB_COLUMNS])
      .where('recipe_id', '=', recipeId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute()) as JobRow[];
  }

  /**
   * Takes a job to run it, under the owner's concurrency limit: 'busy' when the owner already
   * has `limit` jobs running (leases still valid), 'leased' when another process runs this one,
   * 'done' when it has finished. One round trip: the check and the claim happen in the
   * automation_claim function under a per-user advisory lock (so two processes never both take
   * the last free slot), and the job comes back with its recipe and its steps.
   */
  async claim(jobId: string, limit: number, leaseMs: number): Promise<ClaimResult> {
    if (!isUuid(jobId)) return { kind: 'missing' };
    const combination = sql.ref<number>('ur.combination_id');
    const { rows } = await sql<ClaimedColumns>`
      with c as materialized (select automation_claim(${jobId}, ${limit}, ${leaseMs}) as r)
      select c.r as claim,
        ur.id, ur.managed_user_id, ${this.owners.userIdOf(sql.ref('ur.managed_user_id'))} as user_id,
        ${this.owners.emailOf(sql.ref('ur.managed_user_id'))} as email, ur.combination_id, ur.name, ur.status, ur.running, ur.step_params,
        ${this.catalogue.recipeOf(combination)} as recipe, ${this.catalogue.starterRecipeOf(combination)} as starter_recipe,
        ${this.catalogue.completesOnStartOf(combination)} as completes_on_start,
        case when c.r->>'outcome' = 'claimed' then (
          select coalesce(json_agg(json_build_object('index', s.index, 'provider', s.provider, 'action', s.action, 'name', s.name,
              'status', s.status, 'input_summary', s.input_summary, 'output_summary', s.output_summary, 'output', s.output,
              'error', s.error, 'attempts', s.attempts, 'started_at', s.started_at, 'completed_at', s.completed_at) order by s.index), '[]'::json)
          from automation_steps s where s.job_id = ${jobId}) end as steps
      from c
      left join user_recipes ur on c.r->>'outcome' = 'claimed' and ur.id = (c.r->'job'->>'recipe_id')::integer`.execute(this.db);
    const row = rows[0];
    const claim = (typeof row.claim === 'string' ? JSON.parse(row.claim) : row.claim) as { outcome: ClaimResult['kind']; job?: Record<string, unknown> };
    if (claim.outcome !== 'claimed') return { kind: claim.outcome } as ClaimResult;
    const j = claim.job!;
    const job: JobRow = {
      id: String(j.id),
      managed_user_id: Number(j.managed_user_id),
      user_id: Number(j.user_id),
      recipe_id: Number(j.recipe_id),
      combination_id: Number(j.combination_id),
      status: j.status as AutomationJobStatus,
      title: String(j.title),
      trigger_summary: String(j.trigger_summary),
      trigger_payload: j.trigger_payload as TriggerPayload,
      attempt: Number(j.attempt),
      error: (j.error as string | null) ?? null,
      created_at: new Date(String(j.created_at)),
      started_at: dateOrNull(j.started_at),
      completed_at: dateOrNull(j.completed_at),
    };
    const rawSteps = (typeof row.steps === 'string' ? JSON.parse(row.steps) : row.steps) ?? [];
    const steps: StepRow[] = (rawSteps as Array<Record<string, unknown>>).map((x) => ({
      ...(x as unknown as StepRow),
      started_at: dateOrNull(x.started_at),
      completed_at: dateOrNull(x.completed_at),
    }));
    const recipe = row.id === null ? undefined : recipeRowOf(row as RecipeColumns);
    return { kind: 'claimed', job, recipe, steps };
  }

  async renewLease(jobId: string, leaseMs: number): Promise<void> {
    await sql`update automation_jobs set lease_until = now() + ${leaseMs}::double precision * interval '1 millisecond'
      where id = ${jobId} and status = 'running'`.execute(this.db);
  }

  /** Gives the job back while it waits for a retry: it stays running but takes no slot. */
  async release(jobId: string): Promise<void> {
    await this.db.updateTable('automation_jobs').set({ lease_until: null }).where('id', '=', jobId).execute();
  }

  /**
   * Marks a step running (written only for a step that takes a while: see JobRunner), with the
   * checkpoints of the quick steps before it that are not written yet.
   */
  async stepStarted(jobId: string, index: number, attempts: number, checkpoints?: StepCheckpoint[]): Promise<void> {
    await sql`${withCheckpoints(jobId, checkpoints)}update automation_steps set status = 'running', attempts = ${attempts}, started_at = coalesce(started_at, now()), error = null
      where job_id = ${jobId} and index = ${index} and status in ('pending', 'failed', 'running')`.execute(this.db);
  }

  /**
   * A failed try of a step (final: it will not be tried again), with the checkpoints of the steps
   * before it not written yet, so a retry resumes here.
   */
  async stepFailed(
    jobId: string,
    index: number,
    fields: { error: string; inputSummary: string; final: boolean; attempts?: number; startedAt?: Date },
    checkpoints?: StepCheckpoint[],
  ): Promise<void> {
    await sql`${withCheckpoints(jobId, checkpoints)}update automation_steps set status = 'failed', error = ${fields.error}, input_summary = ${fields.inputSummary},
        attempts = coalesce(${fields.attempts ?? null}::integer, attempts),
        started_at = coalesce(started_at, ${fields.startedAt?.toISOString() ?? null}::timestamptz),
        completed_at = ${fields.final ? sql`now()` : sql`null`}
      where job_id = ${jobId} and index = ${index}`.execute(this.db);
  }

  /**
   * Ends a job: its status, its error, the steps after a failure marked skipped, and its
   * consequences — the checkpoints not written yet, the recipe's count and any further settlement —
   * all in one transaction (one statement when there is no further settlement), so whoever sees
   * the job finished sees them too. False when the job had already ended.
   */
  async finish(jobId: string, status: 'succeeded' | 'failed', error: string | null, end: JobEnd = {}): Promise<boolean> {
    const checkpoint = end.checkpoints?.length ? sql`, s as (${checkpointsStatement(jobId, end.checkpoints)})` : sql``;
    const skip =
      status === 'failed'
        ? sql`, k as (update automation_steps set status = 'skipped' where job_id = ${jobId} and status in ('pending', 'running')
            and not (index = any(cast(${(end.checkpoints ?? []).map((c) => c.index)} as integer[]))) and exists (select 1 from j))`
        : sql``;
    // A run counts once, by its final state. A job only runs again (attempt > 1) after it
    // failed and was counted failed: retried to success it moves from failed to succeeded,
    // failing again it is already counted.
    const count =
      end.countRecipeId !== undefined
        ? status === 'succeeded'
          ? sql`, c as (update user_recipes set job_succeeded_count = job_succeeded_count + 1,
                job_failed_count = case when (select attempt from j) > 1 then greatest(job_failed_count - 1, 0) else job_failed_count end,
                updated_at = now() where id = ${end.countRecipeId} and exists (select 1 from j))`
          : sql`, c as (update user_recipes set job_failed_count = job_failed_count + 1, updated_at = now()
                where id = ${end.countRecipeId} and exists (select 1 from j where j.attempt = 1))`
        : sql``;
    const statement = sql<{ ended: number }>`
      with j as (
        update automation_jobs set status = ${status}, error = ${error}, completed_at = now(), lease_until = null
        where id = ${jobId} and status in ('queued', 'running')
        returning id, attempt
      )${checkpoint}${skip}${count}
      select count(*)::int as ended from j`;
    const run = async (db: Db) => Number((await statement.execute(db)).rows[0]?.ended ?? 0) > 0;
    if (!end.settle) return run(this.db);
    return this.db.transaction().execute(async (trx) => {
      const ended = await run(trx);
      if (ended) await end.settle!(trx);
      return ended;
    });
  }

  /**
   * Makes a failed job runnable again from its failed step: that step and the skipped ones wait
   * again with fresh tries; succeeded steps keep their checkpoints. False if it had not failed.
   */
  async reopen(jobId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('automation_jobs')
        .set((eb) => ({ status: 'queued', error: null, completed_at: null, lease_until: null, attempt: eb('attempt', '+', 1) }))
        .where('id', '=', jobId)
        .where('status', '=', 'failed')
        .executeTakeFirst();
      if (!Number(res.numUpdatedRows)) return false;
      await trx
        .updateTable('automation_steps')
        .set({ status: 'pending', error: null, attempts: 0, completed_at: null })
        .where('job_id', '=', jobId)
        .where('status', 'in', ['failed', 'skipped', 'running'])
        .execute();
      return true;
    });
  }
}

export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
