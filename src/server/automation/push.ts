import { token } from '../../core/di';
import type { FileStore } from '../files/file-store';
import { HttpError, badRequest, forbidden, notFound } from '../http/errors';
import type { AutomationEngine } from './engine';
import { stepKey, type FileRef, type TriggerPayload } from './kinds';
import { planRecipe } from './plan';
import type { ContributionRegistry } from '../../core/contributions';
import { payloadProblem, webhookPayloadOf } from './webhook-payload';

/** A run a plugin starts for a recipe's owner (a push trigger). */
export interface PushRunRequest {
  /** the owner's automation (managed-user) id: `userOf(request).workatoId` in a route */
  managedUserId: number | null;
  /** which recipe: its id … */
  recipeId?: number;
  /** … or the owner's recipe of a combination */
  combinationId?: number;
  /** the trigger the recipe must start from ('acme:order_placed'): a plugin starts only recipes of its own trigger */
  trigger?: string;
  /** the run's fields, checked against the trigger's payload schema as a webhook call is */
  data: Record<string, unknown>;
  /** files of the owner's FileStore the run brings (each is checked to be the owner's) */
  files?: FileRef[];
}

/**
 * Push triggers: a plugin route starts a run of a recipe for its owner with a payload, by the
 * webhook's path — the recipe must be running, the fields must fit its trigger's payload schema
 * (400 naming the field otherwise), the job is recorded and queued, and its id returned.
 * Refusals are HttpErrors a route can let through: 404 (no such recipe of this owner), 409
 * (stopped, or another trigger), 400 (payload).
 */
export interface PushTriggerService {
  run(request: PushRunRequest): Promise<{ jobId: string }>;
}

/** The push-trigger service (see PushTriggerService). */
export const PushTriggers = token<PushTriggerService>('PushTriggers');

export function pushTriggerService(deps: { engine: AutomationEngine; registry: ContributionRegistry; files: FileStore }): PushTriggerService {
  return {
    async run(request) {
      const { managedUserId } = request;
      if (typeof managedUserId !== 'number' || !Number.isInteger(managedUserId)) throw forbidden('You have no automation workspace yet.');
      if ((request.recipeId === undefined) === (request.combinationId === undefined))
        throw new Error('A push run names the recipe by recipeId or by combinationId (one of them).');
      const { engine } = deps;
      await engine.recipes.ensureFor(managedUserId);
      const recipe =
        request.recipeId !== undefined
          ? await engine.recipes.owned(managedUserId, request.recipeId)
          : await engine.recipes.forCombination(managedUserId, request.combinationId!);
      if (!recipe) throw notFound('Recipe not found.');
      const plan = planRecipe(recipe.template, deps.registry);
      if (request.trigger && stepKey(plan[0]) !== request.trigger) {
        throw new HttpError(409, `This workflow starts from ${stepKey(plan[0])}, not ${request.trigger}.`);
      }
      if (!recipe.running) throw new HttpError(409, 'This workflow is stopped: start it, then try again.');
      const files = request.files ?? [];
      const problem = payloadProblem(webhookPayloadOf(plan[0]?.trigger), request.data ?? {}, { filesGiven: files.length > 0 });
      if (problem) throw badRequest(problem);
      for (const f of files) {
        // only the owner's own files: stat throws (404) for another owner's or a missing one
        await deps.files.stat(recipe.userId, f.bucket, f.key);
      }
      const payload: TriggerPayload = {
        source: 'push',
        data: { ...request.data },
        files: files.map((f) => ({ bucket: f.bucket, key: f.key, name: f.name, kind: f.kind, size: f.size })),
      };
      return engine.run(recipe, payload);
    },
  };
}
