import type Ajv from 'ajv';
import type { ErrorObject } from 'ajv';
import { customizeValidator } from '@rjsf/validator-ajv8';
import type { FormContextType, RJSFSchema, ValidatorType } from '@rjsf/utils';

/**
 * `errorMessage` is the keyword our schemas use for a human message that replaces Ajv's own
 * (schemas/auth/register.schema.json: "Passwords must be at least 8 characters long.").
 * It follows the ajv-errors shape without needing that package:
 *   - a string replaces the message of every error raised by that sub-schema;
 *   - an object maps a keyword to its message (`{ "minLength": "..." }`), and on an object
 *     schema `{ "required": { "name": "..." } }` gives the message for one missing property.
 * Ajv is told about the keyword (so a strict Ajv would not reject the schemas); the messages are
 * applied by the localizer below, which sees each error's parent schema (`verbose: true`).
 */
export const ERROR_MESSAGE_KEYWORD = 'errorMessage';

type ErrorMessageSpec = string | Record<string, string | Record<string, string>>;

function customMessage(e: ErrorObject): string | undefined {
  const spec = (e.parentSchema as { errorMessage?: ErrorMessageSpec } | undefined)?.errorMessage;
  if (spec === undefined) return undefined;
  if (e.keyword === 'required') {
    // rjsf quotes property names ('name') while the localizer runs
    const missing = (e.params as { missingProperty?: string }).missingProperty?.replace(/^'(.*)'$/, '$1');
    const byProp = typeof spec === 'object' ? spec.required : undefined;
    if (typeof byProp === 'string') return byProp;
    if (byProp && missing && typeof byProp[missing] === 'string') return byProp[missing];
    return undefined;
  }
  if (typeof spec === 'string') return spec;
  const byKeyword = spec[e.keyword];
  return typeof byKeyword === 'string' ? byKeyword : undefined;
}

/** Ajv's terse messages ("must NOT have fewer than 8 characters") in plain English. */
export function readableMessage(e: ErrorObject): string {
  const custom = customMessage(e);
  if (custom) return custom;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return 'This field is required.';
    case 'minLength':
      return p.limit === 1 ? 'This field is required.' : `Must be at least ${p.limit} characters long.`;
    case 'maxLength':
      return `Must be at most ${p.limit} characters long.`;
    case 'format':
      if (p.format === 'email') return 'Please enter a valid email address.';
      if (p.format === 'uri' || p.format === 'url') return 'Please enter a valid web address.';
      if (p.format === 'date' || p.format === 'date-time') return 'Please enter a valid date.';
      return `Please enter a valid ${String(p.format)}.`;
    case 'enum':
    case 'oneOf':
    case 'anyOf':
      return 'Please choose one of the options.';
    case 'const':
      return typeof p.allowedValue === 'boolean' ? 'Please tick this box.' : 'This value is not allowed.';
    case 'type':
      return p.type === 'number' || p.type === 'integer' ? 'Please enter a number.' : 'This value is not valid.';
    case 'minimum':
      return `Must be ${String(p.limit)} or more.`;
    case 'maximum':
      return `Must be ${String(p.limit)} or less.`;
    case 'pattern':
      return 'This value is not in the expected format.';
    case 'additionalProperties':
      return 'This form contains an unexpected field.';
    default:
      return e.message ? e.message.charAt(0).toUpperCase() + e.message.slice(1) + '.' : 'This value is not valid.';
  }
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
