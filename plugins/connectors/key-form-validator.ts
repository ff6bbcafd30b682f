import type { ErrorSchema, RJSFSchema, RJSFValidationError, ValidationData, ValidatorType } from '@rjsf/utils';

type Field = { type?: unknown; title?: unknown; minLength?: unknown; maxLength?: unknown; pattern?: unknown };

/** The problem with one field's value, in the server's wording, or null. */
function fieldProblem(name: string, field: Field, value: unknown, required: boolean): string | null {
  const title = typeof field.title === 'string' ? field.title : name;
  const text = value === undefined || value === null ? '' : String(value);
  if (!text) return required ? `${title} is required.` : null;
  if (typeof field.minLength === 'number' && text.length < field.minLength) return `${title} must be at least ${field.minLength} characters long.`;
  if (typeof field.maxLength === 'number' && text.length > field.maxLength) return `${title} must be at most ${field.maxLength} characters long.`;
  if (typeof field.pattern === 'string' && !new RegExp(field.pattern, 'u').test(text)) return `${title} is not in the expected format.`;
  return null;
}

function check(schema: RJSFSchema, data: unknown): { errors: RJSFValidationError[]; errorSchema: ErrorSchema } {
  const values = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const errors: RJSFValidationError[] = [];
  const errorSchema: Record<string, { __errors: string[] }> = {};
  for (const [name, field] of Object.entries((schema.properties ?? {}) as Record<string, Field>)) {
    const message = fieldProblem(name, field, values[name], required.has(name));
    if (!message) continue;
    errors.push({ name: 'key-form', property: `.${name}`, message, stack: message });
    errorSchema[name] = { __errors: [message] };
  }
  return { errors, errorSchema: errorSchema as ErrorSchema };
}

/**
 * The validator of an API-key form, whose schema arrives from the server at run time (so no
 * validator can be generated for it at build time, and the page's CSP allows no run-time
 * compiling): the keywords a key form uses (required, minLength, maxLength, pattern on text
 * fields), worded as the server words them. The server checks the full schema again.
 */
export const keyFormValidator: ValidatorType = {
  validateFormData(formData, schema): ValidationData<unknown> {
    return check(schema, formData);
  },
  isValid(schema, formData) {
    return check(schema, formData).errors.length === 0;
  },
  rawValidation(schema, formData) {
    const { errors } = check(schema, formData);
    return errors.length ? { errors: errors as never[] } : {};
  },
};
