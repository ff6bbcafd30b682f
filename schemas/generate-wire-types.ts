/**
 * Generates src/core/wire-types.ts: one TypeScript shape per wire type, derived from its JSON
 * Schema, so the client, the server and the tests share one definition. Run it after editing a
 * schema: `npm run schemas:types` (tests/unit/core/wire-types.test.ts fails while the file is stale).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compile, type JSONSchema } from 'json-schema-to-typescript';

const root = path.resolve(__dirname);
export const OUTPUT = path.resolve(root, '../src/core/wire-types.ts');

/** Schema file → the name of its type. A `$ref` to another file's `$id` becomes that type's name. */
export const WIRE_TYPES: Array<[file: string, name: string]> = [
  ['auth/login.schema.json', 'LoginPayload'],
  ['auth/register.schema.json', 'RegisterPayload'],
  ['auth/forget-password.schema.json', 'ForgetPasswordPayload'],
  ['auth/reset-password.schema.json', 'ResetPasswordPayload'],
  ['auth/email-verify.schema.json', 'EmailVerifyPayload'],
  ['auth/token-refresh.schema.json', 'TokenRefreshPayload'],
  ['account/user-update.schema.json', 'UserUpdatePayload'],
  ['account/change-password.schema.json', 'ChangePasswordPayload'],
  ['catalogue/trigger.schema.json', 'Trigger'],
  ['catalogue/connector.schema.json', 'Connector'],
  ['catalogue/combination.schema.json', 'Combination'],
  ['catalogue/workflow.schema.json', 'Workflow'],
  ['catalogue/solution.schema.json', 'Solution'],
  ['catalogue/vote.schema.json', 'VotePayload'],
  ['catalogue/search-workflow-template.schema.json', 'SearchWorkflowTemplatePayload'],
  ['catalogue/marketing.schema.json', 'MarketingPayload'],
  ['catalogue/provider-connection.schema.json', 'ProviderConnection'],
  ['catalogue/provider-recipe.schema.json', 'ProviderRecipe'],
  ['catalogue/user-recipe-record.schema.json', 'UserRecipeRecord'],
  ['catalogue/catalogue-contribution.schema.json', 'CatalogueContribution'],
  ['automation/job-step-view.schema.json', 'JobStepView'],
  ['automation/job-view.schema.json', 'JobView'],
];

/** Names for the catalogue contribution's parts, which the seeds are built from. */
const CONTRIBUTION_PART_NAMES: Record<string, string> = {
  connector: 'ConnectorSeed',
  trigger: 'TriggerSeed',
  recipe: 'RecipeTemplateSeed',
};

type Json = unknown;

function load(file: string): Record<string, Json> {
  return JSON.parse(readFileSync(path.join(root, file), 'utf8')) as Record<string, Json>;
}

/**
 * Form-only keywords go; `$ref`s to other files become references to their generated types.
 * `fieldNames`: the node is a `properties` map, whose keys are field names (a field may be called
 * `title`), not keywords.
 */
function prepare(node: Json, names: Map<string, string>, fieldNames = false): Json {
  if (Array.isArray(node)) return node.map((n) => prepare(n, names));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(node)) {
    if (fieldNames) {
      out[k] = prepare(v, names);
      continue;
    }
    if (k === 'title' || k === '$id' || k === 'errorMessage' || k === '$comment' || k === 'examples') continue;
    if (k === '$ref' && typeof v === 'string' && !v.startsWith('#')) {
      const name = names.get(v);
      if (!name) throw new Error(`No wire type for $ref "${v}"`);
      return { tsType: name };
    }
    out[k] = prepare(v, names, k === 'properties' || k === 'patternProperties');
  }
  return out;
}

export async function generateWireTypes(): Promise<string> {
  const names = new Map<string, string>();
  for (const [file, name] of WIRE_TYPES) {
    const id = load(file).$id;
    if (typeof id === 'string') {
      names.set(id, name);
      names.set(id.split('/').pop()!, name); // refs are relative to the referring file's folder
    }
  }
  const parts: string[] = [];
  for (const [file, name] of WIRE_TYPES) {
    const schema = prepare(load(file), names) as Record<string, Json>;
    if (name === 'CatalogueContribution') {
      const defs = schema.definitions as Record<string, Record<string, Json>>;
      for (const [key, title] of Object.entries(CONTRIBUTION_PART_NAMES)) defs[key] = { ...defs[key], title };
      const props = schema.properties as Record<string, { items: Record<string, Json> }>;
      props.solutions.items.title = 'SolutionSeed';
      props.workflows.items.title = 'WorkflowSeed';
      props.combinations.items.title = 'CombinationSeed';
    }
    const ts = await compile(schema as JSONSchema, name, {
      bannerComment: '',
      additionalProperties: false,
      declareExternallyReferenced: true,
      unreachableDefinitions: false,
      format: false,
      strictIndexSignatures: true,
      ignoreMinAndMaxItems: true,
    });
    parts.push(`// from schemas/${file}\n${ts.trim()}`);
  }
  return `/* eslint-disable */\n/**\n * Generated from schemas/ by schemas/generate-wire-types.ts (npm run schemas:types): do not edit.\n * One shape per wire type, used by the client, the server and the tests.\n */\n\n${parts.join('\n\n')}\n`;
}

if (require.main === module) {
  generateWireTypes().then((ts) => {
    writeFileSync(OUTPUT, ts);
    console.log(`wrote ${path.relative(process.cwd(), OUTPUT)}`);
  });
}
