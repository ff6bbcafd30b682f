import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { authoredMessage, issueSentence, type SchemaIssue } from '../../core/validation-messages';
import { ERROR_MESSAGE_KEYWORD } from '../../core/validation-messages';
import { NotConnectedError } from '../connections/errors';
import { safeFetch, WebFetchError, type SafeFetchOptions } from '../web-fetch/safe-fetch';
import { PermanentStepError } from './errors';
import type { ActionContext, ActionDefinition, JsonSchema, StepDeclaration, TriggerDefinition, TriggerPayload } from './kinds';
import { applyTemplates, fieldsOf, hasPlaceholder, pathValue } from './templating';
import type { WebhookPayloadSchema } from './webhook-payload';

/**
 * The connection a step declared with `auth`, resolved for the recipe's owner and refreshed when
 * it was about to expire. A step that gets HTTP 401 with `token` calls `rejected()`: the token is
 * refreshed once; a refused refresh marks the connection lost and fails the step for good.
 * (`ctx.http` with `auth: true` does all of this itself.)
 */
export interface StepConnection {
  provider: string;
  token: string;
  accountId: string | null;
  /** the provider refused `token`: a fresh one, or a permanent step error (the connection is then marked lost) */
  rejected(): Promise<string>;
}

export interface StepHttpOptions {
  headers?: Record<string, string>;
  /** send the step's connection as `Authorization: Bearer …`; a 401 refreshes it and tries once more */
  auth?: boolean;
  /** default 10 s */
  timeoutMs?: number;
  /** largest answer read, bytes (default 2 MB) */
  maxBytes?: number;
}

export interface StepHttpResponse {
  status: number;
  ok: boolean;
  contentType: string;
  url: string;
  text: string;
  /** the body parsed as JSON (undefined when it is not JSON) */
  json: unknown;
}

/**
 * The step's HTTP client: GET and POST (a JSON body) to a user-given address, under the
 * website reader's SSRF guard (no private, loopback or link-local address, checked at connect
 * time and at each redirect) and its size and time limits. Any status is answered (read `ok`);
 * a refused address or a time-out throws a PermanentStepError / an Error the engine retries.
 */
export interface StepHttp {
  get(url: string, opts?: StepHttpOptions): Promise<StepHttpResponse>;
  post(url: string, body: unknown, opts?: StepHttpOptions): Promise<StepHttpResponse>;
}

/** What a step defined with defineAction receives besides its input. */
export interface StepContext<S = Record<string, unknown>, D = unknown> extends ActionContext {
  /** the step's settings: the recipe's values with '{{field}}' filled from the input, checked against `settings` */
  settings: S;
  /** the resolved connection when the step declares `auth` */
  connection: StepConnection | undefined;
  /** the plugin's declared services (its `needs`), typed */
  services: D;
  http: StepHttp;
}

/**
 * An engine action declared with its settings, auth and schemas (see defineAction): the
 * StepDeclaration's title, description, auth (the connection, resolved and refreshed before it
 * runs), settings (a recipe step's `params`, checked when the recipe starts and before each run),
 * input and output schemas, plus its key, limits and `run`.
 */
export interface ActionSpec<S = Record<string, unknown>, I = unknown, O = unknown, D = unknown> extends StepDeclaration {
  provider: string;
  action: string;
  timeoutMs?: number;
  retries?: number;
  run(input: I, ctx: StepContext<S, D>): Promise<O>;
}

/** What the engine gives every typed step (the runner builds it once per try). */
export interface StepRuntime {
  connections?: {
    accessToken(managedUserId: number, provider: string): Promise<{ token: string; accountId: string | null }>;
    rejected(managedUserId: number, provider: string): Promise<{ token: string; accountId: string | null }>;
    list(managedUserId: number): Promise<Array<{ id: number; provider: string }>>;
    markLost(connectionId: number, reason: string): Promise<void>;
    /** the connectable providers with their names ('Google Sheets') */
    providers?(): Array<{ provider: string; name: string }>;
  };
  /** test-only: let the HTTP client reach 127.0.0.1 (a local fixture server) */
  allowLoopback?: boolean;
}

/** An action definition built by defineAction: the engine runs it with a StepContext. */
export interface TypedActionDefinition<S = any, I = any, O = any, D = any> extends ActionDefinition<I, O> {
  step: StepDeclaration;
  runTyped(input: I, ctx: StepContext<S, D>): Promise<O>;
  /** the plugin's services, attached when its `steps(deps)` is built */
  services?: D;
}

export function isTypedAction(definition: ActionDefinition | undefined): definition is TypedActionDefinition {
  return !!definition && typeof (definition as Partial<TypedActionDefinition>).runTyped === 'function';
}

const ajv = new Ajv({
  keywords: [ERROR_MESSAGE_KEYWORD],
  allErrors: true,
  verbose: true,
  coerceTypes: false,
  useDefaults: true,
  strict: false,
  allowUnionTypes: true,
});
addFormats(ajv);
const compiled = new WeakMap<object, ValidateFunction>();

function validatorOf(schema: JsonSchema): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    v = ajv.compile(schema);
    compiled.set(schema, v);
  }
  return v;
}

/**
 * The input and output checks: an Ajv that never changes the data it checks (no defaults filled
 * in), one compiled function per declared schema, made when the step is defined.
 */
const dataAjv = new Ajv({ allErrors: true, verbose: true, coerceTypes: false, useDefaults: false, strict: false, allowUnionTypes: true });
addFormats(dataAjv);
const compiledData = new WeakMap<object, ValidateFunction>();

function dataValidatorOf(schema: JsonSchema): ValidateFunction {
  let v = compiledData.get(schema);
  if (!v) {
    v = dataAjv.compile(schema);
    compiledData.set(schema, v);
  }
  return v;
}

/** Fails at definition time when a schema does not compile (a plugin's mistake shows at start-up). */
function checkSchema(where: string, schema: JsonSchema | undefined, data = false): void {
  if (!schema) return;
  try {
    if (data) dataValidatorOf(schema);
    else validatorOf(schema);
  } catch (e) {
    throw new Error(`${where}: ${(e as Error).message}`);
  }
}

/**
 * A field as a person says it: the schema's own title ('Channel' → 'the channel'), else its name in
 * words ('row_number' → 'the row number'); an item of a list adds its place ('the name (item 2 of
 * the documents)').
 */
export function fieldWords(field: string, schema?: JsonSchema): string {
  const parts = field.split('.').filter(Boolean);
  if (!parts.length) return '';
  const words = (name: string) =>
    name
      .replace(/[_-]+/g, ' ')
      .replace(/([a-z])([A-Z])(?=[a-z])/g, (_, a: string, b: string) => `${a} ${b.toLowerCase()}`)
      .trim();
  const last = parts[parts.length - 1];
  let titled: string | undefined;
  if (parts.length === 1 && schema) {
    const title = (schema.properties as Record<string, { title?: unknown }> | undefined)?.[last]?.title;
    if (typeof title === 'string' && title.trim()) titled = title.trim();
  }
  const name = titled ?? words(last);
  // 'Channel' reads 'the channel'; 'URL' or 'VAT number' keep their capitals
  const phrase = `the ${/^[A-Z][a-z]/.test(name) ? name.charAt(0).toLowerCase() + name.slice(1) : name}`;
  const index = [...parts].reverse().findIndex((p) => /^\d+$/.test(p));
  if (index === -1) return phrase;
  const at = parts.length - 1 - index;
  const list = parts.slice(0, at).filter((p) => !/^\d+$/.test(p));
  if (at === parts.length - 1) return `item ${Number(parts[at]) + 1} of the ${words(list[list.length - 1] ?? 'list')}`;
  return `${phrase} (item ${Number(parts[at]) + 1} of the ${words(list[list.length - 1] ?? 'list')})`;
}

/** The error that names a value's problem best: an anyOf/oneOf's own rather than its branches', never an `if`. */
function firstError(errors: ErrorObject[]): ErrorObject | undefined {
  const depth = (e: ErrorObject) => e.schemaPath.split('/').length;
  const candidates = errors.filter((e) => e.keyword !== 'if');
  if (!candidates.length) return errors[0];
  return candidates.reduce((best, e) => (depth(e) < depth(best) ? e : best), candidates[0]);
}

/** The field an Ajv error is about, as a dotted path ('recipient', 'rows.0.name'). */
function fieldOf(error: ErrorObject): string {
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (error.keyword === 'required') return path ? `${path}.${String(error.params.missingProperty)}` : String(error.params.missingProperty);
  if (error.keyword === 'additionalProperties') return path ? `${path}.${String(error.params.additionalProperty)}` : String(error.params.additionalProperty);
  return path;
}

/** A step's settings that do not fit its schema: names the step and the field. */
export class StepSettingsError extends PermanentStepError {
  constructor(
    readonly stepTitle: string,
    readonly field: string,
    detail: string,
  ) {
    super(`The "${stepTitle}" step's settings are not valid: ${detail}`);
    this.name = 'StepSettingsError';
  }
}

/** The first problem of settings against a step's schema (see checkSettings), or undefined when they fit. */
function settingsError(declaration: Pick<StepDeclaration, 'settings'>, settings: unknown, opts: { templated: boolean }): ErrorObject | undefined {
  if (!declaration.settings) return undefined;
  const validate = validatorOf(declaration.settings);
  const copy = structuredClone(settings);
  if (validate(copy)) return undefined;
  const errors = (validate.errors ?? []).filter((e) => {
    if (!opts.templated || e.keyword === 'required' || e.keyword === 'additionalProperties') return true;
    const value = e.instancePath ? pathValue(copy, e.instancePath.slice(1).replace(/\//g, '.')) : copy;
    return !hasPlaceholder(value);
  });
  // an anyOf/oneOf branch error comes with its parts: the outermost one names the field best
  return errors.find((e) => e.keyword !== 'if') ?? errors[0];
}

/**
 * Checks settings against a step's schema. `templated`: the recipe's values as written, where a
 * string with a '{{field}}' placeholder stands for a value only known when the step runs and is
 * accepted for any rule of its field (a missing required setting is still refused).
 */
export function checkSettings(declaration: Pick<StepDeclaration, 'title' | 'settings'>, settings: Record<string, unknown>, opts: { templated: boolean }): void {
  const first = settingsError(declaration, settings, opts);
  if (!first) return;
  const field = fieldOf(first);
  const detail = issueSentence(first as unknown as SchemaIssue, field ? `the setting "${field}"` : 'the settings');
  throw new StepSettingsError(declaration.title, field, detail.charAt(0).toUpperCase() + detail.slice(1));
}

/**
 * What is wrong with settings a person entered for a step, as one plain sentence naming the field
 * in words ('The channel must be at most 80 characters long.'), or undefined when they fit the
 * step's schema. A '{{field}}' value is accepted (it is checked when the step runs).
 */
export function settingsProblem(declaration: Pick<StepDeclaration, 'settings'>, settings: unknown): { field: string; message: string } | undefined {
  if (!settings || typeof settings !== 'object' || Array.isArray(settings)) return { field: '', message: 'The settings must be a set of named values.' };
  const first = settingsError(declaration, settings, { templated: true });
  if (!first) return undefined;
  const field = fieldOf(first);
  if (first.keyword === 'additionalProperties') return { field, message: `This step has no setting called ${field.replace(/[_-]+/g, ' ')}.` };
  const authored = authoredMessage(first as unknown as SchemaIssue);
  if (authored) return { field, message: authored };
  const words = field ? fieldWords(field, declaration.settings) : 'the settings';
  return { field, message: issueSentence(first as unknown as SchemaIssue, words) };
}

/**
 * A step's input or output that does not fit the schema it declares: trying again cannot help,
 * so the step fails at once. The message names the step and the field in words; `details` (Ajv's
 * errors) are for the log.
 */
export class StepDataError extends PermanentStepError {
  constructor(
    message: string,
    readonly part: 'input' | 'output',
    readonly field: string,
    readonly details: ErrorObject[],
  ) {
    super(message);
    this.name = 'StepDataError';
  }
}

/** A plain sentence for a value that breaks the input or output schema of a step. */
function dataSentence(title: string, part: 'input' | 'output', error: ErrorObject, schema: JsonSchema): string {
  const field = fieldOf(error);
  const step = `The "${title}" step`;
  const words = field ? fieldWords(field, schema) : part === 'output' ? 'the result' : 'the input';
  if (error.keyword === 'required')
    return part === 'output'
      ? `${step} produced no ${words.replace(/^the /, '')}.`
      : `${step} received no ${words.replace(/^the /, '')} from the step before it.`;
  if (error.keyword === 'additionalProperties') {
    const what = words.replace(/^the /, '');
    return part === 'output' ? `${step} produced a ${what}, which it does not declare.` : `${step} received a ${what}, which it does not take.`;
  }
  const rule = issueSentence(error as unknown as SchemaIssue, words);
  const lowered = rule.charAt(0).toLowerCase() + rule.slice(1);
  return part === 'output' ? `${step} produced an unusable result: ${lowered}` : `${step} received an unusable input: ${lowered}`;
}

/**
 * Checks a step's input (before it runs) or its output (after) against the schema the step
 * declares, with the function compiled when the step was defined. A mismatch is logged with Ajv's
 * errors for developers and fails the step for good with a sentence naming the step and the field
 * ('The "Add a row to Google Sheets" step produced no row number.'). No schema: nothing to check.
 */
export function checkStepData(
  declaration: Pick<StepDeclaration, 'title' | 'input' | 'output'>,
  part: 'input' | 'output',
  value: unknown,
  log?: { warn(msg: string): void },
): void {
  const schema = declaration[part];
  if (!schema) return;
  const validate = dataValidatorOf(schema);
  if (validate(value)) return;
  const errors = validate.errors ?? [];
  const first = firstError(errors)!;
  const message = dataSentence(declaration.title, part, first, schema);
  const details = errors
    .slice(0, 10)
    .map((e) => `${e.instancePath || '/'} ${e.keyword} ${JSON.stringify(e.params)} (schema ${e.schemaPath})`)
    .join('; ');
  log?.warn(`its ${part} does not fit the schema it declares: ${details}`);
  throw new StepDataError(message, part, fieldOf(first), errors.slice(0, 10));
}

/** The settings a step runs with: its params with '{{field}}' filled from the input, then checked (defaults applied). */
export function settingsFor(declaration: StepDeclaration, params: Record<string, unknown>, input: unknown): Record<string, unknown> {
  const filled = applyTemplates(params, fieldsOf(input));
  if (!declaration.settings) return filled;
  checkSettings(declaration, filled, { templated: false });
  validatorOf(declaration.settings)(filled); // applies the schema's defaults
  return filled;
}

/** Resolves the step's connection: not connected (or refused) is a permanent step error naming the connector. */
async function connectionFor(provider: string, ctx: ActionContext, runtime: StepRuntime): Promise<StepConnection> {
  const connections = runtime.connections;
  if (!connections) throw new PermanentStepError(`This step needs a ${provider} connection, but connections are not available on this server.`);
  const permanent = (e: unknown): never => {
    if (e instanceof NotConnectedError) throw new PermanentStepError(e.message);
    throw e;
  };
  const first = await connections.accessToken(ctx.managedUserId, provider).catch(permanent);
  let rejections = 0;
  const connection: StepConnection = {
    provider,
    token: first.token,
    accountId: first.accountId,
    async rejected() {
      rejections += 1;
      if (rejections > 1) {
        // refused again with a freshly refreshed token: the grant is gone; the screens show it lost
        const row = (await connections.list(ctx.managedUserId)).find((c) => c.provider === provider);
        const reason = 'it refused the access token (HTTP 401) even after a refresh';
        if (row) await connections.markLost(row.id, reason);
        const name = connections.providers?.().find((p) => p.provider === provider)?.name ?? provider;
        throw new PermanentStepError(new NotConnectedError(provider, name, reason).message);
      }
      const fresh = await connections.rejected(ctx.managedUserId, provider).catch(permanent);
      connection.token = fresh.token;
      connection.accountId = fresh.accountId;
      return fresh.token;
    },
  };
  return connection;
}

function stepHttp(ctx: ActionContext, connection: StepConnection | undefined, runtime: StepRuntime): StepHttp {
  const send = async (method: 'GET' | 'POST', url: string, body: unknown, opts: StepHttpOptions = {}): Promise<StepHttpResponse> => {
    if (opts.auth && !connection) throw new PermanentStepError('This step asked to send its connection, but it declares no `auth`.');
    const once = async (): Promise<StepHttpResponse> => {
      const options: SafeFetchOptions = {
        method,
        json: method === 'POST' ? body : undefined,
        headers: {
          accept: 'application/json, text/*;q=0.9, */*;q=0.1',
          ...opts.headers,
          ...(opts.auth && connection ? { authorization: `Bearer ${connection.token}` } : {}),
        },
        accept: ['*/*'],
        allowErrorStatus: true,
        timeoutMs: opts.timeoutMs,
        maxBytes: opts.maxBytes,
        allowLoopback: runtime.allowLoopback,
      };
      let result;
      try {
        result = await safeFetch(url, options);
      } catch (e) {
        if (
          e instanceof WebFetchError &&
          ['invalid-url', 'unsupported-scheme', 'credentials-in-url', 'forbidden-address', 'too-large', 'unsupported-method'].includes(e.code)
        ) {
          throw new PermanentStepError(`${e.message} (${url.slice(0, 120)})`);
        }
        throw e;
      }
      const text = result.body.toString('utf8');
      let json: unknown;
      try {
        json = text && /json/.test(result.contentType) ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      return { status: result.status, ok: result.status >= 200 && result.status < 300, contentType: result.contentType, url: result.url, text, json };
    };
    if (ctx.signal.aborted) throw new Error('The step was stopped before its request was sent.');
    let res = await once();
    while (res.status === 401 && opts.auth && connection) {
      await connection.rejected(); // throws once the refreshed token is refused too
      res = await once();
    }
    return res;
  };
  return {
    get: (url, opts) => send('GET', url, undefined, opts),
    post: (url, body, opts) => send('POST', url, body, opts),
  };
}

/** Builds the context of a typed step from the engine's own (the runner calls it for each try). */
export async function stepContextOf<D>(
  definition: TypedActionDefinition,
  input: unknown,
  ctx: ActionContext,
  runtime: StepRuntime,
  services: D,
): Promise<StepContext<Record<string, unknown>, D>> {
  const settings = settingsFor(definition.step, ctx.params, input);
  const connection = definition.step.auth ? await connectionFor(definition.step.auth, ctx, runtime) : undefined;
  return { ...ctx, settings, connection, services, http: stepHttp(ctx, connection, runtime) };
}

/**
 * Declares an engine action: its key (provider:action), title, the connection it uses (`auth`),
 * its settings, input and output as JSON Schemas, and `run(input, ctx)`. The engine resolves and
 * refreshes the connection, fills '{{field}}' in the settings from the input and checks them
 * (a recipe with invalid settings does not start; a run whose filled-in settings are invalid
 * fails the step naming the field), and gives the step a logger, its idempotency key, the
 * plugin's services and a safe HTTP client. Return it from a plugin's `steps: (deps) => [...]`.
 */
export function defineAction<S = Record<string, unknown>, I = unknown, O = unknown, D = unknown>(
  spec: ActionSpec<S, I, O, D>,
): TypedActionDefinition<S, I, O, D> {
  if (!/^[a-z0-9_]+$/.test(spec.provider) || !/^[a-z0-9_]+$/.test(spec.action)) {
    throw new Error(`Step "${spec.provider}:${spec.action}": provider and action must be lower_snake_case`);
  }
  if (!spec.title?.trim()) throw new Error(`Step "${spec.provider}:${spec.action}" needs a title`);
  for (const part of ['settings', 'input', 'output'] as const)
    checkSchema(`Step "${spec.provider}:${spec.action}" ${part} schema`, spec[part], part !== 'settings');
  const step: StepDeclaration = {
    title: spec.title,
    description: spec.description,
    auth: spec.auth,
    settings: spec.settings,
    input: spec.input,
    output: spec.output,
  };
  return {
    provider: spec.provider,
    action: spec.action,
    name: spec.title,
    timeoutMs: spec.timeoutMs,
    retries: spec.retries,
    step,
    runTyped: spec.run,
    run() {
      return Promise.reject(new Error(`Step "${spec.provider}:${spec.action}" runs only inside the engine, which gives it its settings and connection.`));
    },
  };
}

/** A trigger declared with its payload schema (what a webhook call or a push brings). */
export interface TriggerSpec {
  provider: string;
  action: string;
  title: string;
  description?: string;
  /** the connection the trigger watches, if any */
  auth?: string;
  /** what a run's payload data carries, as a JSON Schema (checked for webhook calls and pushes) */
  payload?: WebhookPayloadSchema;
  describe?(payload: TriggerPayload): string;
}

/** Declares a trigger for a plugin's `steps: (deps) => [...]` (a push trigger, or one that a webhook call starts). */
export function defineTrigger(spec: TriggerSpec): TriggerDefinition & { step: StepDeclaration } {
  if (!/^[a-z0-9_]+$/.test(spec.provider) || !/^[a-z0-9_]+$/.test(spec.action)) {
    throw new Error(`Trigger "${spec.provider}:${spec.action}": provider and action must be lower_snake_case`);
  }
  checkSchema(`Trigger "${spec.provider}:${spec.action}" payload schema`, spec.payload as JsonSchema | undefined);
  return {
    provider: spec.provider,
    action: spec.action,
    name: spec.title,
    payload: spec.payload,
    describe: spec.describe,
    step: { title: spec.title, description: spec.description, auth: spec.auth, input: spec.payload as JsonSchema | undefined },
  };
}

export type { JsonSchema, StepDeclaration };
