import { ApiError, outcomeOfReply, type RunOutcome, type useApi } from '../../src/app';

type ApiClient = ReturnType<typeof useApi>;

export const INVOICE_WORKFLOW = 10004;
export const NOT_SET_UP_MESSAGE = 'This workflow cannot run yet: its automation is not set up.';

interface CombinationRef {
  id: number;
  running?: boolean;
}

interface RecipeRecord {
  recipe_id: number;
  combination: number;
}

interface EngineStep {
  kind: 'trigger' | 'action';
  provider: string;
  action: string;
}

/**
 * Whether a recipe can take the invoice this page uploads: one whose steps fetch their file
 * themselves (combination 1 downloads it from its Drive folder by id) cannot.
 */
export function takesAnUploadedFile(steps: readonly EngineStep[]): boolean {
  return !steps.some((s) => s.kind === 'action' && s.action === 'download_file');
}

/**
 * The user's recipe Run Workflow runs: the combination the page was opened from (the
 * `combination` query parameter), else one of workflow 10004's combinations whose recipe takes an
 * uploaded file, a running one first (a stopped one is still chosen, so the page can offer its
 * Start). Undefined when the user has none.
 */
export async function chooseRecipe(
  api: Pick<ApiClient, 'get'>,
  workatoId: number,
  fromPage: number | undefined,
): Promise<{ combination: number; recipeId: number } | undefined> {
  const [workflow, records] = await Promise.all([
    fromPage === undefined
      ? api.get<{ combinations?: CombinationRef[] }>(`/api/platform/workflows/${INVOICE_WORKFLOW}/`)
      : Promise.resolve({ combinations: [{ id: fromPage }] as CombinationRef[] }),
    api.get<{ workato_recipes?: RecipeRecord[] }>(`/api/platform/userByWorkatoRecipe/${workatoId}/`),
  ]);
  const candidates = [...(workflow.combinations ?? [])].sort((a, b) => Number(!!b.running) - Number(!!a.running));
  for (const c of candidates) {
    const record = (records.workato_recipes ?? []).find((r) => r.combination === c.id);
    if (!record) continue;
    if (fromPage !== undefined) return { combination: c.id, recipeId: record.recipe_id };
    const { recipe } = await api.get<{ recipe: { steps: EngineStep[] } }>(`/api/automation/recipes/${record.recipe_id}`);
    if (takesAnUploadedFile(recipe.steps)) return { combination: c.id, recipeId: record.recipe_id };
  }
  return undefined;
}

/**
 * Run Workflow: uploads the invoice to the chosen recipe (its manual-upload trigger, as the
 * logged-in user) and says what happened — the job it started, a stopped recipe (the page offers
 * Start), or the engine's refusal. Without a recipe it says the automation is not set up; it
 * never pretends.
 */
export async function runInvoiceWorkflow(
  deps: { api: Pick<ApiClient, 'get' | 'upload'>; workatoId: number | null },
  file: File,
  fromPage: number | undefined,
): Promise<RunOutcome> {
  if (!deps.workatoId) return { kind: 'not-set-up' };
  const chosen = await chooseRecipe(deps.api, deps.workatoId, fromPage);
  if (!chosen) return { kind: 'not-set-up' };
  const form = new FormData();
  form.append('file', file, file.name);
  try {
    const reply = await deps.api.upload<{ job_id?: string }>(`/api/automation/recipes/${chosen.recipeId}/uploads`, form);
    return outcomeOfReply(chosen.recipeId, 200, reply);
  } catch (e) {
    if (e instanceof ApiError) return outcomeOfReply(chosen.recipeId, e.status, e.body);
    console.warn('Run Workflow: the upload failed', e);
    return { kind: 'failed', error: 'The invoice could not be sent. Check your connection and try again.' };
  }
}
