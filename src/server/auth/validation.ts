import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/**
 * The Ajv used for the auth and profile request bodies. Unlike Fastify's default it does not
 * strip unknown properties: the schemas say `additionalProperties: false`, and a field the
 * server would silently drop (say `is_verified`) is reported as an error, exactly as the
 * client's form validator (rjsf + Ajv) reports it. It knows the schemas' `errorMessage`
 * keyword and keeps `parentSchema` (verbose) so the error handler can use it.
 */
export function createBodyValidator(): Ajv {
  const ajv = new Ajv({
    allErrors: false,
    verbose: true,
    removeAdditional: false,
    useDefaults: true,
    coerceTypes: false,
    keywords: ['errorMessage'],
    strictTypes: false,
  });
  addFormats(ajv);
  return ajv;
}

/** Makes every route registered on `scope` validate with a fresh strict Ajv instance. */
export function useStrictValidation(scope: FastifyInstance): void {
  const ajv = createBodyValidator();
  scope.setValidatorCompiler(({ schema }) => ajv.compile(schema as object));
}
