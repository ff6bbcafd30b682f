import type { useApi } from '../../src/app';
import type { ExtractionFiles } from '../document-extraction/ui/extraction-files';

type ApiClient = ReturnType<typeof useApi>;

export const INVOICE_WORKFLOW = 10004;
export const NOT_SET_UP_MESSAGE = 'This workflow cannot run yet: its automation is not set up.';
export const SENT_MESSAGE = 'The invoice was sent to your workflow.';

interface CombinationRef {
  id: number;
  running?: boolean;
  recipe_id?: number | null;
}

interface RecipeRecord {
  recipe_id: number;
  combination: number;
  workato_webhook: string | null;
}

/**
 * The combination whose recipe Run Workflow uses: the one the page was opened from (the
 * `combination` query parameter), else the first of the user's running recipes of workflow
 * 10004, else none.
 */
export async function chooseCombination(api: Pick<ApiClient, 'get'>, fromPage: number | undefined): Promise<number | undefined> {
  if (fromPage !== undefined) return fromPage;
  const workflow = await api.get<{ combinations?: CombinationRef[] }>(`/api/platform/workflows/${INVOICE_WORKFLOW}/`);
  return (workflow.combinations ?? []).find((c) => c.running && c.recipe_id)?.id;
}

/**
 * The webhook of the user's recipe for a combination (GET userByWorkatoRecipe), or undefined
 * when the user has no recipe for it or its automation has no webhook yet.
 */
export async function webhookOf(api: Pick<ApiClient, 'get'>, workatoId: number, combination: number): Promise<string | undefined> {
  const reply = await api.get<{ workato_recipes?: RecipeRecord[] }>(`/api/platform/userByWorkatoRecipe/${workatoId}/`);
  const record = (reply.workato_recipes ?? []).find((r) => r.combination === combination && r.workato_webhook);
  return record?.workato_webhook ?? undefined;
}

export type RunOutcome = { sent: true } | { sent: false; message: string } | { sent: false; failed: Error };

/**
 * Run Workflow (spec section 7): posts the invoice (email, name, binary) to the webhook of the
 * user's recipe. Without a webhook it says the automation is not set up; it never pretends.
 * A webhook or network failure is reported as `failed` (the page logs it: spec section 8).
 */
export async function runInvoiceWorkflow(
  deps: { api: Pick<ApiClient, 'get'>; files: Pick<ExtractionFiles, 'postToWebhook'>; workatoId: number | null },
  file: File,
  fromPage: number | undefined,
): Promise<RunOutcome> {
  if (!deps.workatoId) return { sent: false, message: NOT_SET_UP_MESSAGE };
  const combination = await chooseCombination(deps.api, fromPage);
  if (combination === undefined) return { sent: false, message: NOT_SET_UP_MESSAGE };
  const webhook = await webhookOf(deps.api, deps.workatoId, combination);
  if (!webhook) return { sent: false, message: NOT_SET_UP_MESSAGE };
  const who = await deps.api.get<{ email?: string }>('/api/platform/userId');
  const form = new FormData();
  form.append('email', who.email ?? '');
  form.append('name', file.name);
  form.append('binary', file, file.name);
  try {
    await deps.files.postToWebhook(webhook, form);
    return { sent: true };
  } catch (e) {
    return { sent: false, failed: e instanceof Error ? e : new Error(String(e)) };
  }
}
