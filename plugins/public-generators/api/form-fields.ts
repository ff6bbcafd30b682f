import Ajv, { type ValidateFunction } from 'ajv';
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../../src/server';
import { ERROR_MESSAGE_KEYWORD, requestErrorSentence, type SchemaIssue } from '../../../src/core';

const ajv = new Ajv({ keywords: [ERROR_MESSAGE_KEYWORD], verbose: true, allErrors: false, coerceTypes: false, allowUnionTypes: true });

/** Compiles a schema of this plugin with the same rules and messages as route validation. */
export function compileFieldsSchema<T>(schema: object): ValidateFunction<T> {
  return ajv.compile<T>(schema);
}

const FIELD_LIMITS = { fields: 12, fieldSize: 16 * 1024, files: 0, parts: 12 };

/**
 * The fields of a form-data request (text fields only; a file part is refused), or the JSON body
 * when the request is not multipart, validated by `validate`. A failure is a 400 with the
 * schema's sentence.
 */
export async function readFormFields<T>(request: FastifyRequest, validate: ValidateFunction<T>): Promise<T> {
  let fields: Record<string, unknown>;
  if (request.isMultipart()) {
    fields = {};
    for await (const part of request.parts({ limits: FIELD_LIMITS })) {
      if (part.type === 'file') {
        part.file.resume();
        throw badRequest('This request takes form fields only, no files.');
      }
      fields[part.fieldname] = part.value;
    }
  } else if (request.body && typeof request.body === 'object') {
    fields = request.body as Record<string, unknown>;
  } else {
    throw badRequest('Send the fields as multipart form data.');
  }
  if (!validate(fields)) throw badRequest(requestErrorSentence((validate.errors ?? []) as SchemaIssue[]));
  return fields as T;
}
