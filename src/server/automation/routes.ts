/**
 * The automation engine's HTTP API (core routes). All replies are JSON; errors are
 * `{ status: 'error', message }` with the HTTP status given.
 *
 * Jobs (a logged-in user, own recipes and jobs only: another user's id answers 404):
 * - GET  /api/automation/recipes/:recipeId
 *     → { recipe: { id, combination_id, name, status, running, job_succeeded_count, job_failed_count,
 *         webhook_url, webhook_payload: { schema, example }, inbound_email,
 *         steps: [{ index, kind, provider, action, name, installed }] } }
 *     `installed: false` marks a step no plugin provides ('Connector not found.'). webhook_payload:
 *     the JSON Schema of what a webhook call carries (declared by the recipe's trigger) and an example body.
 * - PUT  /api/automation/recipes/:recipeId/steps/:stepIndex/settings  body: the step's settings (a JSON object)
 *     → { status: 'ok', settings: { schema, values } } — the owner's own settings of a step made with
 *     defineAction, stored with their recipe (the combination's template is left as it is) and used
 *     from the next run. Checked against the step's settings schema ('{{field}}' values are checked
 *     when the step runs): 400 naming the field in words ('The channel must be at most 80 characters
 *     long.', with `step` and `field`); a step with no settings → 400; no such step → 404; a running
 *     recipe → 409 (stop it first).
 * - POST /api/automation/recipes/:recipeId/inbound-email → { status: 'ok', inbound_email } — a new
 *     secret address for the recipe's e-mail trigger; the old one is refused at once.
 * - GET  /api/automation/recipes/:recipeId/jobs?limit=50 (1..200)
 *     → { jobs: [{ id, status, title, trigger_summary, created_at, started_at, completed_at,
 *         duration_ms, attempt, error }] } newest first. status: queued | running | succeeded | failed.
 * - GET  /api/automation/jobs/:jobId
 *     → { job: <as above plus recipe_id, combination_id>, steps: [{ index, provider, action, name,
 *         status, input_summary, output_summary, error, attempts, started_at, completed_at,
 *         and once succeeded output_details: [{ title, items: [{ label, value, state? }], notes? }], output }] }
 *     step status: pending | running | succeeded | failed | skipped; step 0 is the trigger.
 *     output_details says what the step produced (summary.ts, by the output's shape); output is all of it.
 * - POST /api/automation/jobs/:jobId/retry → { status: 'ok', job } — a failed job only (else 409);
 *     resumes at the failed step with fresh tries; earlier steps keep their outputs.
 * - POST /api/automation/jobs/:jobId/rerun → { status: 'ok', job_id } — a new job, same trigger payload;
 *     a stopped recipe → 409 (start it first).
 * - POST /api/automation/recipes/:recipeId/uploads (multipart files and fields, or JSON fields)
 *     → { status: 'ok', job_id } — the manual_upload trigger; the recipe must be running.
 *
 * Webhooks (no login: the token in the address is the secret; rate-limited per recipe):
 * - POST /api/automation/webhooks/:token — the address is the record's `workato_webhook`.
 *     JSON or multipart body. The setup screen's call (customer_id, email, instance, recipe_id,
 *     combination_id) → { status: 'ok' } and moves the setup status (spec section 4). Any other
 *     body runs the recipe with the fields and files as its trigger payload → 200
 *     { status: 'ok', job_id }; a stopped recipe → 409; a missing step → 409 'Connector not
 *     found. …' with job_id (the failed job); unknown token → 404 (past 20 from one address in 10
 *     minutes, that address gets 429 for the rest of the window); over the limit → 429; a body that
 *     does not fit the trigger's payload schema → 400 naming the field in plain words.
 *     JSON fields ending in "binary" (base64) are stored as files, named by the matching "name" field.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { userOf } from '../auth/guard';
import { badRequest, forbidden, HttpError, notFound } from '../http/errors';
import { failureLimit } from '../http/rate-limits';
import { parseId } from '../http/ids';
import { ALL_FILE_KINDS } from '../files/file-kinds';
import type { FileStore } from '../files/file-store';
import { isSetupCall, jobView, stepView, type AutomationEngine, type StepView } from './engine';
import type { StepRow } from './job-store';
import { describeOutput, summaryLine } from './summary';
import { payloadExample, payloadProblem, webhookPayloadOf, type WebhookPayloadSchema } from './webhook-payload';
import type { FileRef, TriggerPayload, TriggerSource } from './kinds';
import { planRecipe, type PlannedStep } from './plan';
import { settingsProblem } from './steps';
import type { ContributionRegistry } from '../../core/contributions';
import type { RecipeRow } from './user-recipes';
import type { InboundMailListener } from './inbound-mail';

export const AUTOMATION_BUCKET = 'automation';
/** Unknown webhook tokens one client address may try in 10 minutes. */
export const WEBHOOK_GUESSES_PER_10_MINUTES = 20;
const MAX_FIELDS = 100;

export interface AutomationRouteDeps {
  engine: AutomationEngine;
  files: FileStore;
  registry: ContributionRegistry;
  maxUploadBytes: number;
  webhookRateLimit: number;
  /** the e-mail trigger's listener: each recipe's secret address, and its rotation */
  inbound: InboundMailListener;
}

function managedUserOf(request: FastifyRequest): number {
  const id = userOf(request).workatoId;
  if (id === null) throw forbidden('You have no automation workspace yet.');
  return id;
}

function jobIdOf(request: FastifyRequest): string {
  return String((request.params as { jobId: string }).jobId);
}

/** Decodes a base64 (or data: URL) field; 400 naming the field when it is not base64. */
function decodeBase64(value: string, field: string): Buffer {
  const raw = value.replace(/^data:[^;,]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(raw) || raw.length === 0) throw badRequest(`The ${field} must be a file encoded in base64.`);
  return Buffer.from(raw, raw.includes('-') || raw.includes('_') ? 'base64url' : 'base64');
}

/**
 * A request's trigger payload: multipart fields and files, or JSON fields (with base64 "…binary"
 * fields turned into files). Files go to the recipe owner's FileStore, bucket 'automation'.
 */
async function payloadOf(
  request: FastifyRequest,
  recipe: RecipeRow,
  source: TriggerSource,
  deps: AutomationRouteDeps,
  check?: (payload: TriggerPayload) => void,
): Promise<TriggerPayload> {
  // a refused call (a part over its limit, a bad field, a payload its trigger does not take) leaves none of its files behind
  const files: FileRef[] = [];
  const read = readPayload(request, recipe, source, deps, files).then((payload) => {
    check?.(payload);
    return payload;
  });
  return read.catch(async (error: unknown) => {
    await Promise.all(files.map((f) => deps.files.delete(recipe.userId, f.bucket, f.key).catch(() => undefined)));
    throw error;
  });
}

async function readPayload(
  request: FastifyRequest,
  recipe: RecipeRow,
  source: TriggerSource,
  deps: AutomationRouteDeps,
  files: FileRef[],
): Promise<TriggerPayload> {
  const plain = plainPayloadOf(request, source);
  if (plain) return plain;
  const data: Record<string, unknown> = {};
  const store = async (content: Readable | Buffer, name: string) => {
    const stored = await deps.files.put(recipe.userId, content, {
      originalName: name || 'file',
      allowed: ALL_FILE_KINDS,
      maxBytes: deps.maxUploadBytes,
      bucket: AUTOMATION_BUCKET,
    });
    files.push({ bucket: stored.bucket, key: stored.key, name: stored.originalName, kind: stored.kind, size: stored.size });
  };
  if (request.isMultipart()) {
    for await (const part of request.parts()) {
      if (part.type === 'file') await store(part.file, part.filename);
      else if (part.valueTruncated) throw new HttpError(413, 'A text field of the form is longer than 64 KB.');
      else if (Object.keys(data).length < MAX_FIELDS) data[part.fieldname] = part.value;
    }
    return { source, data, files };
  }
  // a JSON body with files, or one that is refused (an empty one is plain)
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('The body must be a JSON object or a multipart form.');
  const entries = Object.entries(body as Record<string, unknown>);
  if (entries.length > MAX_FIELDS) throw badRequest(`A call may carry at most ${MAX_FIELDS} fields.`);
  for (const [key, value] of entries) {
    if (isFileField(key, value)) {
      const nameField = (body as Record<string, unknown>)[key.replace(/binary$/i, 'name')];
      await store(decodeBase64(value, key), typeof nameField === 'string' ? nameField : key);
      continue;
    }
    data[key] = value;
  }
  return { source, data, files };
}

/** A JSON field that carries a file (base64): "…binary". */
function isFileField(key: string, value: unknown): value is string {
  return /binary$/i.test(key) && typeof value === 'string' && value.length > 0;
}

/**
 * The payload of an empty body or a JSON body of fields only, which needs no recipe (the
 * remembered-webhook path and payloadOf both take it); undefined for any other body (files, a
 * multipart form, or one payloadOf refuses).
 */
function plainPayloadOf(request: FastifyRequest, source: TriggerSource): TriggerPayload | undefined {
  if (request.isMultipart()) return undefined;
  const body = request.body;
  if (body === undefined || body === null || body === '') return { source, data: {}, files: [] };
  if (typeof body !== 'object' || Array.isArray(body)) return undefined;
  const entries = Object.entries(body as Record<string, unknown>);
  if (entries.length > MAX_FIELDS) return undefined;
  const data: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    if (isFileField(key, value)) return undefined;
    data[key] = value;
  }
  return { source, data, files: [] };
}

function requireRunning(recipe: RecipeRow): void {
  if (!recipe.running) throw new HttpError(409, 'This workflow is stopped: start it, then try again.');
}

/** The JSON fields a call brought, to check against its trigger's payload (base64 file fields included). */
function bodyFields(request: FastifyRequest): Record<string, unknown> | undefined {
  if (request.isMultipart()) return undefined;
  const body = request.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** 400 naming the field when a call does not fit the payload its recipe's trigger declares. */
function checkPayload(schema: WebhookPayloadSchema, fields: Record<string, unknown>, filesGiven: boolean): void {
  const problem = payloadProblem(schema, fields, { filesGiven });
  if (problem) throw badRequest(problem);
}

/** A step as the job view shows it: what it produced (summary, details and the full output) once it succeeded. */
export function stepWithOutput(s: StepRow): StepView {
  const view = stepView(s);
  if (s.status !== 'succeeded') return view;
  const output = s.output as StepView['output'];
  if (Array.isArray(s.output_details)) return { ...view, output_details: s.output_details as StepView['output_details'], output };
  // the trigger's step, and steps checkpointed before the details were kept: described now
  const details = describeOutput(s.output);
  return { ...view, ...(s.index > 0 ? { output_summary: summaryLine(details) } : {}), output_details: details, output };
}

/** What a typed step declares, for the setup screen: its connection and its settings (schema and the recipe's values). */
function stepDeclarationOf(s: PlannedStep): Record<string, unknown> {
  const declared = s.kind === 'action' ? s.definition?.step : s.trigger?.step;
  if (!declared) return {};
  return {
    ...(declared.description ? { description: declared.description } : {}),
    ...(declared.auth ? { auth: declared.auth } : {}),
    ...(declared.settings ? { settings: { schema: declared.settings, values: s.params } } : {}),
  };
}

/** The engine's routes: the jobs API for the screens, uploads, and every recipe's webhook. */
export function registerAutomationRoutes(app: FastifyInstance, deps: AutomationRouteDeps): void {
  const { engine } = deps;
  /** the payload schema of each webhook that ran (the remembered-webhook path checks calls with it) */
  const payloads = new Map<string, WebhookPayloadSchema>();

  app.get('/api/automation/recipes/:recipeId', { auth: 'user' }, async (request) => {
    const recipe = await engine.ownRecipe(managedUserOf(request), parseId((request.params as { recipeId: string }).recipeId, 'The recipe id'));
    const counts = await engine.recipes.counts(recipe.id);
    const plan = planRecipe(recipe.template, deps.registry);
    return {
      recipe: {
        id: recipe.id,
        combination_id: recipe.combinationId,
        name: recipe.name,
        status: recipe.status,
        running: recipe.running,
        job_succeeded_count: counts.job_succeeded_count,
        job_failed_count: counts.job_failed_count,
        webhook_url: counts.workato_webhook,
        webhook_payload: { schema: webhookPayloadOf(plan[0]?.trigger), example: payloadExample(webhookPayloadOf(plan[0]?.trigger)) },
        inbound_email: await deps.inbound.addressOf(recipe.id),
        steps: plan.map((s) => ({
          index: s.index,
          kind: s.kind,
          provider: s.provider,
          action: s.action,
          name: s.name,
          installed: s.kind === 'action' ? !!s.definition : !!s.trigger,
          // a step made with defineAction: its declared connection and settings (schema and the recipe's values)
          ...stepDeclarationOf(s),
        })),
      },
    };
  });

  // the owner's own settings of one typed step, checked against its schema; only while the recipe is stopped
  app.put('/api/automation/recipes/:recipeId/steps/:stepIndex/settings', { auth: 'user' }, async (request) => {
    const params = request.params as { recipeId: string; stepIndex: string };
    const managedUserId = managedUserOf(request);
    const recipe = await engine.ownRecipe(managedUserId, parseId(params.recipeId, 'The recipe id'));
    const index = /^(0|[1-9][0-9]{0,3})$/.test(params.stepIndex) ? Number(params.stepIndex) : undefined;
    if (index === undefined) throw badRequest('The step number must be a whole number.');
    const step = planRecipe(recipe.template, deps.registry)[index];
    if (!step) throw notFound('This workflow has no such step.');
    const declared = step.kind === 'action' ? step.definition?.step : step.trigger?.step;
    if (!declared?.settings) throw badRequest(`The step "${step.name}" has no settings to change.`);
    const stopFirst = () => new HttpError(409, 'This workflow is running: stop it first, then change the settings of its steps.');
    if (recipe.running) throw stopFirst();
    const problem = settingsProblem(declared, request.body);
    if (problem) throw badRequest(problem.message, { step: index, field: problem.field });
    const values = request.body as Record<string, unknown>;
    // the update is refused when the recipe started meanwhile
    if (!(await engine.recipes.setStepParams(recipe.id, managedUserId, index, values))) throw stopFirst();
    return { status: 'ok', settings: { schema: declared.settings, values } };
  });

  // a new secret address for the recipe's e-mail trigger; the old one stops working at once
  app.post('/api/automation/recipes/:recipeId/inbound-email', { auth: 'user' }, async (request) => {
    const recipe = await engine.ownRecipe(managedUserOf(request), parseId((request.params as { recipeId: string }).recipeId, 'The recipe id'));
    return { status: 'ok', inbound_email: await deps.inbound.rotate(recipe.id) };
  });

  app.get('/api/automation/recipes/:recipeId/jobs', { auth: 'user' }, async (request) => {
    const recipe = await engine.ownRecipe(managedUserOf(request), parseId((request.params as { recipeId: string }).recipeId, 'The recipe id'));
    const rawLimit = (request.query as { limit?: unknown }).limit;
    const limit = rawLimit === undefined ? 50 : parseId(rawLimit, 'The limit');
    if (limit > 200) throw badRequest('The limit must be at most 200.');
    const jobs = await engine.jobs.listForRecipe(recipe.id, limit);
    return { jobs: jobs.map(jobView) };
  });

  app.get('/api/automation/jobs/:jobId', { auth: 'user' }, async (request) => {
    const job = await engine.ownJob(managedUserOf(request), jobIdOf(request));
    const steps = await engine.jobs.steps(job.id);
    return { job: jobView(job), steps: steps.map(stepWithOutput) };
  });

  app.post('/api/automation/jobs/:jobId/retry', { auth: 'user' }, async (request) => {
    return { status: 'ok', job: await engine.retry(managedUserOf(request), jobIdOf(request)) };
  });

  app.post('/api/automation/jobs/:jobId/rerun', { auth: 'user' }, async (request) => {
    const managedUserId = managedUserOf(request);
    const job = await engine.ownJob(managedUserId, jobIdOf(request));
    const recipe = await engine.ownRecipe(managedUserId, job.recipe_id);
    if (!recipe.running) throw new HttpError(409, 'This workflow is stopped, so it cannot run again: start it, then press Run again.');
    const { jobId } = await engine.rerun(managedUserId, job.id);
    return { status: 'ok', job_id: jobId };
  });

  app.post('/api/automation/recipes/:recipeId/uploads', { auth: 'user' }, async (request) => {
    const recipe = await engine.ownRecipe(managedUserOf(request), parseId((request.params as { recipeId: string }).recipeId, 'The recipe id'));
    requireRunning(recipe);
    const payload = await payloadOf(request, recipe, 'manual_upload', deps);
    if (!payload.files.length && !Object.keys(payload.data).length) throw badRequest('Upload a file or send some text to run the workflow.');
    const { jobId } = await engine.run(recipe, payload);
    return { status: 'ok', job_id: jobId };
  });

  // unknown tokens tried from one client address: past the limit its calls are refused, right or wrong
  const webhookGuesses = failureLimit(app, { name: 'webhook-token', max: WEBHOOK_GUESSES_PER_10_MINUTES, timeWindow: '10 minutes' });
  app.post(
    '/api/automation/webhooks/:token',
    {
      config: {
        rateLimit: {
          max: deps.webhookRateLimit,
          timeWindow: '1 minute',
          keyGenerator: (request: FastifyRequest) => `webhook:${String((request.params as { token?: string }).token ?? '').slice(0, 80)}`,
        },
      },
    },
    async (request, reply) => {
      webhookGuesses.check(request, reply);
      const token = String((request.params as { token: string }).token);
      // a plain call to a webhook that ran before: one statement checks the recipe and records the job
      if (engine.knowsWebhook(token) && !isSetupCall(request.body)) {
        const plain = plainPayloadOf(request, 'webhook');
        const schema = payloads.get(token);
        if (plain && schema) checkPayload(schema, plain.data, false);
        const known = plain && (await engine.runKnownWebhook(token, plain));
        if (known) return { status: 'ok', job_id: known.jobId };
      }
      const found = await engine.recipes.webhookRecipe(token);
      if (!found) {
        await webhookGuesses.failed(request, reply);
        throw notFound('Webhook not found.');
      }
      const { recipe } = found;
      if (!request.isMultipart() && isSetupCall(request.body)) return engine.setupCall(recipe, request.body);
      requireRunning(recipe);
      const schema = webhookPayloadOf(planRecipe(recipe.template, deps.registry)[0]?.trigger);
      const fields = bodyFields(request);
      if (fields) checkPayload(schema, fields, false);
      const payload = await payloadOf(request, recipe, 'webhook', deps, fields ? undefined : (p) => checkPayload(schema, p.data, p.files.length > 0));
      const { jobId } = await engine.run(recipe, payload);
      if (payloads.size >= 10_000 && !payloads.has(token)) payloads.clear();
      payloads.set(token, schema);
      engine.rememberWebhook(token, recipe, found.catalogueRecipe);
      return { status: 'ok', job_id: jobId };
    },
  );
}
