import type { ContributionRegistry } from '../../core/contributions';
import type { FileStore } from '../files/file-store';
import type { TextGenerator } from '../ai/text-generation/text-generator';
import type { JobContext, JobQueue } from '../queue/job-queue';
import { AI_PROVIDER } from '../catalogue/building-blocks';
import { retryDelayMs, withTimeout } from './backoff';
import { ConnectorNotFoundError, OutputTooLargeError, PermanentStepError } from './errors';
import type { JobEnd, JobRow, JobStore, StepCheckpoint, StepRow } from './job-store';
import { stepKey, type ActionContext, type ActionDefinition } from './kinds';
import { planRecipe, type PlannedStep } from './plan';
import type { EngineOptions } from './options';
import { describeOutput, summarise, summaryLine } from './summary';
import type { RecipeRow, UserRecipes } from './user-recipes';
import type { Db } from '../db/database';
import type { Mailer } from '../mail/mailer';
import { ledgerOf, mailOf, recordsOf } from './side-effects';
import { takesMail } from './inbound-mail';
import { checkStepData, isTypedAction, stepContextOf, type StepRuntime } from './steps';

export const RUN_JOB = 'automation.run';

/** A step still running after this long is marked running (quicker ones get their checkpoint only), ms. */
export const RUNNING_MARK_MS = 50;

export interface RunJobData {
  jobId: string;
}

export interface RunnerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface RunnerDeps {
  db: Db;
  mailer: Mailer;
  jobs: JobStore;
  recipes: UserRecipes;
  registry: ContributionRegistry;
  queue: JobQueue;
  files: FileStore;
  text: TextGenerator;
  log: RunnerLog;
  options: EngineOptions;
  /** what typed steps (defineAction) are given: the connections, the HTTP client's test allowance */
  stepRuntime?: () => StepRuntime;
  /** a job's status changed (publishes 'job/status-changed') */
  statusChanged(jobId: string, status: string): void;
  /** a job's consequences (counts, setup transitions), written in the transaction that ends it */
  settle(job: JobRow, recipe: RecipeRow | undefined, status: 'succeeded' | 'failed'): Pick<JobEnd, 'countRecipeId' | 'settle'>;
  /** a job ended: the failure e-mail */
  finished(job: JobRow, recipe: RecipeRow | undefined, status: 'succeeded' | 'failed', error: string | null): Promise<void>;
}

/** What one pass over a job did. */
export type RunOutcome = 'succeeded' | 'failed' | 'retry-later' | 'busy' | 'skipped';

function errorText(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  return String(e);
}

/** Queues a pass over a job (now, or after a delay). */
export async function queueRun(queue: JobQueue, jobId: string, opts: { delayMs?: number; key?: string } = {}): Promise<void> {
  await queue.add<RunJobData>(RUN_JOB, { jobId }, { attempts: 5, backoffMs: 1000, delayMs: opts.delayMs, jobId: opts.key });
}

/**
 * Runs jobs: the handler of the queue job 'automation.run'. One pass takes the job under its
 * owner's concurrency limit (over it: the pass is queued again with a delay, no worker waits),
 * then runs the steps from the first one that has not succeeded, feeding each the checkpointed
 * output of the one before. A failed step is tried again by a later pass after an exponential
 * backoff with jitter, until its tries are used up; then the job fails. A process that dies
 * mid-job leaves its lease to run out, and the queue's own recovery runs the pass again: the
 * job resumes after its last written checkpoint, and the steps run again carry the same
 * idempotency keys, so their side effects happen once. One pass costs one statement to take the
 * job (with its recipe and steps), none per quick step, and one to end it (see runSteps).
 */
export class JobRunner {
  constructor(private readonly deps: RunnerDeps) {}

  async run(data: RunJobData, queueJob?: JobContext): Promise<RunOutcome> {
    const { jobs, options } = this.deps;
    const claim = await jobs.claim(data.jobId, options.userConcurrency, options.leaseMs);
    if (claim.kind === 'busy') {
      await queueRun(this.deps.queue, data.jobId, { delayMs: Math.round(options.busyDelayMs * (0.75 + Math.random() * 0.5)) });
      return 'busy';
    }
    if (claim.kind === 'leased') {
      // another process holds it; if that process died, this pass comes back after the lease
      await queueRun(this.deps.queue, data.jobId, { delayMs: options.leaseMs });
      return 'skipped';
    }
    if (claim.kind !== 'claimed') return 'skipped';
    const { job, recipe, steps } = claim;
    this.deps.statusChanged(job.id, 'running');
    const heartbeat = setInterval(
      () => {
        jobs.renewLease(job.id, options.leaseMs).catch((e) => this.deps.log.warn({ err: e, jobId: job.id }, 'Could not renew a job lease'));
      },
      Math.max(50, Math.floor(options.leaseMs / 3)),
    );
    heartbeat.unref();
    try {
      return await this.runSteps(job, recipe, steps, queueJob);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** The recipe's plan, built once per template (a recipe's template changes only with its combination). */
  private planOf(recipe: RecipeRow): PlannedStep[] {
    const key = `${recipe.combinationId}:${JSON.stringify(recipe.template)}`;
    let plan = this.plans.get(key);
    if (!plan) {
      plan = planRecipe(recipe.template, this.deps.registry);
      if (this.plans.size >= 500) this.plans.clear();
      this.plans.set(key, plan);
    }
    return plan;
  }

  private readonly plans = new Map<string, PlannedStep[]>();

  /**
   * Runs the steps from the first one that has not succeeded. Checkpoints are written in groups:
   * a quick step's waits in `pending` and goes with the next write — the running mark of a step
   * that takes a while, a failure, or the job's end (JobStore.finish) — so a job of quick steps
   * costs no write per step. A crash can only lose checkpoints of steps that ended moments
   * before it; they run again, their side effects de-duplicated by the same idempotency keys.
   */
  private async runSteps(job: JobRow, recipe: RecipeRow | undefined, rows: StepRow[], queueJob?: JobContext): Promise<RunOutcome> {
    const { jobs } = this.deps;
    if (!recipe) return this.fail(job, undefined, 'The recipe of this job no longer exists.');
    const plan = this.planOf(recipe);
    let input: unknown = job.trigger_payload;
    const pending: StepCheckpoint[] = [];
    for (const row of rows) {
      if (row.status === 'succeeded') {
        input = row.output;
        continue;
      }
      const step = plan[row.index];
      const definition = step && stepKey(step) === `${row.provider}:${row.action}` ? step.definition : undefined;
      if (!definition) {
        const error = new ConnectorNotFoundError([`${row.provider}:${row.action}`]).message;
        await jobs.stepFailed(job.id, row.index, { error, inputSummary: summarise(input), final: true }, pending.splice(0));
        return this.fail(job, recipe, error);
      }
      const result = await this.runStep(job, recipe, row, step, definition, input, pending, queueJob);
      if (result.kind === 'ok') {
        input = result.output;
        continue;
      }
      if (result.kind === 'retry') {
        await jobs.release(job.id);
        await queueRun(this.deps.queue, job.id, { delayMs: result.delayMs });
        return 'retry-later';
      }
      return this.fail(job, recipe, `Step ${row.index} "${row.name}" failed: ${result.error}`);
    }
    if (await jobs.finish(job.id, 'succeeded', null, { ...this.deps.settle(job, recipe, 'succeeded'), checkpoints: pending })) {
      this.deps.statusChanged(job.id, 'succeeded');
      await this.deps.finished(job, recipe, 'succeeded', null);
    }
    return 'succeeded';
  }

  /**
   * Runs one try of a step. Its checkpoint joins `pending` (see runSteps); a failure is written
   * at once with the pending ones. A step still running after RUNNING_MARK_MS is marked running
   * meanwhile (with the pending checkpoints), so the jobs screen shows what is under way.
   */
  private async runStep(
    job: JobRow,
    recipe: RecipeRow,
    row: StepRow,
    step: PlannedStep,
    definition: ActionDefinition,
    input: unknown,
    pending: StepCheckpoint[],
    queueJob?: JobContext,
  ): Promise<{ kind: 'ok'; output: unknown } | { kind: 'retry'; delayMs: number } | { kind: 'failed'; error: string }> {
    const { jobs, options } = this.deps;
    const attempt = row.attempts + 1;
    const maxAttempts = Math.max(1, definition.retries ?? options.defaultAttempts);
    const timeoutMs = definition.timeoutMs ?? (row.provider === AI_PROVIDER ? options.aiStepTimeoutMs : options.stepTimeoutMs);
    const inputSummary = summarise(input);
    const startedAt = new Date();
    let marking: Promise<void> | undefined;
    const mark = setTimeout(() => {
      const written = pending.splice(0);
      marking = jobs.stepStarted(job.id, row.index, attempt, written).catch((e) => {
        pending.unshift(...written); // written with the next write instead
        this.deps.log.warn({ err: e, jobId: job.id }, 'Could not mark a step running');
      });
    }, RUNNING_MARK_MS);
    const settled = async () => {
      clearTimeout(mark);
      await marking;
    };
    const prefix = `[job ${job.id} step ${row.index} ${row.provider}:${row.action}]`;
    const log = {
      info: (msg: string) => this.deps.log.info({ jobId: job.id, step: row.index }, `${prefix} ${msg}`),
      warn: (msg: string) => this.deps.log.warn({ jobId: job.id, step: row.index }, `${prefix} ${msg}`),
    };
    try {
      const output = await withTimeout(row.name, timeoutMs, (signal) => {
        const ctx: ActionContext = {
          userId: recipe.userId,
          managedUserId: recipe.managedUserId,
          ownerEmail: recipe.email,
          mailStarted: takesMail(recipe) || job.trigger_payload?.source === 'manual_email',
          recipeId: recipe.id,
          combinationId: recipe.combinationId,
          jobId: job.id,
          stepIndex: row.index,
          attempt,
          idempotencyKey: `${job.id}:${row.index}`,
          params: step.params,
          trigger: job.trigger_payload,
          files: this.deps.files,
          text: this.deps.text,
          mail: mailOf(this.deps.mailer),
          ledger: ledgerOf(this.deps.db),
          records: recordsOf(this.deps.db, { managedUserId: recipe.managedUserId, recipeId: recipe.id, jobId: job.id }),
          log,
          signal,
          progress: (pct) => void queueJob?.progress(pct).catch(() => undefined),
          contributions: this.deps.registry,
        };
        if (!isTypedAction(definition)) return definition.run(input, ctx);
        // a declared input schema is checked before the step runs, its output schema after (below)
        checkStepData(definition.step, 'input', input, log);
        return stepContextOf(definition, input, ctx, this.deps.stepRuntime?.() ?? {}, definition.services).then((typed) => definition.runTyped(input, typed));
      });
      const text = JSON.stringify(output ?? null);
      if (Buffer.byteLength(text) > options.maxOutputBytes) throw new OutputTooLargeError(Buffer.byteLength(text), options.maxOutputBytes);
      const checkpointed: unknown = JSON.parse(text);
      if (isTypedAction(definition)) checkStepData(definition.step, 'output', checkpointed, log);
      await settled();
      const details = describeOutput(output);
      pending.push({
        index: row.index,
        output: text,
        inputSummary,
        outputSummary: summaryLine(details),
        outputDetails: JSON.stringify(details),
        attempts: attempt,
        startedAt,
        completedAt: new Date(),
      });
      return { kind: 'ok', output: checkpointed };
    } catch (e) {
      await settled();
      const error = errorText(e);
      const final = e instanceof PermanentStepError || attempt >= maxAttempts;
      await jobs.stepFailed(job.id, row.index, { error, inputSummary, final, attempts: attempt, startedAt }, pending.splice(0));
      if (final) return { kind: 'failed', error };
      const delayMs = retryDelayMs(attempt, options.backoffBaseMs, options.backoffMaxMs);
      this.deps.log.warn(
        { jobId: job.id, step: row.index, attempt, delayMs },
        `${prefix} failed (try ${attempt} of ${maxAttempts}), retrying in ${delayMs} ms: ${error}`,
      );
      return { kind: 'retry', delayMs };
    }
  }

  private async fail(job: JobRow, recipe: RecipeRow | undefined, error: string): Promise<RunOutcome> {
    if (await this.deps.jobs.finish(job.id, 'failed', error, this.deps.settle(job, recipe, 'failed'))) {
      this.deps.statusChanged(job.id, 'failed');
      await this.deps.finished(job, recipe, 'failed', error);
    }
    return 'failed';
  }
}
