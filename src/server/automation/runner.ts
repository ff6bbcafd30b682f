import type { ContributionRegistry } from '../../core/contributions';
import type { FileStore } from '../files/file-store';
import type { TextGenerator } from '../ai/text-generation/text-generator';
import type { JobContext, JobQueue } from '../queue/job-queue';
import { AI_PROVIDER } from '../catalogue/building-blocks';
import { retryDelayMs, withTimeout } from './backoff';
import { ConnectorNotFoundError, OutputTooLargeError, PermanentStepError } from './errors';
import type { JobRow, JobStore, StepRow } from './job-store';
import { stepKey, type ActionContext, type ActionDefinition } from './kinds';
import { planRecipe, type PlannedStep } from './plan';
import type { EngineOptions } from './options';
import { summarise } from './summary';
import type { RecipeRow, UserRecipes } from './user-recipes';
import type { Db } from '../db/database';
import type { Mailer } from '../mail/mailer';
import { ledgerOf, mailOf, recordsOf } from './side-effects';

export const RUN_JOB = 'automation.run';

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
  /** a job's status changed (publishes 'job/status-changed') */
  statusChanged(jobId: string, status: string): void;
  /** a job's consequences (counts, setup transitions), written in the transaction that ends it */
  settle(job: JobRow, recipe: RecipeRow | undefined, status: 'succeeded' | 'failed'): (trx: Db) => Promise<void>;
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
 * job resumes at the unfinished step, whose side effects carry the same idempotency key.
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
    const job = claim.job;
    this.deps.statusChanged(job.id, 'running');
    const heartbeat = setInterval(() => {
      jobs.renewLease(job.id, options.leaseMs).catch((e) => this.deps.log.warn({ err: e, jobId: job.id }, 'Could not renew a job lease'));
    }, Math.max(50, Math.floor(options.leaseMs / 3)));
    heartbeat.unref();
    try {
      return await this.runSteps(job, queueJob);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async runSteps(job: JobRow, queueJob?: JobContext): Promise<RunOutcome> {
    const { jobs } = this.deps;
    const recipe = await this.deps.recipes.byId(job.recipe_id);
    if (!recipe) return this.fail(job, undefined, 'The recipe of this job no longer exists.');
    const plan = planRecipe(recipe.template, this.deps.registry);
    const rows = await jobs.steps(job.id);
    let input: unknown = job.trigger_payload;
    for (const row of rows) {
      if (row.status === 'succeeded') {
        input = row.output;
        continue;
      }
      const step = plan[row.index];
      const definition = step && stepKey(step) === `${row.provider}:${row.action}` ? step.definition : undefined;
      if (!definition) {
        const error = new ConnectorNotFoundError([`${row.provider}:${row.action}`]).message;
        await jobs.stepFailed(job.id, row.index, { error, inputSummary: summarise(input), final: true });
        return this.fail(job, recipe, error);
      }
      const result = await this.runStep(job, recipe, row, step, definition, input, queueJob);
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
    if (await jobs.finish(job.id, 'succeeded', null, this.deps.settle(job, recipe, 'succeeded'))) {
      this.deps.statusChanged(job.id, 'succeeded');
      await this.deps.finished(job, recipe, 'succeeded', null);
    }
    return 'succeeded';
  }

  private async runStep(
    job: JobRow,
    recipe: RecipeRow,
    row: StepRow,
    step: PlannedStep,
    definition: ActionDefinition,
    input: unknown,
    queueJob?: JobContext,
  ): Promise<{ kind: 'ok'; output: unknown } | { kind: 'retry'; delayMs: number } | { kind: 'failed'; error: string }> {
    const { jobs, options } = this.deps;
    const attempt = row.attempts + 1;
    const maxAttempts = Math.max(1, definition.retries ?? options.defaultAttempts);
    const timeoutMs = definition.timeoutMs ?? (row.provider === AI_PROVIDER ? options.aiStepTimeoutMs : options.stepTimeoutMs);
    const inputSummary = summarise(input);
    await jobs.stepStarted(job.id, row.index, attempt);
    const prefix = `[job ${job.id} step ${row.index} ${row.provider}:${row.action}]`;
    try {
      const output = await withTimeout(row.name, timeoutMs, (signal) => {
        const ctx: ActionContext = {
          userId: recipe.userId,
          managedUserId: recipe.managedUserId,
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
          log: {
            info: (msg) => this.deps.log.info({ jobId: job.id, step: row.index }, `${prefix} ${msg}`),
            warn: (msg) => this.deps.log.warn({ jobId: job.id, step: row.index }, `${prefix} ${msg}`),
          },
          signal,
          progress: (pct) => void queueJob?.progress(pct).catch(() => undefined),
          contributions: this.deps.registry,
        };
        return definition.run(input, ctx);
      });
      const text = JSON.stringify(output ?? null);
      if (Buffer.byteLength(text) > options.maxOutputBytes) throw new OutputTooLargeError(Buffer.byteLength(text), options.maxOutputBytes);
      await jobs.stepSucceeded(job.id, row.index, { output: text, inputSummary, outputSummary: summarise(output) });
      return { kind: 'ok', output: JSON.parse(text) };
    } catch (e) {
      const error = errorText(e);
      const final = e instanceof PermanentStepError || attempt >= maxAttempts;
      await jobs.stepFailed(job.id, row.index, { error, inputSummary, final });
      if (final) return { kind: 'failed', error };
      const delayMs = retryDelayMs(attempt, options.backoffBaseMs, options.backoffMaxMs);
      this.deps.log.warn({ jobId: job.id, step: row.index, attempt, delayMs }, `${prefix} failed (try ${attempt} of ${maxAttempts}), retrying in ${delayMs} ms: ${error}`);
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
