import type { ContributionRegistry } from '../../core/contributions';
import type { JobQueue } from '../queue/job-queue';
import type { JobStore } from './job-store';
import type { TriggerPayload } from './kinds';
import { assertRunnable, planRecipe, type PlannedStep } from './plan';
import { queueRun } from './runner';
import { summariseTrigger } from './summary';
import type { RecipeRow } from './user-recipes';

/** What a later call to a webhook that ran needs: only what cannot change unseen (the statement checks the rest). */
interface KnownWebhook {
  recipeId: number;
  combinationId: number;
  catalogueRecipe: string | null;
  plan: PlannedStep[];
}

/** At most this many webhooks are remembered; the oldest is forgotten first. */
const MAX_KNOWN = 10_000;

/**
 * Recipes whose webhook ran, by token: a later plain call records its job in one statement
 * (JobStore.createForWebhook) instead of reading the recipe first. Bounded; a webhook is
 * forgotten when the statement finds its recipe stopped or changed.
 */
export class KnownWebhooks {
  private readonly known = new Map<string, KnownWebhook>();

  constructor(
    private readonly deps: {
      registry: ContributionRegistry;
      jobs: JobStore;
      queue: JobQueue;
      /** a job was queued (publishes 'job/status-changed') */
      queued(jobId: string): void;
    },
  ) {}

  /** Keeps what a later call to this webhook needs (a running recipe whose steps are all installed). */
  remember(token: string, recipe: RecipeRow, catalogueRecipe: string | null): void {
    if (!recipe.running) return;
    const plan = planRecipe(recipe.template, this.deps.registry);
    try {
      assertRunnable(plan, { needTrigger: false });
    } catch {
      return; // such a call records a failed job: the full path does that
    }
    if (this.known.size >= MAX_KNOWN && !this.known.has(token)) this.known.delete(this.known.keys().next().value as string);
    this.known.set(token, { recipeId: recipe.id, combinationId: recipe.combinationId, catalogueRecipe, plan });
  }

  /** True when run() may take a call to this webhook. */
  knows(token: string): boolean {
    return this.known.has(token);
  }

  /**
   * A plain call (fields only) to a webhook that ran before: the job is recorded, if the recipe
   * still runs with the same steps, in one statement, and queued. Undefined when the recipe is
   * unknown or changed (it is then forgotten): the caller reads it and runs it the long way.
   */
  async run(token: string, payload: TriggerPayload): Promise<{ jobId: string } | undefined> {
    const known = this.known.get(token);
    if (!known) return undefined;
    const jobId = await this.deps.jobs.createForWebhook({ token, ...known, payload, triggerSummary: summariseTrigger(payload) });
    if (!jobId) {
      if (this.known.get(token) === known) this.known.delete(token);
      return undefined;
    }
    this.deps.queued(jobId);
    await queueRun(this.deps.queue, jobId, { key: `${jobId}.1` });
    return { jobId };
  }
}
