/**
 * Run Workflow (spec 7): the recipe's webhook of the combination is found in the user's recipe
 * records (GET /api/platform/userByWorkatoRecipe/{workatoId}/) and the user data is POSTed to it.
 * The outcome says what really happened: the job the engine recorded (its id, which the page then
 * follows to its end), or precisely why nothing ran — the recipe is not set up, it is stopped (the
 * page offers Start), or the engine refused the call. Never a success without a job.
 */
export const NOT_SET_UP = 'This workflow cannot run yet: its automation is not set up.';
export const RUN_STARTED = 'Workflow started: the run will appear in the job history.';
export const STOPPED = 'This workflow is stopped, so nothing ran. Start it, then run it again.';

export type RunOutcome =
  /** the engine recorded a job for the run */
  | { kind: 'started'; jobId: string; recipeId: number }
  | { kind: 'not-set-up' }
  /** the recipe is stopped: nothing ran; the page offers Start */
  | { kind: 'stopped'; recipeId: number }
  /** the engine refused the run (or the call failed): its message */
  | { kind: 'failed'; error: string };

/** The part of the API client this needs (useApi()). */
export interface Api {
  get<T = unknown>(path: string): Promise<T>;
}

export interface RecipeRecordRef {
  recipe_id: number;
  combination: number;
  workato_webhook: string | null;
}

/** The user's recipe record of a combination, or undefined. */
export async function recordFor(api: Api, workatoId: number | null, combinationId: number): Promise<RecipeRecordRef | undefined> {
  if (workatoId === null) return undefined;
  const reply = await api.get<{ workato_recipes?: RecipeRecordRef[] }>(`/api/platform/userByWorkatoRecipe/${workatoId}/`);
  return (reply?.workato_recipes ?? []).find((r) => r.combination === combinationId);
}

/** The webhook of a combination's recipe record, or null. */
export async function findWebhook(api: Api, workatoId: number | null, combinationId: number): Promise<string | null> {
  return (await recordFor(api, workatoId, combinationId))?.workato_webhook || null;
}

/**
 * What a run call's reply means: 200 with the job's id is a run; 409 'This workflow is stopped…'
 * is a stopped recipe; anything else is a refusal with the engine's message.
 */
export function outcomeOfReply(recipeId: number, status: number, body: unknown): RunOutcome {
  const b = (body && typeof body === 'object' ? body : {}) as { job_id?: unknown; message?: unknown };
  if (status >= 200 && status < 300 && typeof b.job_id === 'string' && b.job_id) return { kind: 'started', jobId: b.job_id, recipeId };
  const message = typeof b.message === 'string' && b.message ? b.message : `The workflow answered HTTP ${status}.`;
  if (status === 409 && /stopped/i.test(message)) return { kind: 'stopped', recipeId };
  return { kind: 'failed', error: message };
}

/**
 * Posts `payload` (plus email and user_id from GET /api/platform/userId) to the combination's
 * webhook and says what happened (see RunOutcome). Errors are logged (spec 8) and come back as
 * 'failed' with their message, for the page to show.
 */
export async function runWorkflow(
  api: Api,
  workatoId: number | null,
  combinationId: number,
  payload: Record<string, unknown>,
  apiBase = '',
  fetchImpl: typeof fetch = (...a) => fetch(...a),
): Promise<RunOutcome> {
  const record = await recordFor(api, workatoId, combinationId);
  const webhook = record?.workato_webhook;
  if (!record || !webhook) return { kind: 'not-set-up' };
  try {
    const me = await api.get<{ userID?: number; email?: string }>('/api/platform/userId');
    const url = webhook.startsWith('/') ? apiBase + webhook : webhook;
    const res = await fetchImpl(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...payload, email: me?.email, user_id: me?.userID }),
    });
    const body = await res.json().catch(() => undefined);
    const outcome = outcomeOfReply(record.recipe_id, res.status, body);
    if (outcome.kind === 'failed') console.error('Run Workflow: the webhook refused the run', outcome.error);
    return outcome;
  } catch (error) {
    console.error('Run Workflow: the webhook call failed', error);
    return { kind: 'failed', error: 'The workflow could not be reached. Check your connection and try again.' };
  }
}
