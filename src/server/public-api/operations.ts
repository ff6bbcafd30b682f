/**
 * The public API's operations, each declared once: its REST route, its MCP tool (when it has
 * one), its input and reply JSON Schemas (by `$id`, see ./schemas) and what it does for the
 * key's user. The REST routes, the OpenAPI document and the MCP server are all made from this
 * table, so a tool takes the same input, and gives the same data, as its route.
 */
import type { AuthUser } from '../auth/guard';
import { forbidden, HttpError, notFound } from '../http/errors';
import type { SchemaId } from './schemas';
import type { PublicApiServices } from './services';

/** Who calls: the key's user, the key, and the client's address. */
export interface Caller {
  user: AuthUser;
  keyId: number;
  keyName: string;
  ip: string;
}

/** What an operation answers: the HTTP status and the JSON body (the MCP tool's result too). */
export interface Outcome {
  status: number;
  body: unknown;
}

export interface Operation {
  /** the MCP tool's name; the operation has no tool when absent */
  tool?: string;
  operationId: string;
  method: 'GET' | 'POST';
  /** OpenAPI form: /api/v1/recipes/{id}/start */
  path: string;
  summary: string;
  /** for the OpenAPI document and the tool: what it does and how to use its answer */
  description: string;
  tags: string[];
  /** the input as one object (the tool's input schema; the route builds it from its path and body) */
  input: SchemaId;
  /** the REST body's schema when the route takes one (the input itself unless said otherwise) */
  body?: SchemaId;
  /** the path's {id}: an integer or a string */
  pathId?: { name: string; type: 'integer' | 'string'; description: string };
  /** the input of a REST call */
  inputOf?: (id: string | undefined, body: unknown) => unknown;
  /** every status it answers besides 401/429, with the schema of that reply */
  replies: Record<number, { description: string; schema: SchemaId }>;
  run(services: PublicApiServices, caller: Caller, input: any): Promise<Outcome>;
}

const ERROR = 'public-api/error';
const badInput = { description: 'The input does not fit its schema: the message names the field.', schema: ERROR };
const notYours = { description: "Not one of your recipes or jobs (another user's ids are unknown).", schema: ERROR };
const noWorkspace = { description: 'You have no automation workspace yet.', schema: ERROR };
const notInstalled = { description: 'The workflow is not installed on this server.', schema: ERROR };

function workspaceOf(caller: Caller): number {
  if (caller.user.workatoId === null) throw forbidden('You have no automation workspace yet.');
  return caller.user.workatoId;
}

const recipeIdOf = (id: string | undefined) => (id !== undefined && /^\d{1,9}$/.test(id) ? Number(id) : id);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const OPERATIONS: Operation[] = [
  {
    tool: 'list_combinations',
    operationId: 'listCombinations',
    method: 'GET',
    path: '/api/v1/combinations',
    summary: 'List the combinations',
    description:
      'Lists the pre-built automations (combinations) you can use, as the catalogue page shows them: id, name, workflow, connectors, triggers, whether it is enabled, and recipe_id (your recipe for it) and running. Use recipe_id with start_recipe, stop_recipe or run_recipe.',
    tags: ['Recipes'],
    input: 'public-api/no-input',
    replies: { 200: { description: 'The combinations.', schema: 'public-api/combination-list' } },
    async run(s, caller) {
      return { status: 200, body: { combinations: await s.catalogue.listCombinations({ userId: caller.user.id, workatoId: caller.user.workatoId }) } };
    },
  },
  {
    tool: 'list_recipes',
    operationId: 'listRecipes',
    method: 'GET',
    path: '/api/v1/recipes',
    summary: 'List your recipes',
    description:
      'Lists your recipes (the automations behind the combinations): id, combination_id, name, setup status, whether it is running, and its succeeded and failed job counts. A recipe must be running before run_recipe can run it: start it with start_recipe.',
    tags: ['Recipes'],
    input: 'public-api/no-input',
    replies: { 200: { description: 'Your recipes.', schema: 'public-api/recipe-list' }, 403: noWorkspace },
    async run(s, caller) {
      return { status: 200, body: { recipes: await s.recipes(workspaceOf(caller)) } };
    },
  },
  {
    tool: 'start_recipe',
    operationId: 'startRecipe',
    method: 'POST',
    path: '/api/v1/recipes/{id}/start',
    summary: 'Start a recipe',
    description:
      'Starts one of your recipes, so its trigger (webhook, e-mail, polling) runs it. Refused (409) when a step is not installed or a connection it needs (Google Drive, Google Sheets, Xero) is not connected: the message names it. Takes the recipe_id from list_recipes.',
    tags: ['Recipes'],
    input: 'public-api/recipe-ref',
    pathId: { name: 'id', type: 'integer', description: 'the recipe id (list_recipes)' },
    inputOf: (id) => ({ recipe_id: recipeIdOf(id) }),
    replies: {
      200: { description: 'The recipe runs.', schema: 'public-api/recipe-state' },
      400: badInput,
      403: noWorkspace,
      404: notYours,
      409: { description: 'It cannot start: a step is missing or a connection is not made (the message says which).', schema: ERROR },
    },
    async run(s, caller, input: { recipe_id: number }) {
      const { running } = await s.control.start(workspaceOf(caller), input.recipe_id);
      return { status: 200, body: { id: input.recipe_id, running } };
    },
  },
  {
    tool: 'stop_recipe',
    operationId: 'stopRecipe',
    method: 'POST',
    path: '/api/v1/recipes/{id}/stop',
    summary: 'Stop a recipe',
    description:
      'Stops one of your recipes: its trigger no longer runs it (calls are refused) until it is started again; jobs already queued finish. Takes the recipe_id from list_recipes.',
    tags: ['Recipes'],
    input: 'public-api/recipe-ref',
    pathId: { name: 'id', type: 'integer', description: 'the recipe id (list_recipes)' },
    inputOf: (id) => ({ recipe_id: recipeIdOf(id) }),
    replies: { 200: { description: 'The recipe is stopped.', schema: 'public-api/recipe-state' }, 400: badInput, 403: noWorkspace, 404: notYours },
    async run(s, caller, input: { recipe_id: number }) {
      const { running } = await s.control.stop(workspaceOf(caller), input.recipe_id);
      return { status: 200, body: { id: input.recipe_id, running } };
    },
  },
  {
    tool: 'run_recipe',
    operationId: 'runRecipe',
    method: 'POST',
    path: '/api/v1/recipes/{id}/runs',
    summary: 'Run a recipe',
    description:
      'Runs one of your running recipes with a trigger payload: exactly the JSON body its webhook takes (fields ending in "binary" carry a file in base64, named by the matching "name" field). Answers the job_id at once; follow the job with get_job until its status is succeeded or failed. The job history shows the run as started by this API key.',
    tags: ['Recipes'],
    input: 'public-api/run-request',
    body: 'automation/webhook-payloads/any-fields',
    pathId: { name: 'id', type: 'integer', description: 'the recipe id (list_recipes)' },
    inputOf: (id, body) => ({ recipe_id: recipeIdOf(id), payload: body ?? {} }),
    replies: {
      200: { description: 'The run is queued.', schema: 'public-api/run-created' },
      400: { description: "The payload does not fit what the recipe's trigger takes: the message names the field.", schema: ERROR },
      403: noWorkspace,
      404: notYours,
      409: { description: 'The recipe is stopped (start it first), or a step is not installed (the failed job_id is given).', schema: ERROR },
      413: { description: 'A file in the payload is over the upload limit.', schema: ERROR },
    },
    async run(s, caller, input: { recipe_id: number; payload: Record<string, unknown> }) {
      const jobId = await s.runRecipe(workspaceOf(caller), caller, input.recipe_id, input.payload);
      return { status: 200, body: { job_id: jobId } };
    },
  },
  {
    tool: 'get_job',
    operationId: 'getJob',
    method: 'GET',
    path: '/api/v1/jobs/{id}',
    summary: 'A job and its steps',
    description:
      'The state of one of your jobs (from run_recipe): status queued, running, succeeded or failed, the error when it failed, and each step with its status and, once it succeeded, its output. Given the job_id of analyse_financial_statement, answers that analysis (status RUNNING, COMPLETE with the report, or FAILED). Poll every few seconds until the status is final.',
    tags: ['Recipes'],
    input: 'public-api/job-ref',
    pathId: { name: 'id', type: 'string', description: 'the job id (run_recipe)' },
    inputOf: (id) => ({ job_id: id }),
    replies: { 200: { description: 'The job (or the financial analysis).', schema: 'public-api/job-state' }, 400: badInput, 403: noWorkspace, 404: notYours },
    async run(s, caller, input: { job_id: string }) {
      if (!UUID.test(input.job_id)) throw notFound('Job not found.');
      if (caller.user.workatoId !== null) {
        try {
          return { status: 200, body: await s.job(caller.user.workatoId, input.job_id) };
        } catch (error) {
          if (!(error instanceof HttpError && error.statusCode === 404)) throw error;
        }
      }
      // the id of a financial analysis (answered by the same tool, so an assistant needs one way to poll)
      const analysis = await s.financialAnalysis(caller, input.job_id).catch(() => undefined);
      if (analysis?.status === 200) return analysis;
      throw notFound('Job not found.');
    },
  },
  {
    tool: 'extract_invoice',
    operationId: 'extractInvoice',
    method: 'POST',
    path: '/api/v1/invoices/extract',
    summary: "Extract an invoice's fields",
    description:
      'Reads an invoice (PDF, PNG or JPEG, or an XML e-invoice: XRechnung, Peppol UBL, Factur-X / ZUGFeRD CII; in base64) and answers its fields as the invoice extraction page shows them: invoice_number, invoice_date, due_date, vendor_name, vendor_address, customer_name, customer_address, po_number, subtotal, tax, total, currency and payment_terms, each with a value (null when not found) and a confidence from 0 to 1, plus the line items and warnings when totals disagree. A PDF that carries its invoice as e-invoice data (Factur-X, ZUGFeRD, XRechnung CII or UBL) is read from that data too, checked against its page, and the answer names it in e_invoice; an XML e-invoice is read as its data (e_invoice.standalone), its sums checked against each other and against the page of a PDF it carries (e_invoice.pdf). Takes from a second to about a minute (scanned pages are read by OCR).',
    tags: ['AI'],
    input: 'public-api/invoice-extract-request',
    replies: {
      200: { description: "The invoice's fields.", schema: 'public-api/invoice-extraction' },
      400: badInput,
      404: notInstalled,
      413: { description: 'The file is over the upload limit.', schema: ERROR },
      415: { description: 'The file is not a PDF, PNG, JPEG or XML e-invoice.', schema: ERROR },
      422: { description: 'The file could not be read.', schema: ERROR },
    },
    async run(s, caller, input: { file_name: string; file_base64: string }) {
      return s.extractInvoice(caller, input.file_name, input.file_base64);
    },
  },
  {
    tool: 'analyse_emotion',
    operationId: 'analyseEmotion',
    method: 'POST',
    path: '/api/v1/emotions',
    summary: 'Emotion of each sentence',
    description:
      'Labels each sentence of a text (up to 20,000 characters) with its emotion: anger, disgust, fear, joy, sadness, surprise or neutral, as the emotion analysis page does. Useful to triage customer e-mails, reviews or support messages.',
    tags: ['AI'],
    input: 'emotion-analysis/text-processing',
    replies: { 200: { description: 'One emotion per sentence.', schema: 'public-api/emotion-reply' }, 400: badInput, 404: notInstalled },
    async run(s, caller, input: { text: string }) {
      return s.analyseEmotion(caller, input.text);
    },
  },
  {
    tool: 'search_documents',
    operationId: 'searchDocuments',
    method: 'POST',
    path: '/api/v1/documents/search',
    summary: 'Search your documents',
    description:
      'Searches the documents you uploaded (invoices, PDFs, text files; scanned ones by their OCR text) with a question or words ("which invoices from Acme are over 1000 EUR?", "quoted phrases", OR, -word), and answers up to 10 best matches: document name, the matching passage and a download link valid for 15 minutes.',
    tags: ['AI'],
    input: 'document-search/query',
    replies: { 200: { description: 'The best matches, best first.', schema: 'public-api/search-reply' }, 400: badInput, 404: notInstalled },
    async run(s, caller, input: { query: string }) {
      return s.searchDocuments(caller, input.query);
    },
  },
  {
    tool: 'reconcile_invoices',
    operationId: 'reconcileInvoices',
    method: 'POST',
    path: '/api/v1/reconciliations',
    summary: 'Reconcile invoices with purchase orders',
    description:
      "Compares an invoices CSV with a purchase orders CSV (both base64) line by line, as the reconciliation page does: matched and unmatched records, discrepancies (price, quantity, amount beyond the tolerance) and drafted e-mails to vendors. The optional config holds the page's settings (key columns, tolerance, tones of voice, which e-mails to write); given, it is saved as your reconciliation config. Answers both sides: default (detected settings) and custom_config (yours).",
    tags: ['AI'],
    input: 'public-api/reconciliation-request',
    replies: {
      200: { description: 'The comparison.', schema: 'public-api/reconciliation-reply' },
      400: { description: 'The input or a CSV file cannot be used: the message says why.', schema: ERROR },
      404: notInstalled,
      413: { description: 'A file is over the upload limit.', schema: ERROR },
    },
    async run(s, caller, input) {
      return s.reconcile(caller, input);
    },
  },
  {
    tool: 'analyse_financial_statement',
    operationId: 'analyseFinancialStatement',
    method: 'POST',
    path: '/api/v1/financial-analyses',
    summary: 'Analyse a financial statement',
    description:
      'Starts a financial analysis report of a statement (CSV, XLSX or PDF, in base64) for a focus area (overall-financial-position, risk-and-vulnerabilities, opportunities-and-strengths, cash-flow-management or sales-and-income), as the financial analysis page does; the focus area is saved as your config. Answers at once with status RUNNING and a job_id: poll get_job (or GET /api/v1/financial-analyses/{job_id}) until the status is COMPLETE (with the report) or FAILED.',
    tags: ['AI'],
    input: 'public-api/financial-analysis-request',
    replies: {
      202: { description: 'The analysis runs: poll it with its job_id.', schema: 'public-api/financial-analysis' },
      400: badInput,
      404: notInstalled,
      413: { description: 'The file is over the upload limit.', schema: ERROR },
    },
    async run(s, caller, input) {
      return s.startFinancialAnalysis(caller, input);
    },
  },
  {
    operationId: 'getFinancialAnalysis',
    method: 'GET',
    path: '/api/v1/financial-analyses/{id}',
    summary: 'A financial analysis',
    description: 'The state of an analysis started with POST /api/v1/financial-analyses: RUNNING, COMPLETE with the report, or FAILED with the reason.',
    tags: ['AI'],
    input: 'public-api/job-ref',
    pathId: { name: 'id', type: 'string', description: 'the job_id the analysis answered' },
    inputOf: (id) => ({ job_id: id }),
    replies: {
      200: { description: 'The analysis.', schema: 'public-api/financial-analysis' },
      400: badInput,
      404: { description: 'Not one of your analyses, or the workflow is not installed on this server.', schema: ERROR },
    },
    async run(s, caller, input: { job_id: string }) {
      if (!UUID.test(input.job_id)) throw notFound('This analysis was not found.');
      return s.financialAnalysis(caller, input.job_id);
    },
  },
];

/** The tools' names, in the order they are listed. */
export const TOOL_NAMES = OPERATIONS.filter((o) => o.tool).map((o) => o.tool!);

/** An error thrown by an operation as its outcome (HttpError keeps its status and extras). */
export function outcomeOfError(error: unknown): Outcome | undefined {
  if (error instanceof HttpError) return { status: error.statusCode, body: { status: 'error', message: error.message, ...error.extra } };
  const e = error as { statusCode?: unknown; message?: unknown };
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500 && typeof e.message === 'string')
    return { status: e.statusCode, body: { status: 'error', message: e.message } };
  return undefined;
}
