import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { TriggerPayload } from './kinds';
import type { PlannedStep } from './plan';
import type { AutomationJobStatus, AutomationStepStatus } from './schema';
import './schema';

export interface JobRow {
  id: string;
  managed_user_id: number;
  user_id: number;
  recipe_id: number;
  combination_id: number;
  status: AutomationJobStatus;
  title: string;
  trigger_summary: string;
  trigger_payload: TriggerPayload;
  attempt: number;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
}

export interface StepRow {
  index: number;
  provider: string;
  action: string;
  name: string;
  status: AutomationStepStatus;
  input_summary: string | null;
  output_summary: string | null;
  output: unknown;
  error: string | null;
  attempts: number;
  started_at: Date | null;
  completed_at: Date | null;
}

export type ClaimResult = { kind: 'claimed'; job: JobRow } | { kind: 'busy' } | { kind: 'leased' } | { kind: 'done' } | { kind: 'missing' };

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

/** The job and step records of the engine (automation_jobs, automation_steps). */
export class JobStore {
  constructor(private readonly db: Db) {}

  /**
   * Records a new job and its steps in one transaction: the trigger step (index 0) has
   * succeeded with the payload as its output, the actions wait.
   */
  async create(input: {
    recipe: { id: number; managedUserId: number; userId: number; combinationId: number };
    plan: PlannedStep[];
    payload: TriggerPayload;
    title: string;
    triggerSummary: string;
  }): Promise<string> {
    const id = randomUUID();
    const now = new Date();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('automation_jobs')
        .values({
          id,
          managed_user_id: input.recipe.managedUserId,
          user_id: input.recipe.userId,
          recipe_id: input.recipe.id,
          combination_id: input.recipe.combinationId,
          status: 'queued',
          title: input.title,
          trigger_summary: input.triggerSummary,
          trigger_payload: json(input.payload),
          error: null,
          lease_until: null,
          started_at: null,
          completed_at: null,
        })
        .execute();
      await trx
        .insertInto('automation_steps')
        .values(
          input.plan.map((s) => ({
            job_id: id,
            index: s.index,
            provider: s.provider,
            action: s.action,
            name: s.name,
            status: s.index === 0 ? ('succeeded' as const) : ('pending' as const),
            input_summary: s.index === 0 ? input.triggerSummary : null,
            output_summary: s.index === 0 ? input.triggerSummary : null,
            output: s.index === 0 ? json(input.payload) : null,
            error: null,
            attempts: s.index === 0 ? 1 : 0,
            started_at: s.index === 0 ? now : null,
            completed_at: s.index === 0 ? now : null,
          })),
        )
        .execute();
    });
    return id;
  }

  async job(id: string): Promise<JobRow | undefined> {
    if (!isUuid(id)) return undefined;
    return (await this.db.selectFrom('automation_jobs').select([...JOB_COLUMNS]).where('id', '=', id).executeTakeFirst()) as JobRow | undefined;
  }

  async steps(jobId: string): Promise<StepRow[]> {
    return (await this.db
      .selectFrom('automation_steps')
      .select(['index', 'provider', 'action', 'name', 'status', 'input_summary', 'output_summary', 'output', 'error', 'attempts', 'started_at', 'completed_at'])
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
   * 'done' when it has finished. The check and the claim happen under a per-user advisory lock,
   * so two processes never both take the last free slot.
   */
  async claim(jobId: string, limit: number, leaseMs: number): Promise<ClaimResult> {
    return this.db.transaction().execute(async (trx) => {
      const head = await trx.selectFrom('automation_jobs').select(['managed_user_id', 'status']).where('id', '=', jobId).executeTakeFirst();
      if (!head) return { kind: 'missing' } as const;
      if (head.status === 'succeeded' || head.status === 'failed') return { kind: 'done' } as const;
      await sql`select pg_advisory_xact_lock(727090, ${head.managed_user_id})`.execute(trx);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from automation_jobs
        where managed_user_id = ${head.managed_user_id} and status = 'running' and lease_until > now() and id <> ${jobId}`.execute(trx);
      if (rows[0].n >= limit) return { kind: 'busy' } as const;
      const job = await trx
        .updateTable('automation_jobs')
        .set({
          status: 'running',
          started_at: sql<Date>`coalesce(started_at, now())`,
          lease_until: sql<Date>`now() + ${leaseMs}::double precision * interval '1 millisecond'`,
        })
        .where('id', '=', jobId)
        .where('status', 'in', ['queued', 'running'])
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', sql<Date>`now()`)]))
        .returning([...JOB_COLUMNS])
        .executeTakeFirst();
      return job ? ({ kind: 'claimed', job: job as JobRow } as const) : ({ kind: 'leased' } as const);
    });
  }

  async renewLease(jobId: string, leaseMs: number): Promise<void> {
    await sql`update automation_jobs set lease_until = now() + ${leaseMs}::double precision * interval '1 millisecond'
      where id = ${jobId} and status = 'running'`.execute(this.db);
  }

  /** Gives the job back while it waits for a retry: it stays running but takes no slot. */
  async release(jobId: string): Promise<void> {
    await this.db.updateTable('automation_jobs').set({ lease_until: null }).where('id', '=', jobId).execute();
  }

  async stepStarted(jobId: string, index: number, attempts: number): Promise<void> {
    await this.db
      .updateTable('automation_steps')
      .set({ status: 'running', attempts, started_at: sql<Date>`coalesce(started_at, now())`, error: null })
      .where('job_id', '=', jobId)
      .where('index', '=', index)
      .execute();
  }

  async stepSucceeded(jobId: string, index: number, fields: { output: string; inputSummary: string; outputSummary: string }): Promise<void> {
    await this.db
      .updateTable('automation_steps')
      .set({ status: 'succeeded', output: fields.output, input_summary: fields.inputSummary, output_summary: fields.outputSummary, error: null, completed_at: new Date() })
      .where('job_id', '=', jobId)
      .where('index', '=', index)
      .execute();
  }

  async stepFailed(jobId: string, index: number, fields: { error: string; inputSummary: string; final: boolean }): Promise<void> {
    await this.db
      .updateTable('automation_steps')
      .set({ status: 'failed', error: fields.error, input_summary: fields.inputSummary, completed_at: fields.final ? new Date() : null })
      .where('job_id', '=', jobId)
      .where('index', '=', index)
      .execute();
  }

  /** Ends a job: its status, its error, and the steps after a failure marked skipped. */
  async finish(jobId: string, status: 'succeeded' | 'failed', error: string | null, settle?: (trx: Db) => Promise<void>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('automation_jobs')
        .set({ status, error, completed_at: new Date(), lease_until: null })
        .where('id', '=', jobId)
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirst();
      if (status === 'failed') {
        await trx.updateTable('automation_steps').set({ status: 'skipped' }).where('job_id', '=', jobId).where('status', 'in', ['pending', 'running']).execute();
      }
      const ended = Number(res.numUpdatedRows) > 0;
      // the job's consequences commit with its end: whoever sees it finished sees them too
      if (ended && settle) await settle(trx);
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
