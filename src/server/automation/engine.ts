import type { ContributionRegistry } from '../../core/contributions';
import type { EventBus } from '../../core/event-bus';
import type { Db } from '../db/database';
import type { WorkspaceOwners } from '../auth/users';
import type { CombinationFactsService } from '../catalogue/combination-facts';
import type { FileStore } from '../files/file-store';
import type { TextGenerator } from '../ai/text-generation/text-generator';
import type { Mailer } from '../mail/mailer';
import type { JobQueue } from '../queue/job-queue';
import { HttpError, badRequest, notFound } from '../http/errors';
import { ConnectorNotFoundError } from './errors';
import { JobStore, type JobEnd, type JobRow, type StepRow } from './job-store';
import type { TriggerPayload } from './kinds';
import { announceStart, noticeOfFailure } from './notices';
import { KnownWebhooks } from './webhook-cache';
import type { EngineOptions } from './options';
import { assertRunnable, assertSettings, planRecipe } from './plan';
import type { StepRuntime } from './steps';
import { JobRunner, queueRun, type RunnerLog } from './runner';
import { isForwardMove, nextSetupStatus, nextStarterStatus, SETUP_STATUSES } from './setup-status';
import type { RecipeSetupStatus, UserRecipeRecord } from '../../core/domain';
import type { JobStepView, JobView } from '../../core/wire-types';
import { summariseTrigger } from './summary';
import { UserRecipes, type RecipeRow } from './user-recipes';

export interface EngineDeps {
  db: Db;
  registry: ContributionRegistry;
  queue: JobQueue;
  events: EventBus;
  files: FileStore;
  text: TextGenerator;
  mailer: Mailer;
  log: RunnerLog;
  options: EngineOptions;
  publicUrl: string;
  /** the auth module's fragments naming a workspace's account (the Accounts service) */
  owners: WorkspaceOwners;
  /** the catalogue's fragments naming a combination's facts (the CombinationFacts service) */
  catalogue: CombinationFactsService;
  chatWebhookUrl?: string;
  /** the HTTP client of the chat announcement (tests pass a fake) */
  fetch?: typeof fetch;
  /** what typed steps are given (the Connections service, resolved when a step first needs it) */
  stepRuntime?: () => StepRuntime;
}

/** A run that could not be accepted: the job record exists (failed) and names why. */
export class RunRefusedError extends HttpError {
  constructor(
    readonly jobId: string,
    cause: HttpError,
  ) {
    super(cause.statusCode, cause.message, { ...cause.extra, job_id: jobId });
    this.name = 'RunRefusedError';
  }
}

/** A connector a recipe's steps need that the user has not connected. */
export interface MissingConnection {
  provider: string;
  /** as the connection widget names it ('Google Sheets') */
  name: string;
}

/**
 * Which of these step providers need an account the user has not connected (providers that need
 * no account, such as e-mail or the AI steps, are never missing). Given by whatever keeps the
 * connections (the polling module wires the Connections service in at start).
 */
export type ConnectionCheck = (managedUserId: number, providers: string[]) => Promise<MissingConnection[]>;

/** 'Google Drive', 'Google Drive and Google Sheets', 'A, B and C'. */
export function namesList(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** Start refused: the recipe's steps need a connection the user has not made (409, naming each). */
export class NotConnectedToStartError extends HttpError {
  constructor(readonly missing: MissingConnection[]) {
    super(409, `Connect ${namesList(missing.map((m) => m.name))} to start this workflow.`, { missing_connections: missing });
    this.name = 'NotConnectedToStartError';
  }
}

/** The setup screen's webhook call (spec section 4). */
export interface SetupCall {
  customer_id: unknown;
  email: unknown;
  instance: unknown;
  recipe_id: unknown;
  combination_id: unknown;
}

/** True for a body shaped like the setup screen's webhook call. */
export function isSetupCall(body: unknown): body is SetupCall {
  if (!body || typeof body !== 'object') return false;
  const b = body as Record<string, unknown>;
  return ['customer_id', 'instance', 'recipe_id', 'combination_id'].every((k) => k in b);
}

/**
 * A job and a job step as the jobs API shows them: one definition for the server and the screens,
 * from their JSON Schemas (schemas/automation/, generated into src/core/wire-types.ts).
 */
export type { JobView };
export type StepView = JobStepView;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function jobView(j: JobRow): JobView {
  return {
    id: j.id,
    recipe_id: j.recipe_id,
    combination_id: j.combination_id,
    status: j.status,
    title: j.title,
    trigger_summary: j.trigger_summary,
    created_at: iso(j.created_at)!,
    started_at: iso(j.started_at),
    completed_at: iso(j.completed_at),
    duration_ms: j.started_at && j.completed_at ? new Date(j.completed_at).getTime() - new Date(j.started_at).getTime() : null,
    attempt: j.attempt,
    error: j.error,
  };
}

export function stepView(s: StepRow): StepView {
  return {
    index: s.index,
    provider: s.provider,
    action: s.action,
    name: s.name,
    status: s.status,
    input_summary: s.input_summary,
    output_summary: s.output_summary,
    error: s.error,
    attempts: s.attempts,
    started_at: iso(s.started_at),
    completed_at: iso(s.completed_at),
  };
}

/**
 * The automation engine: runs users' recipes as durable jobs and answers the provider's
 * recipe calls (start, stop, the setup flow). Routes and the inbound mail listener call it;
 * the queue job 'automation.run' is its runner.
 */
export class AutomationEngine {
  readonly recipes: UserRecipes;
  readonly jobs: JobStore;
  readonly runner: JobRunner;

  private connectionCheck?: ConnectionCheck;
  private readonly webhooks: KnownWebhooks;

  constructor(private readonly deps: EngineDeps) {
    this.recipes = new UserRecipes(deps.db, deps.publicUrl, deps.owners, deps.catalogue);
    this.jobs = new JobStore(deps.db, deps.owners, deps.catalogue);
    this.webhooks = new KnownWebhooks({
      registry: deps.registry,
      jobs: this.jobs,
      queue: deps.queue,
      queued: (jobId) => deps.events.publish('job/status-changed', { jobId, status: 'queued' }),
    });
    this.runner = new JobRunner({
      db: deps.db,
      mailer: deps.mailer,
      jobs: this.jobs,
      recipes: this.recipes,
      registry: deps.registry,
      queue: deps.queue,
      files: deps.files,
      text: deps.text,
      log: deps.log,
      options: deps.options,
      stepRuntime: deps.stepRuntime,
      statusChanged: (jobId, status) => deps.events.publish('job/status-changed', { jobId, status }),
      settle: (job, recipe, status) => this.settle(job, recipe, status),
      finished: (job, recipe, status, error) => this.finished(job, recipe, status, error),
    });
  }

  /**
   * Runs a recipe with a trigger payload: records the job with its steps and queues it. A
   * recipe with an action no plugin contributes gets a failed job naming it, and the call
   * throws RunRefusedError ('Connector not found. …') — nothing pretends to run.
   */
  async run(recipe: RecipeRow, payload: TriggerPayload, opts: { summaryPrefix?: string } = {}): Promise<{ jobId: string }> {
    const plan = planRecipe(recipe.template, this.deps.registry);
    const triggerSummary = `${opts.summaryPrefix ?? ''}${summariseTrigger(payload)}`;
    const jobId = await this.jobs.create({ recipe, plan, payload, title: recipe.name, triggerSummary });
    this.deps.events.publish('job/status-changed', { jobId, status: 'queued' });
    try {
      assertRunnable(plan, { needTrigger: false });
    } catch (e) {
      if (!(e instanceof ConnectorNotFoundError)) throw e;
      const job = await this.jobs.job(jobId);
      const missing = plan.find((s) => s.kind === 'action' && !s.definition)!;
      await this.jobs.stepFailed(jobId, missing.index, { error: e.message, inputSummary: '', final: true });
      if (await this.jobs.finish(jobId, 'failed', e.message, this.settle(job!, recipe, 'failed'))) {
        this.deps.events.publish('job/status-changed', { jobId, status: 'failed' });
        await this.finished(job!, recipe, 'failed', e.message);
      }
      throw new RunRefusedError(jobId, e);
    }
    await queueRun(this.deps.queue, jobId, { key: `${jobId}.1` });
    return { jobId };
  }

  /** Keeps what a later call to this webhook needs (see KnownWebhooks). */
  rememberWebhook(token: string, recipe: RecipeRow, catalogueRecipe: string | null): void {
    this.webhooks.remember(token, recipe, catalogueRecipe);
  }

  /** True when runKnownWebhook may take this call. */
  knowsWebhook(token: string): boolean {
    return this.webhooks.knows(token);
  }

  /**
   * A plain webhook call (fields only) to a recipe whose webhook ran before, recorded in one
   * statement and queued (KnownWebhooks.run); undefined when the caller must read the recipe
   * and call run().
   */
  runKnownWebhook(token: string, payload: TriggerPayload): Promise<{ jobId: string } | undefined> {
    return this.webhooks.run(token, payload);
  }

  /** Where start() learns which connections a recipe's steps lack (wired in by the polling module). */
  useConnectionCheck(check: ConnectionCheck): void {
    this.connectionCheck = check;
  }

  /** The connections a recipe's steps need that its owner has not made (none when nothing checks). */
  async missingConnections(recipe: RecipeRow): Promise<MissingConnection[]> {
    if (!this.connectionCheck) return [];
    const providers = [...new Set(recipe.template.steps.map((s) => s.provider))];
    return this.connectionCheck(recipe.managedUserId, providers);
  }

  /** The caller's recipe, or 404 (another user's id is unknown, never forbidden). */
  async ownRecipe(managedUserId: number, recipeId: number): Promise<RecipeRow> {
    await this.recipes.ensureFor(managedUserId);
    const recipe = await this.recipes.owned(managedUserId, recipeId);
    if (!recipe) throw notFound('Recipe not found.');
    return recipe;
  }

  /**
   * Starts a recipe (spec section 4): refused with 'Connector not found.' when a step is not
   * installed, and with 'Connect Google Sheets to start this workflow.' (409, naming every missing
   * one) while a connector its steps need is not connected — the combination's authorisation rule
   * (e.g. 1: Drive or Sheets) decides its card only, never whether it may run; moves the setup status (the starter: 'no started' → started; a combination's own
   * recipe: ready → complete, or straight to complete when it completes on start or needs no
   * starter); announces the start in the chat webhook when one is configured.
   */
  async start(managedUserId: number, recipeId: number): Promise<{ running: boolean; recipe: RecipeRow }> {
    const recipe = await this.ownRecipe(managedUserId, recipeId);
    const plan = planRecipe(recipe.template, this.deps.registry);
    assertRunnable(plan, { needTrigger: true });
    assertSettings(plan);
    const missing = await this.missingConnections(recipe);
    if (missing.length) throw new NotConnectedToStartError(missing);
    await this.recipes.setRunning(recipe.id, true);
    const next = recipe.combinationId === 0 ? nextStarterStatus(recipe.status, 'started') : nextSetupStatus(recipe.status, 'recipe-started', recipe.facts);
    await this.recipes.setStatus(recipe.id, recipe.status, next);
    this.deps.events.publish('recipe/started', { combinationId: recipe.combinationId, recipeId: recipe.id });
    if (!recipe.running) void this.announceStart(recipe);
    return { running: true, recipe: { ...recipe, running: true, status: next } };
  }

  /** Stops a recipe: webhook calls are refused until it starts again; its jobs finish. */
  async stop(managedUserId: number, recipeId: number): Promise<{ running: boolean }> {
    const recipe = await this.ownRecipe(managedUserId, recipeId);
    await this.recipes.setRunning(recipe.id, false);
    this.deps.events.publish('recipe/stopped', { combinationId: recipe.combinationId, recipeId: recipe.id });
    return { running: false };
  }

  /**
   * The setup screen's webhook call to a record's webhook (spec section 4): moves the record's
   * setup status and, for a combination with a starter recipe, starts the starter and queues
   * its run for this combination (whose success makes the record ready).
   */
  async setupCall(recipe: RecipeRow, call: SetupCall): Promise<{ status: 'ok' }> {
    if (recipe.combinationId === 0) throw badRequest('The setup call goes to the webhook of the combination being set up, not the starter recipe.');
    if (Number(call.combination_id) !== recipe.combinationId) {
      throw badRequest(`This webhook belongs to combination ${recipe.combinationId}, not ${String(call.combination_id).slice(0, 20)}.`);
    }
    const starter = await this.recipes.forCombination(recipe.managedUserId, 0);
    const recipeId = Number(call.recipe_id);
    if (recipeId !== recipe.id && recipeId !== starter?.id) throw badRequest("This recipe is not one of this combination's recipes.");
    const next = nextSetupStatus(recipe.status, 'setup-call', recipe.facts);
    const moved = await this.recipes.setStatus(recipe.id, recipe.status, next);
    if (moved && next === 'started' && starter) {
      if (!starter.running) await this.start(recipe.managedUserId, starter.id);
      const payload: TriggerPayload = {
        source: 'setup',
        data: {
          combination_id: recipe.combinationId,
          customer_id: call.customer_id ?? null,
          instance: call.instance ?? null,
          connectors: recipe.template.steps.map((s) => s.provider).filter((p, i, all) => all.indexOf(p) === i),
        },
        files: [],
      };
      await this.run({ ...starter, running: true }, payload, { summaryPrefix: `Setup of "${recipe.name}": ` });
    }
    return { status: 'ok' };
  }

  /**
   * PUT workatoRecipeStatus: sets a record's setup status. Only the four statuses of spec
   * section 3, and only forward (complete is final); the same status is a no-op.
   */
  async setSetupStatus(managedUserId: number, recipeId: number, status: unknown): Promise<UserRecipeRecord> {
    if (typeof status !== 'string' || !(SETUP_STATUSES as readonly string[]).includes(status)) {
      throw badRequest(`The status must be one of ${SETUP_STATUSES.map((s) => `'${s}'`).join(', ')}.`);
    }
    const recipe = await this.ownRecipe(managedUserId, recipeId);
    const to = status as RecipeSetupStatus;
    if (!isForwardMove(recipe.status, to)) throw new HttpError(409, `The setup status cannot go back from '${recipe.status}' to '${to}'.`);
    await this.recipes.setStatus(recipe.id, recipe.status, to);
    const records = await this.recipes.records(managedUserId);
    const record = records.find((r) => r.recipe_id === recipe.id);
    if (!record) throw notFound('Recipe not found.');
    return record;
  }

  /** Runs a failed job again from its failed step (same job, next attempt). */
  async retry(managedUserId: number, jobId: string): Promise<JobView> {
    const job = await this.ownJob(managedUserId, jobId);
    if (job.status !== 'failed') throw new HttpError(409, 'Only a failed job can be retried.');
    const recipe = await this.recipes.byId(job.recipe_id);
    if (recipe) assertRunnable(planRecipe(recipe.template, this.deps.registry), { needTrigger: false });
    if (!(await this.jobs.reopen(jobId))) throw new HttpError(409, 'Only a failed job can be retried.');
    this.deps.events.publish('job/status-changed', { jobId, status: 'queued' });
    await queueRun(this.deps.queue, jobId, { key: `${jobId}.${job.attempt + 1}` });
    return jobView((await this.jobs.job(jobId))!);
  }

  /** A new job with the same trigger payload. */
  async rerun(managedUserId: number, jobId: string): Promise<{ jobId: string }> {
    const job = await this.ownJob(managedUserId, jobId);
    const recipe = await this.ownRecipe(managedUserId, job.recipe_id);
    return this.run(recipe, job.trigger_payload, { summaryPrefix: 'Run again: ' });
  }

  /** The caller's job, or 404. */
  async ownJob(managedUserId: number, jobId: string): Promise<JobRow> {
    const job = await this.jobs.job(jobId);
    if (!job || job.managed_user_id !== managedUserId) throw notFound('Job not found.');
    return job;
  }

  /**
   * A job's consequences: the recipe's counts and the starter's setup moves. They are written in
   * the transaction that ends the job (JobStore.finish), so whoever sees the job finished sees
   * them too. The count is part of the ending statement; only a starter's success needs more.
   */
  private settle(job: JobRow, recipe: RecipeRow | undefined, status: 'succeeded' | 'failed'): Pick<JobEnd, 'countRecipeId' | 'settle'> {
    if (!recipe) return {};
    if (status !== 'succeeded' || recipe.combinationId !== 0) return { countRecipeId: recipe.id };
    return {
      countRecipeId: recipe.id,
      settle: async (trx) => {
        const recipes = new UserRecipes(trx, this.deps.publicUrl, this.deps.owners, this.deps.catalogue);
        const fresh = await recipes.byId(recipe.id);
        if (fresh) await recipes.setStatus(fresh.id, fresh.status, nextStarterStatus(fresh.status, 'succeeded'));
        const target = Number(job.trigger_payload?.data?.combination_id);
        if (Number.isInteger(target) && target > 0) {
          const rec = await recipes.forCombination(recipe.managedUserId, target);
          if (rec) await recipes.setStatus(rec.id, rec.status, nextSetupStatus(rec.status, 'starter-succeeded', rec.facts));
        }
      },
    };
  }

  /** After a job's end: the failure e-mail. */
  private async finished(job: JobRow, recipe: RecipeRow | undefined, status: 'succeeded' | 'failed', error: string | null): Promise<void> {
    if (!recipe || status !== 'failed') return;
    await noticeOfFailure(
      { db: this.deps.db, queue: this.deps.queue, publicUrl: this.deps.publicUrl, intervalMs: this.deps.options.failureNoticeIntervalMs, log: this.deps.log },
      job,
      recipe,
      error,
    );
  }

  /** Posts the start to CHAT_WEBHOOK_URL (server-side); failures are logged only (spec section 8). */
  private announceStart(recipe: RecipeRow): Promise<void> {
    return announceStart({ chatWebhookUrl: this.deps.chatWebhookUrl, fetch: this.deps.fetch, log: this.deps.log }, recipe);
  }
}
