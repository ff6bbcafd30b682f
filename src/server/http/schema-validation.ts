import Ajv, { type ValidateFunction } from 'ajv';
import { ERROR_MESSAGE_KEYWORD, requestErrorSentence, type SchemaIssue } from '../../core/validation-messages';

/**
 * The server's Ajv settings, used by Fastify for every route's schema and by the start-up checks
 * (catalogue contributions): the schemas in schemas/ carry an `errorMessage` for their forms
 * (verbose keeps parentSchema for the translator); unknown fields are refused, not silently
 * dropped, and no type is coerced, as the client's own form validator behaves.
 */
export const AJV_OPTIONS = {
  keywords: [ERROR_MESSAGE_KEYWORD],
  verbose: true,
  allErrors: false,
  removeAdditional: false,
  coerceTypes: false,
  useDefaults: true,
  strictTypes: false,
} as const;

const ajv = new Ajv({ ...AJV_OPTIONS, keywords: [...AJV_OPTIONS.keywords], allowUnionTypes: true });

/** Compiles (once per `$id`) a schema with the server's settings. */
export function compileSchema<T = unknown>(schema: object): ValidateFunction<T> {
  const id = (schema as { $id?: string }).$id;
  return (id ? ajv.getSchema<T>(id) : undefined) ?? ajv.compile<T>(schema);
}

/** The sentence for a failed validation, by the translator shared with the forms. */
export function validationSentence(validate: ValidateFunction): string {
  return requestErrorSentence((validate.errors ?? []) as SchemaIssue[]);
}
