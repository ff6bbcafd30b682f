/**
 * Run Workflow (spec 7): the recipe's webhook of the combination is found in the user's recipe
 * records (GET /api/platform/userByWorkatoRecipe/{workatoId}/) and the user data is POSTed to it;
 * success is HTTP 200. Without a webhook the workflow cannot run yet, and the caller says so.
 */
export const NOT_SET_UP = 'This workflow cannot run yet: its automation is not set up.';
export const RUN_STARTED = 'Workflow started: the run will appear in the job history.';

export type RunOutcome = { kind: 'started' } | { kind: 'not-set-up' } | { kind: 'failed'; error: string };

/** The part of the API client this needs (useApi()). */
export interface Api {
  get<T = unknown>(path: string): Promise<T>;
}

/** The webhook of a combination's recipe record, or null. */
export async function findWebhook(api: Api, workatoId: number | null, combinationId: number): Promise<string | null> {
  if (workatoId === null) return null;
  const reply = await api.get<{ workato_recipes?: { combination: number; workato_webhook: string | null }[] }>(`/api/platform/userByWorkatoRecipe/${workatoId}/`);
  const record = (reply?.workato_recipes ?? []).find((r) => r.combination === combinationId);
  return record?.workato_webhook || null;
}

/**
 * Posts `payload` (plus email and user_id from GET /api/platform/userId) to the combination's
 * webhook. Webhook errors are logged only (spec 8) and come back as 'failed'.
 */
export async function runWorkflow(api: Api, workatoId: number | null, combinationId: number, payload: Record<string, unknown>, apiBase = '', fetchImpl: typeof fetch = (...a) => fetch(...a)): Promise<RunOutcome> {
  const webhook = await findWebhook(api, workatoId, combinationId);
  if (!webhook) return { kind: 'not-set-up' };
  try {
    const me = await api.get<{ userID?: number; email?: string }>('/api/platform/userId');
    const url = webhook.startsWith('/') ? apiBase + webhook : webhook;
    const res = await fetchImpl(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...payload, email: me?.email, user_id: me?.userID }) });
    if (res.status !== 200) throw new Error(`The webhook answered HTTP ${res.status}.`);
    return { kind: 'started' };
  } catch (error) {
    console.error('Run Workflow: the webhook call failed', error);
    return { kind: 'failed', error: (error as Error).message };
  }
}
