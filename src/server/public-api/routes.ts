/**
 * The public API's HTTP face:
 * - /api/v1/keys (POST, GET, DELETE /{id}) with the user's login token: the key management;
 * - every operation of ./operations as a REST route under /api/v1, with `Authorization: Bearer fm_…`;
 * - GET /api/v1/openapi.json (no key): the generated OpenAPI 3.1 document;
 * - GET /api/docs: the docs page (@fastify/swagger-ui, static mode, its assets served from here);
 * - POST /mcp: the MCP server (GET and DELETE answer 405: it keeps no sessions).
 * No key, a wrong or a revoked key: 401. Each key has its own rate limit; wrong keys from one
 * address are limited too. Every call is scoped to the key's user.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Ajv, { type ValidateFunction } from 'ajv';
import { HttpError, badRequest, unauthorised } from '../http/errors';
import { failureLimit } from '../http/rate-limits';
import { AJV_OPTIONS } from '../http/schema-validation';
import { userOf } from '../auth/guard';
import { parseId } from '../http/ids';
import { base64BodyLimit } from '../combination/base64-upload';
import { requestErrorSentence, type SchemaIssue } from '../../core/validation-messages';
import type { ApiKeys, KeyCaller } from './api-keys';
import { OPERATIONS, outcomeOfError, type Caller, type Operation, type Outcome } from './operations';
import type { PublicApiServices } from './services';
import { inlined } from './schemas';
import { openApiDocument } from './openapi';
import { McpEndpoint, MCP_PATH } from './mcp';

export const API_PREFIX = '/api/v1';
export const DOCS_PATH = '/api/docs';
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
/** Wrong keys one client address may try in 10 minutes before its calls are refused for a while. */
export const WRONG_KEYS_PER_10_MINUTES = 100;
export const NO_KEY = 'Send your API key as "Authorization: Bearer fm_…" (create one in My Account → API keys).';
export const BAD_KEY = 'This API key is not valid: it is wrong or has been revoked. Create a new one in My Account → API keys.';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: KeyCaller;
  }
}

export interface PublicApiRouteDeps {
  keys: ApiKeys;
  services: PublicApiServices;
  /** calls per key per minute */
  keyRateLimit: number;
  maxUploadBytes: number;
  version: string;
  publicUrl: string;
}

type Limiter = (req: FastifyRequest) => Promise<{ isAllowed: boolean; isExceeded: boolean; ttlInSeconds: number }>;

/** Checks an operation's input with its schema (the forms' messages name the field). */
export class InputCheck {
  private readonly ajv = new Ajv({ ...AJV_OPTIONS, keywords: [...AJV_OPTIONS.keywords], allowUnionTypes: true, strict: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(ops: Operation[]) {
    for (const op of ops) if (!this.compiled.has(op.input)) this.compiled.set(op.input, this.ajv.compile(inlined(op.input, { messages: true })));
  }

  /** The input, or 400 naming what is wrong. */
  check(op: Operation, input: unknown): unknown {
    const validate = this.compiled.get(op.input)!;
    // a copy: defaults are filled in, the caller's object stays as it was
    const copy = input === undefined ? {} : structuredClone(input);
    if (!validate(copy)) throw badRequest(requestErrorSentence((validate.errors ?? []) as SchemaIssue[]).replace(/^The request body/, 'The input'));
    return copy;
  }
}

export async function registerPublicApiRoutes(app: FastifyInstance, deps: PublicApiRouteDeps): Promise<void> {
  const { keys, services } = deps;
  const inputs = new InputCheck(OPERATIONS);
  const create = (app as unknown as { createRateLimit(o: object): Limiter }).createRateLimit;
  const perKey = create({ max: deps.keyRateLimit, timeWindow: '1 minute', keyGenerator: (r: FastifyRequest) => `apikey|${r.apiKey?.keyId ?? r.ip}` });
  const wrongKeys = failureLimit(app, { name: 'api-key', max: WRONG_KEYS_PER_10_MINUTES, timeWindow: '10 minutes' });

  /** Authenticates the key, counts the call against its limit and records its use. */
  const keyAuth: onRequestAsyncHookHandler = async (request, reply) => {
    wrongKeys.check(request, reply);
    const m = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (!m) throw unauthorised(NO_KEY, { code: 'api_key_missing' });
    const found = await keys.resolve(m[1]);
    if (!found) {
      await wrongKeys.failed(request, reply);
      throw unauthorised(BAD_KEY, { code: 'api_key_not_valid' });
    }
    if (!found.user.isVerified) throw unauthorised('Please verify your account, then login.', { code: 'user_not_verified' });
    request.apiKey = found;
    request.user = found.user;
    const limit = await perKey(request);
    if (!limit.isAllowed && limit.isExceeded) {
      const retry = Math.max(1, limit.ttlInSeconds);
      reply.header('retry-after', String(retry));
      throw new HttpError(429, `Too many calls with this API key: the limit is ${deps.keyRateLimit} a minute. Wait ${retry} s and try again.`, {
        retry_after: retry,
      });
    }
    await keys.touch(found.keyId);
  };

  const callerOf = (request: FastifyRequest): Caller => ({
    user: request.apiKey!.user,
    keyId: request.apiKey!.keyId,
    keyName: request.apiKey!.keyName,
    ip: request.ip,
  });

  /** Runs an operation for a caller: the input checked, errors turned into their status and message. */
  const runOperation = async (op: Operation, caller: Caller, input: unknown): Promise<Outcome> => {
    try {
      return await op.run(services, caller, inputs.check(op, input));
    } catch (error) {
      const outcome = outcomeOfError(error);
      if (outcome) return outcome;
      throw error;
    }
  };

  const bodyLimit = base64BodyLimit(2, deps.maxUploadBytes);
  // start, stop (and list calls) take no body: an empty one sent as JSON is no body, not a 400 (this scope only)
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : json(request, body as string, done),
  );

  for (const op of OPERATIONS) {
    const url = op.path.replace(/\{(\w+)\}/g, ':$1');
    app.route({
      method: op.method,
      url,
      writeLimit: false,
      bodyLimit,
      onRequest: keyAuth,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const id = op.pathId ? (request.params as Record<string, string>)[op.pathId.name] : undefined;
        const input = op.inputOf ? op.inputOf(id, request.body) : (request.body ?? {});
        const outcome = await runOperation(op, callerOf(request), input);
        if (outcome.status >= 500) request.log.error({ outcome, operation: op.operationId }, 'public API call failed inside');
        return reply.code(outcome.status).send(outcome.body);
      },
    });
  }

  // key management, with the user's login (a key cannot make keys)
  app.post(`${API_PREFIX}/keys`, { auth: 'user', schema: { body: inlined('public-api/key-create-request', { messages: true }) } }, async (request, reply) => {
    const created = await keys.create(userOf(request).id, (request.body as { name: string }).name);
    return reply.code(201).send(created);
  });
  app.get(`${API_PREFIX}/keys`, { auth: 'user' }, async (request) => ({ keys: await keys.list(userOf(request).id) }));
  app.delete(`${API_PREFIX}/keys/:id`, { auth: 'user' }, async (request) => {
    const id = parseId((request.params as { id: string }).id, 'The key id');
    await keys.revoke(userOf(request).id, id);
    return { status: 'ok', id };
  });

  // the document, generated once, and the docs page fed with it
  const document = openApiDocument({ version: deps.version, serverUrl: deps.publicUrl });
  const documentJson = JSON.stringify(document);
  app.get(OPENAPI_PATH, async (_request, reply) => reply.type('application/json; charset=utf-8').header('Cache-Control', 'no-cache').send(documentJson));
  await app.register(fastifySwagger, { mode: 'static', specification: { document: document as never } });
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PATH,
    uiConfig: { validatorUrl: null, docExpansion: 'list', deepLinking: true, tryItOutEnabled: false } as never,
    theme: { title: 'Flowmatic API' },
  });

  // MCP
  const mcp = new McpEndpoint(runOperation, deps.version);
  app.post(MCP_PATH, { writeLimit: false, bodyLimit, onRequest: keyAuth }, async (request, reply) => mcp.handle(request, reply, callerOf(request)));
  const noSessions = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: this MCP server keeps no sessions; send each message with POST.' },
        id: null,
      });
  app.get(MCP_PATH, { onRequest: keyAuth }, noSessions);
  app.delete(MCP_PATH, { writeLimit: false, onRequest: keyAuth }, noSessions);
}
