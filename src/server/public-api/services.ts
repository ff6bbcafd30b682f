import type { FastifyInstance } from 'fastify';
import type { AutomationEngine } from '../automation/engine';
import type { RecipeControl } from '../provider/recipe-control';
import type { ProviderStore } from '../provider/store';
import type { SqlCatalogueStore } from '../catalogue/store';
import type { FileStore } from '../files/file-store';
import type { FileRef, TriggerPayload } from '../automation/kinds';
import type { TokenService } from '../auth/token-service';
import { planRecipe } from '../automation/plan';
import { payloadProblem, webhookPayloadOf } from '../automation/webhook-payload';
import { AUTOMATION_BUCKET } from '../automation/routes';
import { ALL_FILE_KINDS } from '../files/file-kinds';
import { uploadKindsByWorkflow, WorkflowUploads } from '../files/workflow-uploads';
import { decodeBase64File } from '../combination/base64-upload';
import { badRequest, HttpError } from '../http/errors';
import type { ContributionRegistry } from '../../core/contributions';
import type { Caller, Outcome } from './operations';

/** Where the API keeps the files it is given, apart from the page's uploads. */
export const API_FILES_BUCKET = 'api';
/** How long extract_invoice waits for its job (the extraction route's longest wait). */
const EXTRACT_WAIT_SECONDS = 60;
const RECONCILIATION_COMBINATION = 10;
const FINANCIAL_ANALYSIS_COMBINATION = 11;
const MAX_FIELDS = 100;

export interface PublicApiDeps {
  engine: AutomationEngine;
  control: RecipeControl;
  provider: ProviderStore;
  catalogue: SqlCatalogueStore;
  files: FileStore;
  tokens: TokenService;
  registry: ContributionRegistry;
  maxUploadBytes: number;
}

/**
 * What the operations do, for the key's user. Recipes, runs and jobs go through the automation
 * engine's services (RecipeControl, the engine's run with the webhook's payload check); the AI
 * workflows, which the plugins own, are asked through their own routes (Fastify's inject) as the
 * key's user, so validation, scoping, rate limits and replies are exactly the browser's.
 */
export class PublicApiServices {
  /** the server, for the calls to the plugins' routes (set when the routes are registered) */
  app?: FastifyInstance;
  private readonly userTokens = new Map<string, { token: string; exp: number }>();

  constructor(private readonly deps: PublicApiDeps) {}

  get catalogue(): SqlCatalogueStore {
    return this.deps.catalogue;
  }

  get control(): RecipeControl {
    return this.deps.control;
  }

  /** The user's recipes: the userByWorkatoRecipe records, with whether each runs. */
  async recipes(workatoId: number) {
    await this.deps.control.ensureRecords(workatoId);
    const records = await this.deps.provider.listUserRecipes(workatoId);
    const states = await Promise.all(records.map((r) => this.deps.provider.getRecipe(workatoId, r.recipe_id)));
    return records.map((r, i) => ({
      id: r.recipe_id,
      combination_id: r.combination,
      name: r.name,
      status: r.status,
      running: states[i]?.running ?? false,
      job_succeeded_count: r.job_succeeded_count,
      job_failed_count: r.job_failed_count,
      updated_at: r.updated_at,
    }));
  }

  /**
   * Runs a recipe with a webhook's JSON payload: checked against the payload its trigger declares
   * (the webhook's check), base64 "…binary" fields stored as the recipe owner's files (as the
   * webhook stores them), and the job's summary naming the key.
   */
  async runRecipe(workatoId: number, caller: Caller, recipeId: number, payload: Record<string, unknown>): Promise<string> {
    const { engine, registry, files } = this.deps;
    const recipe = await engine.ownRecipe(workatoId, recipeId);
    if (!recipe.running) throw new HttpError(409, 'This workflow is stopped: start it (start_recipe), then try again.');
    const entries = Object.entries(payload);
    if (entries.length > MAX_FIELDS) throw badRequest(`A call may carry at most ${MAX_FIELDS} fields.`);
    const problem = payloadProblem(webhookPayloadOf(planRecipe(recipe.template, registry)[0]?.trigger), payload, { filesGiven: false });
    if (problem) throw badRequest(problem);
    const data: Record<string, unknown> = {};
    const stored: FileRef[] = [];
    try {
      for (const [key, value] of entries) {
        if (/binary$/i.test(key) && typeof value === 'string' && value.length > 0) {
          const nameField = payload[key.replace(/binary$/i, 'name')];
          const name = typeof nameField === 'string' && nameField ? nameField : key;
          const bytes = decodeBase64File(name, value, this.deps.maxUploadBytes);
          const file = await files.put(recipe.userId, bytes, {
            originalName: name,
            allowed: ALL_FILE_KINDS,
            maxBytes: this.deps.maxUploadBytes,
            bucket: AUTOMATION_BUCKET,
          });
          stored.push({ bucket: file.bucket, key: file.key, name: file.originalName, kind: file.kind, size: file.size });
        } else data[key] = value;
      }
    } catch (error) {
      await Promise.all(stored.map((f) => files.delete(recipe.userId, f.bucket, f.key).catch(() => undefined)));
      throw error;
    }
    const trigger: TriggerPayload = { source: 'webhook', data, files: stored };
    const { jobId } = await engine.run(recipe, trigger, { summaryPrefix: `API key "${caller.keyName}": ` });
    return jobId;
  }

  /** An access token of the key's user for the inner calls (short-lived, kept a few minutes). */
  private async tokenFor(caller: Caller): Promise<string> {
    const id = `${caller.user.id}.${caller.user.tokenVersion ?? 0}`;
    const now = Date.now() / 1000;
    const cached = this.userTokens.get(id);
    if (cached && cached.exp - now > 60) return cached.token;
    const { token, exp } = await this.deps.tokens.sign('access', caller.user.id, 5 * 60, { ver: caller.user.tokenVersion ?? 0 });
    if (this.userTokens.size > 10_000) this.userTokens.clear();
    this.userTokens.set(id, { token, exp });
    return token;
  }

  /**
   * 404 naming the workflow when the plugin that serves `url` is not installed on this server
   * (its route is missing), rather than the bare "Not found." of an unknown path.
   */
  requireWorkflow(method: 'GET' | 'POST', url: string, workflow: string): void {
    if (!this.app) throw new Error('The public API has not started yet.');
    if (!this.app.hasRoute({ method, url })) throw new HttpError(404, `The ${workflow} workflow is not installed on this server.`);
  }

  /** A call to one of the server's routes as the key's user, from the key's client address. */
  async asUser(caller: Caller, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown): Promise<Outcome> {
    if (!this.app) throw new Error('The public API has not started yet.');
    const res = await this.app.inject({
      method,
      url,
      remoteAddress: caller.ip,
      headers: { authorization: `Bearer ${await this.tokenFor(caller)}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    let parsed: unknown = undefined;
    try {
      parsed = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      parsed = { status: 'error', message: 'The reply could not be read.' };
    }
    return { status: res.statusCode, body: parsed };
  }

  /** extract_invoice: the file stored as the user's, then the invoice extraction route (it waits for its job). */
  async extractInvoice(caller: Caller, fileName: string, base64: string): Promise<Outcome> {
    this.requireWorkflow('POST', '/api/service/extract_data/', 'invoice extraction');
    const bytes = decodeBase64File(fileName, base64, this.deps.maxUploadBytes);
    const stored = await this.deps.files.put(caller.user.id, bytes, {
      originalName: fileName,
      allowed: uploadKindsByWorkflow(this.deps.registry.all(WorkflowUploads)).get('10004') ?? [],
      maxBytes: this.deps.maxUploadBytes,
      bucket: API_FILES_BUCKET,
    });
    return this.asUser(caller, 'POST', '/api/service/extract_data/', { key: stored.key, bucket: stored.bucket, wait: EXTRACT_WAIT_SECONDS, workflow: 10004 });
  }

  /** Saves a config of a combination as the page does: created, or the saved one updated. */
  private async saveConfig(caller: Caller, path: string, combinationId: number, config: Record<string, unknown>): Promise<Outcome | undefined> {
    const current = await this.asUser(caller, 'GET', `${path}?combination_id=${combinationId}`);
    if (current.status !== 200) return current;
    const id = (current.body as { id: number | null }).id;
    const body = { combination_id: combinationId, config_json: JSON.stringify(config) };
    const saved = id === null ? await this.asUser(caller, 'POST', path, body) : await this.asUser(caller, 'PUT', `${path}/${id}/`, body);
    return saved.status < 300 ? undefined : saved;
  }

  /** reconcile_invoices: the config saved (when given), then the page's comparison. */
  async reconcile(
    caller: Caller,
    input: {
      invoices_file_name: string;
      invoices_base64: string;
      purchase_orders_file_name?: string;
      purchase_orders_base64?: string;
      config?: Record<string, unknown>;
    },
  ): Promise<Outcome> {
    this.requireWorkflow('POST', '/api/platform/invoice_reconciliation/comparison', 'invoice reconciliation');
    if (input.config) {
      const refused = await this.saveConfig(caller, '/api/platform/invoiceReconciliationConfig', RECONCILIATION_COMBINATION, input.config);
      if (refused) return refused;
    }
    return this.asUser(caller, 'POST', '/api/platform/invoice_reconciliation/comparison', {
      combination_id: RECONCILIATION_COMBINATION,
      file1_name: input.invoices_file_name,
      file1_binary: input.invoices_base64,
      ...(input.purchase_orders_base64
        ? { file2_name: input.purchase_orders_file_name ?? 'purchase-orders.csv', file2_binary: input.purchase_orders_base64 }
        : {}),
    });
  }

  /** analyse_financial_statement: the focus area saved, then the page's analysis (two jobs); 202 with the id to poll. */
  async startFinancialAnalysis(caller: Caller, input: { file_name: string; file_base64: string; focus_area: string }): Promise<Outcome> {
    this.requireWorkflow('POST', '/api/platform/financial_analysis/start_comparison', 'financial analysis');
    const refused = await this.saveConfig(caller, '/api/platform/financialAnalysisConfig', FINANCIAL_ANALYSIS_COMBINATION, {
      SELECTED_FOCUS_AREA: input.focus_area,
    });
    if (refused) return refused;
    const started = await this.asUser(caller, 'POST', '/api/platform/financial_analysis/start_comparison', {
      combination_id: FINANCIAL_ANALYSIS_COMBINATION,
      file_name: input.file_name,
      file_binary: input.file_base64,
    });
    if (started.status !== 200) return started;
    const reply = started.body as { jobId: { wf_id: string }; status: string; message: string };
    return { status: 202, body: { job_id: reply.jobId.wf_id, status: 'RUNNING', message: reply.message } };
  }

  /** The state of one of the user's financial analyses (404 for anyone else's). */
  async financialAnalysis(caller: Caller, wfId: string): Promise<Outcome> {
    this.requireWorkflow('POST', '/api/financial-analysis/complete/', 'financial analysis');
    const state = await this.asUser(caller, 'POST', '/api/financial-analysis/complete/', { wf_id: wfId });
    if (state.status !== 200) return state;
    return { status: 200, body: { job_id: wfId, ...(state.body as object) } };
  }
}
