import type Ajv from 'ajv';
import type { ErrorObject } from 'ajv';
import { customizeValidator } from '@rjsf/validator-ajv8';
import type { FormContextType, RJSFSchema, ValidatorType } from '@rjsf/utils';
import { ERROR_MESSAGE_KEYWORD, issueSentence, type SchemaIssue } from '../../core/validation-messages';

export { ERROR_MESSAGE_KEYWORD } from '../../core/validation-messages';

/** Ajv's terse messages ("must NOT have fewer than 8 characters") in plain English, as the server says them. */
export function readableMessage(e: ErrorObject): string {
  return issueSentence(e as SchemaIssue);
}

/** The localizer hook of @rjsf/validator-ajv8: rewrites every Ajv message in place. */
export function localizeErrors(errors?: ErrorObject[] | null): void {
  if (!errors) return;
  for (const e of errors) e.message = readableMessage(e);
}

/**
 * The validator every form uses: @rjsf/validator-ajv8 with the ajv-formats formats (email, uri,
 * date...), the `errorMessage` keyword, and readable English messages.
 */
export function createFormValidator<T = unknown, F extends FormContextType = Record<string, unknown>>(): ValidatorType<T, RJSFSchema, F> {
  return customizeValidator<T, RJSFSchema, F>(
    {
      ajvFormatOptions: { mode: 'full' },
      extenderFn: (ajv: Ajv) => {
        if (!ajv.getKeyword(ERROR_MESSAGE_KEYWORD)) {
          ajv.addKeyword({ keyword: ERROR_MESSAGE_KEYWORD, schemaType: ['string', 'object'] });
        }
        return ajv;
      },
    },
    localizeErrors,
  );
}

/** One shared instance: the validator is stateless apart from Ajv's compiled-schema cache. */
export const formValidator = createFormValidator();
