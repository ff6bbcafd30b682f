import type { ErrorObject } from 'ajv';
import { createPrecompiledValidator, type CompiledValidateFunction, type ValidatorFunctions } from '@rjsf/validator-ajv8';
import { hashForSchema, schemaParser, type FormContextType, type RJSFSchema, type ValidatorType } from '@rjsf/utils';
import { issueSentence, type SchemaIssue } from '../../core/validation-messages';
import type { PrecompiledForm } from './precompiled-form';

export { ERROR_MESSAGE_KEYWORD } from '../../core/validation-messages';
export type { PrecompiledForm } from './precompiled-form';

/** Ajv's terse messages ("must NOT have fewer than 8 characters") in plain English, as the server says them. */
export function readableMessage(e: ErrorObject): string {
  return issueSentence(e as SchemaIssue);
}

/** The localizer hook of @rjsf/validator-ajv8: rewrites every Ajv message in place. */
export function localizeErrors(errors?: ErrorObject[] | null): void {
  if (!errors) return;
  for (const e of errors) e.message = readableMessage(e);
}

type Json = unknown;
type Node = Record<string, Json>;

/**
 * Equality of JSON values by structure alone: a schema cloned with structuredClone in another
 * realm (a test's jsdom) has arrays of another `Array`, which rjsf's deepEquals tells apart.
 */
function sameJson(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson((a as Node)[k], (b as Node)[k]));
}

const isNode = (v: Json): v is Node => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
const isPrimitiveList = (v: Json): v is Json[] => Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object');
/** Keywords a choice (`{ const, title }`) may carry besides the value. */
const ANNOTATIONS = new Set(['title', 'description', '$id', '$comment']);
/** A oneOf/anyOf whose options are all `{ const }` (with annotations): a list of choices. */
const isConstList = (v: Json): v is Node[] =>
  Array.isArray(v) && v.every((o) => isNode(o) && 'const' in o && Object.keys(o).every((k) => k === 'const' || ANNOTATIONS.has(k)));

/** A choice list whose items differ from the compiled schema's, checked by this module instead of Ajv. */
interface Choice {
  keyword: 'enum' | 'oneOf' | 'anyOf';
  /** the property names from the root to the value */
  dataPath: string[];
  /** `#/properties/...` of the schema holding the list */
  schemaPath: string;
  node: Node;
}

class NotPrecompiled extends Error {
  constructor(id: string, where: string) {
    super(
      `The form schema "${id}" differs from its precompiled validator at ${where}. Only choice lists (enum, or oneOf/anyOf of consts) ` +
        'may change at run time: after editing a form schema run `npm run forms:validators` (schemas/generate-form-validators.ts).',
    );
    this.name = 'NotPrecompiled';
  }
}

/**
 * Where `next` (the schema a form renders) differs from `base` (the one compiled at build time):
 * only choice lists may, e.g. a user's retired role added to the list; anything else throws.
 */
function choicesChanged(id: string, base: Node, next: Node, dataPath: string[], schemaPath: string, out: Choice[]): void {
  for (const key of new Set([...Object.keys(base), ...Object.keys(next)])) {
    if (sameJson(base[key], next[key])) continue;
    const at = `${schemaPath}/${key}`;
    if (key === 'enum' && isPrimitiveList(next[key]) && (base[key] === undefined || isPrimitiveList(base[key]))) {
      out.push({ keyword: 'enum', dataPath, schemaPath, node: next });
    } else if ((key === 'oneOf' || key === 'anyOf') && isConstList(next[key]) && (base[key] === undefined || isConstList(base[key]))) {
      out.push({ keyword: key, dataPath, schemaPath, node: next });
    } else if (key === 'properties' && isNode(base[key]) && isNode(next[key])) {
      const a = base[key] as Node;
      const b = next[key] as Node;
      for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
        if (!isNode(a[name]) || !isNode(b[name])) throw new NotPrecompiled(id, `${at}/${name}`);
        choicesChanged(id, a[name] as Node, b[name] as Node, [...dataPath, name], `${at}/${name}`, out);
      }
    } else {
      throw new NotPrecompiled(id, at);
    }
  }
}

/** The errors Ajv (allErrors, verbose) gives for a value outside a choice list, or none. */
function choiceErrors(c: Choice, data: Json): ErrorObject[] {
  let parent: Json = data;
  for (const name of c.dataPath.slice(0, -1)) parent = isNode(parent) ? parent[name] : undefined;
  const last = c.dataPath[c.dataPath.length - 1];
  // like Ajv's `properties`: only a property that is there, of an object, is checked
  if (!isNode(parent) || last === undefined || parent[last] === undefined) return [];
  const value = parent[last];
  const instancePath = c.dataPath.map((p) => `/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  const base = { instancePath, parentSchema: c.node, data: value };
  if (c.keyword === 'enum') {
    const allowed = c.node.enum as Json[];
    if (allowed.some((v) => sameJson(v, value))) return [];
    const err = {
      ...base,
      schemaPath: `${c.schemaPath}/enum`,
      keyword: 'enum',
      params: { allowedValues: allowed },
      message: 'must be equal to one of the allowed values',
      schema: allowed,
    };
    return [err as ErrorObject];
  }
  const options = c.node[c.keyword] as Node[];
  const passing = options.map((o, i) => (sameJson(o.const, value) ? i : -1)).filter((i) => i >= 0);
  if (c.keyword === 'anyOf' ? passing.length > 0 : passing.length === 1) return [];
  const errors: ErrorObject[] = [];
  options.forEach((o, i) => {
    if (passing.includes(i)) return;
    const at = `${c.schemaPath}/${c.keyword}/${i}/const`;
    errors.push({
      ...base,
      schemaPath: at,
      keyword: 'const',
      params: { allowedValue: o.const },
      message: 'must be equal to constant',
      schema: o.const,
      parentSchema: o,
    } as ErrorObject);
  });
  errors.push(
    (c.keyword === 'anyOf'
      ? { ...base, schemaPath: `${c.schemaPath}/anyOf`, keyword: 'anyOf', params: {}, message: 'must match a schema in anyOf', schema: options }
      : {
          ...base,
          schemaPath: `${c.schemaPath}/oneOf`,
          keyword: 'oneOf',
          params: { passingSchemas: passing.length ? passing : null },
          message: 'must match exactly one schema in oneOf',
          schema: options,
        }) as ErrorObject,
  );
  return errors;
}

/** The compiled root with the changed choice lists checked here: Ajv's errors for them are replaced. */
function withChoices(root: CompiledValidateFunction, choices: Choice[]): CompiledValidateFunction {
  const owned = (e: ErrorObject) =>
    choices.some((c) => e.schemaPath === `${c.schemaPath}/${c.keyword}` || e.schemaPath.startsWith(`${c.schemaPath}/${c.keyword}/`));
  const validate: CompiledValidateFunction = (data: Json) => {
    root(data);
    const errors = (root.errors ?? []).filter((e) => !owned(e));
    root.errors = null;
    for (const c of choices) errors.push(...choiceErrors(c, data));
    validate.errors = errors.length ? errors : null;
    return errors.length === 0;
  };
  return validate;
}

/** A sub-schema that is one choice (`{ const, title }`) or a list of them (`{ enum }`): checked without Ajv. */
function choiceCheck(schema: Node): CompiledValidateFunction | undefined {
  const keys = Object.keys(schema).filter((k) => !ANNOTATIONS.has(k));
  if (keys.length === 1 && keys[0] === 'const') return (data: Json) => sameJson(data, schema.const);
  if (keys.length === 1 && keys[0] === 'enum' && isPrimitiveList(schema.enum)) return (data: Json) => (schema.enum as Json[]).some((v) => sameJson(v, data));
  return undefined;
}

/**
 * The validate functions for `schema`, a form's schema as rendered: the compiled ones when it is
 * the schema compiled at build time; when only choice lists differ (values known at run time, such
 * as a user's retired role or an uploaded file's columns), the compiled root with those lists
 * checked here, and each new choice option checked by value. Anything else throws: the compiled
 * code is the only JSON-Schema validation the browser has (no Ajv compiler, no eval).
 */
function validateFnsFor(form: PrecompiledForm, schema: RJSFSchema): ValidatorFunctions {
  if (sameJson(schema, form.schema)) return form.validateFns;
  const id = typeof schema.$id === 'string' ? schema.$id : hashForSchema(schema);
  if (id !== form.id && schema.$id !== undefined) throw new Error(`The form schema "${id}" is not the one of the precompiled validator "${form.id}".`);
  const choices: Choice[] = [];
  const { $id: _a, ...base } = form.schema as Node;
  const { $id: _b, ...next } = schema as Node;
  choicesChanged(form.id, base, next, [], '#', choices);
  const fns: ValidatorFunctions = { ...form.validateFns, [id]: withChoices(form.validateFns[form.id], choices) };
  for (const [key, sub] of Object.entries(schemaParser(schema) as Record<string, Node>)) {
    if (key === id || fns[key]) continue;
    const { $id: _c, ...plain } = sub;
    const check = choiceCheck(plain);
    if (!check) throw new NotPrecompiled(form.id, `the sub-schema ${JSON.stringify(plain).slice(0, 120)}`);
    fns[key] = check;
  }
  return fns;
}

const validators = new WeakMap<PrecompiledForm, WeakMap<object, ValidatorType>>();

/**
 * The rjsf validator of a form: @rjsf/validator-ajv8's precompiled validator over the functions
 * generated at build time (schemas/generate-form-validators.ts), with readable English messages.
 * `schema` defaults to the compiled one; one validator per schema object is kept.
 */
export function precompiledValidator<T = unknown, F extends FormContextType = Record<string, unknown>>(
  form: PrecompiledForm,
  schema: RJSFSchema = form.schema,
): ValidatorType<T, RJSFSchema, F> {
  let bySchema = validators.get(form);
  if (!bySchema) validators.set(form, (bySchema = new WeakMap()));
  let validator = bySchema.get(schema);
  if (!validator) {
    validator = createPrecompiledValidator(validateFnsFor(form, schema), schema, localizeErrors) as ValidatorType;
    bySchema.set(schema, validator);
  }
  return validator as ValidatorType<T, RJSFSchema, F>;
}
