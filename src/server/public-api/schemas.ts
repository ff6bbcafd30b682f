/**
 * The JSON Schemas the public API is built on, by `$id`: its own (schemas/public-api) and those
 * of the forms and routes it shares (the combination reply, the job views, the emotion and search
 * bodies, the reconciliation and financial-analysis settings). The routes validate with them,
 * the OpenAPI document is generated from them and the MCP tools take them as input schemas.
 */
import combination from '../../../schemas/catalogue/combination.schema.json';
import connector from '../../../schemas/catalogue/connector.schema.json';
import trigger from '../../../schemas/catalogue/trigger.schema.json';
import jobView from '../../../schemas/automation/job-view.schema.json';
import jobStepView from '../../../schemas/automation/job-step-view.schema.json';
import anyFields from '../../../schemas/automation/webhook-payloads/any-fields.schema.json';
import textProcessing from '../../../schemas/emotion-analysis/text-processing.schema.json';
import searchQuery from '../../../schemas/document-search/query.schema.json';
import reconciliationConfig from '../../../schemas/invoice-reconciliation/config.schema.json';
import financialConfig from '../../../schemas/financial-analysis/config.schema.json';
import error from '../../../schemas/public-api/error.schema.json';
import keyCreateRequest from '../../../schemas/public-api/key-create-request.schema.json';
import keyCreated from '../../../schemas/public-api/key-created.schema.json';
import keyList from '../../../schemas/public-api/key-list.schema.json';
import keyRevoked from '../../../schemas/public-api/key-revoked.schema.json';
import noInput from '../../../schemas/public-api/no-input.schema.json';
import combinationList from '../../../schemas/public-api/combination-list.schema.json';
import recipe from '../../../schemas/public-api/recipe.schema.json';
import recipeList from '../../../schemas/public-api/recipe-list.schema.json';
import recipeRef from '../../../schemas/public-api/recipe-ref.schema.json';
import recipeState from '../../../schemas/public-api/recipe-state.schema.json';
import runRequest from '../../../schemas/public-api/run-request.schema.json';
import runCreated from '../../../schemas/public-api/run-created.schema.json';
import jobRef from '../../../schemas/public-api/job-ref.schema.json';
import job from '../../../schemas/public-api/job.schema.json';
import jobState from '../../../schemas/public-api/job-state.schema.json';
import invoiceExtractRequest from '../../../schemas/public-api/invoice-extract-request.schema.json';
import invoiceExtraction from '../../../schemas/public-api/invoice-extraction.schema.json';
import emotionReply from '../../../schemas/public-api/emotion-reply.schema.json';
import searchReply from '../../../schemas/public-api/search-reply.schema.json';
import reconciliationRequest from '../../../schemas/public-api/reconciliation-request.schema.json';
import reconciliationReply from '../../../schemas/public-api/reconciliation-reply.schema.json';
import reconciliationSide from '../../../schemas/public-api/reconciliation-side.schema.json';
import financialAnalysisRequest from '../../../schemas/public-api/financial-analysis-request.schema.json';
import financialAnalysis from '../../../schemas/public-api/financial-analysis.schema.json';

export type JsonSchema = Record<string, unknown>;

const ALL = [
  combination,
  connector,
  trigger,
  jobView,
  jobStepView,
  anyFields,
  textProcessing,
  searchQuery,
  reconciliationConfig,
  financialConfig,
  error,
  keyCreateRequest,
  keyCreated,
  keyList,
  keyRevoked,
  noInput,
  combinationList,
  recipe,
  recipeList,
  recipeRef,
  recipeState,
  runRequest,
  runCreated,
  jobRef,
  job,
  jobState,
  invoiceExtractRequest,
  invoiceExtraction,
  emotionReply,
  searchReply,
  reconciliationRequest,
  reconciliationReply,
  reconciliationSide,
  financialAnalysisRequest,
  financialAnalysis,
] as JsonSchema[];

/** Every schema above by its `$id`. */
export const SCHEMAS: ReadonlyMap<string, JsonSchema> = new Map(ALL.map((s) => [s.$id as string, s]));

/** The schema ids the public API's operations use (checked at start-up: a typo fails loudly). */
export type SchemaId = string;

export function schemaById(id: SchemaId): JsonSchema {
  const s = SCHEMAS.get(id);
  if (!s) throw new Error(`No JSON Schema with $id "${id}" is known to the public API (src/server/public-api/schemas.ts)`);
  return s;
}

/**
 * A `$ref` of the schema `baseId` as [schema id, JSON pointer]: an id given whole
 * ("automation/job-view") or relative to the referring schema's folder ("connector" in
 * "catalogue/combination" is "catalogue/connector").
 */
export function resolveRef(ref: string, baseId: string): [string, string] {
  const [target, pointer = ''] = ref.split('#');
  if (!target) return [baseId, pointer];
  if (SCHEMAS.has(target)) return [target, pointer];
  const folder = baseId.includes('/') ? baseId.slice(0, baseId.lastIndexOf('/') + 1) : '';
  const relative = folder + target;
  if (SCHEMAS.has(relative)) return [relative, pointer];
  throw new Error(`The $ref "${ref}" in "${baseId}" names no known schema`);
}

function atPointer(schema: JsonSchema, pointer: string): JsonSchema {
  let node: unknown = schema;
  for (const part of pointer.split('/').filter(Boolean)) node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  if (!node || typeof node !== 'object') throw new Error(`No schema at #${pointer}`);
  return node as JsonSchema;
}

/** Keywords the documents and tools leave out: ids (each copy stands alone) and the forms' own messages. */
const DROPPED = new Set(['$id', '$schema', 'errorMessage']);

/** Deep copy of `node` with each `$ref` replaced by what `refTo` makes of it. */
function mapRefs(node: unknown, baseId: string, refTo: (id: string, pointer: string) => unknown, dropped = DROPPED): unknown {
  if (Array.isArray(node)) return node.map((n) => mapRefs(n, baseId, refTo, dropped));
  if (!node || typeof node !== 'object') return node;
  const obj = node as Record<string, unknown>;
  if (typeof obj.$ref === 'string') {
    const [id, pointer] = resolveRef(obj.$ref, baseId);
    const { $ref: _ref, ...rest } = obj;
    const target = refTo(id, pointer);
    return Object.keys(rest).length ? { allOf: [target], ...(mapRefs(rest, baseId, refTo, dropped) as object) } : target;
  }
  return Object.fromEntries(
    Object.entries(obj)
      .filter(([k]) => !dropped.has(k))
      .map(([k, v]) => [k, mapRefs(v, baseId, refTo, dropped)]),
  );
}

/**
 * The schema with every `$ref` inlined: self-contained, for an MCP tool's input; with
 * `messages`, the forms' errorMessage texts are kept (for validating a call with them).
 */
export function inlined(id: SchemaId, opts: { messages?: boolean } = {}, depth = 0): JsonSchema {
  if (depth > 20) throw new Error(`The schema "${id}" refers to itself`);
  const dropped = opts.messages ? ID_ONLY : DROPPED;
  return mapRefs(schemaById(id), id, (target, pointer) => atPointer(inlined(target, opts, depth + 1), pointer), dropped) as JsonSchema;
}
const ID_ONLY = new Set(['$id', '$schema']);

/** The OpenAPI component name of a schema id: "public-api/key-list" → "PublicApiKeyList". */
export function componentName(id: SchemaId): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
}

/** The schema as an OpenAPI component: each `$ref` points at its own component. Also lists the ids it needs. */
export function asComponent(id: SchemaId, needed: Set<string>): JsonSchema {
  return mapRefs(schemaById(id), id, (target, pointer) => {
    needed.add(target);
    return { $ref: `#/components/schemas/${componentName(target)}${pointer}` };
  }) as JsonSchema;
}
