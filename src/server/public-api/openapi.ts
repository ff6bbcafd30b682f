/**
 * The OpenAPI 3.1 document of the public API, generated at start-up from the operations table
 * (./operations) and the JSON Schemas under schemas/ (./schemas): every operation's input, and
 * every status it answers with its application/json schema. Nothing here is written by hand
 * but the words.
 */
import { OPERATIONS } from './operations';
import { asComponent, componentName, type JsonSchema, type SchemaId } from './schemas';

const ERROR: SchemaId = 'public-api/error';

/** The key management routes (authenticated with the user's login token, not a key). */
interface KeyRoute {
  operationId: string;
  method: 'get' | 'post' | 'delete';
  path: string;
  summary: string;
  description: string;
  body?: SchemaId;
  pathId?: boolean;
  replies: Record<number, { description: string; schema: SchemaId }>;
}

export const KEY_ROUTES: KeyRoute[] = [
  {
    operationId: 'createApiKey',
    method: 'post',
    path: '/api/v1/keys',
    summary: 'Create an API key',
    description: 'Creates a key that acts as you on the public API and the MCP server. The key is in this reply only: store it now (only its hash is kept).',
    body: 'public-api/key-create-request',
    replies: {
      201: { description: 'The new key.', schema: 'public-api/key-created' },
      400: { description: 'No name, or too many keys.', schema: ERROR },
    },
  },
  {
    operationId: 'listApiKeys',
    method: 'get',
    path: '/api/v1/keys',
    summary: 'List your API keys',
    description: 'Your live keys: name, first characters, when created and when last used. Never the secret.',
    replies: { 200: { description: 'Your keys.', schema: 'public-api/key-list' } },
  },
  {
    operationId: 'revokeApiKey',
    method: 'delete',
    path: '/api/v1/keys/{id}',
    summary: 'Revoke an API key',
    description: 'Revokes one of your keys: every call with it is refused (401) from now on.',
    pathId: true,
    replies: {
      200: { description: 'The key is revoked.', schema: 'public-api/key-revoked' },
      400: { description: 'The id is not a number.', schema: ERROR },
      404: { description: 'Not one of your live keys.', schema: ERROR },
    },
  },
];

function content(id: SchemaId) {
  return { 'application/json': { schema: { $ref: `#/components/schemas/${componentName(id)}` } } };
}

function responses(replies: Record<number, { description: string; schema: SchemaId }>, needed: Set<string>, extra: Record<number, string>) {
  const all: Record<string, unknown> = {};
  const add = (status: number, description: string, schema: SchemaId) => {
    needed.add(schema);
    all[String(status)] = { description, content: content(schema) };
  };
  for (const [status, r] of Object.entries(replies)) add(Number(status), r.description, r.schema);
  for (const [status, description] of Object.entries(extra)) if (!all[status]) add(Number(status), description, ERROR);
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => Number(a) - Number(b)));
}

const KEY_ERRORS = {
  401: 'No API key, or a wrong or revoked one (Authorization: Bearer fm_…).',
  429: 'Too many calls with this key (or too many wrong keys from your address): wait retry_after seconds.',
  500: 'Something went wrong on the server.',
};
const LOGIN_ERRORS = {
  401: 'Not logged in: send your login (JWT) access token.',
  429: 'Too many calls: wait a minute.',
  500: 'Something went wrong on the server.',
};

export interface OpenApiOptions {
  version: string;
  /** the server's public address (PUBLIC_URL) */
  serverUrl: string;
}

export function openApiDocument(opts: OpenApiOptions): Record<string, unknown> {
  const needed = new Set<string>();
  const paths: Record<string, Record<string, unknown>> = {};
  const at = (path: string) => (paths[path] ??= {});

  for (const op of OPERATIONS) {
    const parameters = op.pathId
      ? [
          {
            name: op.pathId.name,
            in: 'path',
            required: true,
            description: op.pathId.description,
            schema: op.pathId.type === 'integer' ? { type: 'integer', minimum: 1 } : { type: 'string' },
          },
        ]
      : undefined;
    const bodyId = op.method === 'POST' ? (op.body ?? (op.pathId ? undefined : op.input)) : undefined;
    if (bodyId) needed.add(bodyId);
    at(op.path)[op.method.toLowerCase()] = {
      operationId: op.operationId,
      summary: op.summary,
      description: op.tool ? `${op.description}\n\nMCP tool: \`${op.tool}\`.` : op.description,
      tags: op.tags,
      security: [{ apiKey: [] }],
      ...(parameters ? { parameters } : {}),
      ...(bodyId ? { requestBody: { required: true, content: content(bodyId) } } : {}),
      responses: responses(op.replies, needed, KEY_ERRORS),
    };
  }
  for (const r of KEY_ROUTES) {
    if (r.body) needed.add(r.body);
    at(r.path)[r.method] = {
      operationId: r.operationId,
      summary: r.summary,
      description: r.description,
      tags: ['API keys'],
      security: [{ login: [] }],
      ...(r.pathId ? { parameters: [{ name: 'id', in: 'path', required: true, description: 'the key id', schema: { type: 'integer', minimum: 1 } }] } : {}),
      ...(r.body ? { requestBody: { required: true, content: content(r.body) } } : {}),
      responses: responses(r.replies, needed, LOGIN_ERRORS),
    };
  }

  // every schema reached, each once, with its references pointing at the others
  const schemas: Record<string, JsonSchema> = {};
  const done = new Set<string>();
  for (let todo = [...needed]; todo.length; todo = [...needed].filter((id) => !done.has(id))) {
    for (const id of todo) {
      done.add(id);
      schemas[componentName(id)] = asComponent(id, needed);
    }
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Flowmatic public API',
      version: opts.version,
      description:
        'Your recipes and AI workflows, for programs. Authenticate with an API key from My Account → API keys: `Authorization: Bearer fm_…`. A key acts as its user, no more; each key has its own rate limit. The same operations are tools of the MCP server at /mcp (Streamable HTTP, same header).',
    },
    servers: [{ url: opts.serverUrl }],
    tags: [
      { name: 'Recipes', description: 'Combinations, recipes, runs and jobs.' },
      { name: 'AI', description: 'The AI workflows: invoices, emotions, document search, reconciliation, financial analysis.' },
      { name: 'API keys', description: 'Managed with your login token (the My Account page does this).' },
    ],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'fm_ API key', description: 'An API key from My Account → API keys.' },
        login: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Your login access token (POST /api/platform/api-jwt-token/).' },
      },
    },
  };
}
