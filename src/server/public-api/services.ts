import type { AutomationEngine } from '../automation/engine';
import type { RecipeControl } from '../provider/recipe-control';
import type { ProviderStore } from '../provider/store';
import type { SqlCatalogueStore } from '../catalogue/store';
import type { FileStore } from '../files/file-store';
import type { FileRef, TriggerPayload } from '../automation/kinds';
import type {
  DocumentSearchService,
  EmotionAnalysisService,
  FinancialAnalysisService,
  InvoiceExtractionService,
  InvoiceReconciliationService,
} from '../ai/services';
import { jobView } from '../automation/engine';
import { planRecipe } from '../automation/plan';
import { payloadProblem, webhookPayloadOf } from '../automation/webhook-payload';
import { AUTOMATION_BUCKET, stepWithOutput } from '../automation/routes';
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
  registry: ContributionRegistry;
  maxUploadBytes: number;
  /** the AI workflows' services (src/server/ai/services), each absent when its plugin is not installed */
  ai: {
    emotion?: EmotionAnalysisService;
    invoices?: InvoiceExtractionService;
    search?: DocumentSearchService;
    reconciliation?: InvoiceReconciliationService;
    financial?: FinancialAnalysisService;
  };
}

/**
 * What the operations do, for the key's user. Recipes, runs and jobs go through the automation
 * engine's services (RecipeControl, the engine's run with the webhook's payload check, its jobs);
 * the AI workflows through the services their plugins provide (src/server/ai/services), whose
 * page methods are what the plugins' own routes answer, so checks, scoping and replies are
 * exactly the browser's.
 */
export class PublicApiServices {
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

  /** The service of an AI workflow, or a 404 naming the workflow when its plugin is not installed on this server. */
  private workflow<S>(service: S | undefined, workflow: string): S {
    if (!service) throw new HttpError(404, `The ${workflow} workflow is not installed on this server.`);
    return service;
  }

  /** One of the key's user's jobs with its steps, as the job view shows it (404 for anyone else's). */
  async job(workatoId: number, jobId: string) {
    const job = await this.deps.engine.ownJob(workatoId, jobId);
    const steps = await this.deps.engine.jobs.steps(job.id);
    return { ...jobView(job), steps: steps.map(stepWithOutput) };
  }

  /** analyse_emotion: the emotion page's reply. */
  async analyseEmotion(caller: Caller, text: string): Promise<Outcome> {
    const emotion = this.workflow(this.deps.ai.emotion, 'emotion analysis');
    return { status: 200, body: await emotion.textProcessing(text) };
  }

  /** search_documents: the search page's reply (its download links bound to the key's user). */
  async searchDocuments(caller: Caller, query: string): Promise<Outcome> {
    const search = this.workflow(this.deps.ai.search, 'document search');
    return { status: 200, body: await search.query(caller.user, query) };
  }

  /** extract_invoice: the file stored as the user's, then the extraction page's call (which waits for its job). */
  async extractInvoice(caller: Caller, fileName: string, base64: string): Promise<Outcome> {
    const invoices = this.workflow(this.deps.ai.invoices, 'invoice extraction');
    const bytes = decodeBase64File(fileName, base64, this.deps.maxUploadBytes);
    const stored = await this.deps.files.put(caller.user.id, bytes, {
      originalName: fileName,
      allowed: uploadKindsByWorkflow(this.deps.registry.all(WorkflowUploads)).get('10004') ?? [],
      maxBytes: this.deps.maxUploadBytes,
      bucket: API_FILES_BUCKET,
    });
    return invoices.extractData(caller.user.id, { key: stored.key, bucket: stored.bucket, wait: EXTRACT_WAIT_SECONDS, workflow: 10004 });
  }

  /** reconcile_invoices: the config saved (when given) as the page saves it, then the page's comparison. */
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
    const reconciliation = this.workflow(this.deps.ai.reconciliation, 'invoice reconciliation');
    if (input.config) await reconciliation.saveConfig(caller.user.id, input.config);
    const body = await reconciliation.comparison(caller.user.id, {
      combination_id: RECONCILIATION_COMBINATION,
      file1_name: input.invoices_file_name,
      file1_binary: input.invoices_base64,
      ...(input.purchase_orders_base64
        ? { file2_name: input.purchase_orders_file_name ?? 'purchase-orders.csv', file2_binary: input.purchase_orders_base64 }
        : {}),
    });
    return { status: 200, body };
  }

  /** analyse_financial_statement: the focus area saved, then the page's analysis (two jobs); 202 with the id to poll. */
  async startFinancialAnalysis(caller: Caller, input: { file_name: string; file_base64: string; focus_area: string }): Promise<Outcome> {
    const analysis = this.workflow(this.deps.ai.financial, 'financial analysis');
    await analysis.saveConfig(caller.user.id, { SELECTED_FOCUS_AREA: input.focus_area });
    const started = await analysis.startComparison(caller.user.id, {
      combination_id: FINANCIAL_ANALYSIS_COMBINATION,
      file_name: input.file_name,
      file_binary: input.file_base64,
    });
    return { status: 202, body: { job_id: started.jobId.wf_id, status: started.status, message: started.message } };
  }

  /** The state of one of the user's financial analyses (404 for anyone else's). */
  async financialAnalysis(caller: Caller, wfId: string): Promise<Outcome> {
    const analysis = this.workflow(this.deps.ai.financial, 'financial analysis');
    return { status: 200, body: { job_id: wfId, ...(await analysis.complete(caller.user.id, wfId)) } };
  }
}
