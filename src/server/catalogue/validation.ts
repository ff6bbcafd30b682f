import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { badRequest } from '../http/errors';

/**
 * The catalogue's own Ajv: no type coercion (an id is a number or a string of digits because
 * the schema says so, never because `true` became 1) and `errorMessage` allowed as an
 * annotation giving the sentence a client sees when that property is wrong.
 */
const ajv = new Ajv({ allErrors: false, strict: true, allowUnionTypes: true, coerceTypes: false, useDefaults: false });
ajv.addVocabulary(['errorMessage']);

type Schema = { $id?: string; properties?: Record<string, { errorMessage?: string }>; errorMessage?: string };

export function compile<T = unknown>(schema: object): ValidateFunction<T> {
  const id = (schema as Schema).$id;
  const existing = id ? ajv.getSchema<T>(id) : undefined;
  return existing ?? ajv.compile<T>(schema);
}

/** One readable sentence for the first error, preferring the property's `errorMessage`. */
export function errorSentence(schema: object, errors: ErrorObject[] | null | undefined): string {
  const s = schema as Schema;
  const first = errors?.[0];
  if (!first) return 'The request is not valid.';
  const top = first.instancePath.split('/')[1];
  const prop = top ?? (first.params as { missingProperty?: string }).missingProperty;
  if (!prop) return s.errorMessage ?? 'The request body must be a JSON object.';
  const custom = s.properties?.[prop]?.errorMessage;
  if (custom) return custom;
  if (first.keyword === 'additionalProperties') {
    return `${(first.params as { additionalProperty: string }).additionalProperty} is not allowed.`;
  }
  return `${prop} ${first.message ?? 'is not valid'}.`;
}

/**
 * A pre-handler checking the JSON body against a schema of schemas/catalogue/; it goes after
 * requireUser, so an anonymous caller gets 401 rather than a hint about the body.
 */
export function validateBody(schema: object): preHandlerAsyncHookHandler {
  const validate = compile(schema);
  return async (request: FastifyRequest) => {
    if (!validate(request.body)) throw badRequest(errorSentence(schema, validate.errors));
  };
}

const MAX_ID = 2_147_483_647;

/** A positive integer id, given as a number or as a string of digits; otherwise undefined. */
export function asId(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value > 0 && value <= MAX_ID ? value : undefined;
  if (typeof value === 'string' && /^[1-9][0-9]{0,9}$/.test(value)) {
    const n = Number(value);
    return n <= MAX_ID ? n : undefined;
  }
  return undefined;
}

/** Parses an id from a path parameter; 400 '<what> must be a number.' otherwise. */
export function parseId(value: unknown, what: string): number {
  const id = asId(value);
  if (id === undefined) throw badRequest(`${what} must be a number.`);
  return id;
}
