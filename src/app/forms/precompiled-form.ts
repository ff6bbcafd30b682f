import type { RJSFSchema } from '@rjsf/utils';
import type { ValidatorFunctions } from '@rjsf/validator-ajv8';

/**
 * A form's JSON-Schema validation compiled at build time (schemas/generate-form-validators.ts,
 * `npm run forms:validators`): the schema's `$id`, the schema as compiled, and the validate
 * functions by key (the root by its `$id`, each sub-schema rjsf checks on its own by its hash).
 */
export interface PrecompiledForm {
  id: string;
  schema: RJSFSchema;
  validateFns: ValidatorFunctions;
}
