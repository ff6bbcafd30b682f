import { useMemo } from 'react';
import type { RJSFSchema, UiSchema, ValidatorType } from '@rjsf/utils';
import { FluentForm } from './SchemaForm';

/** Shows values only: nothing to check, so no compiled validator is needed for a schema known at run time. */
const NO_VALIDATION: ValidatorType = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  isValid: () => true,
  rawValidation: () => ({ errors: undefined, validationError: undefined }),
};

const HIDE_SUBMIT: UiSchema = { 'ui:submitButtonOptions': { norender: true } };

const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;

/**
 * The schema to show `values` with: a setting filled in from the run ('{{order_id}}') is shown as
 * text naming the run's field(s) it takes, whatever its own type.
 */
export function schemaForValues(schema: RJSFSchema, values: Record<string, unknown>): RJSFSchema {
  const properties = (schema.properties ?? {}) as Record<string, RJSFSchema>;
  const shown: Record<string, RJSFSchema> = {};
  for (const [name, prop] of Object.entries(properties)) {
    const value = values[name];
    if (typeof value === 'string' && new RegExp(PLACEHOLDER.source).test(value)) {
      const fields = [...value.matchAll(PLACEHOLDER)].map((m) => `"${m[1]}"`);
      shown[name] = {
        type: 'string',
        title: prop.title ?? name,
        description: `Filled from the run's ${fields.join(' and ')} field${fields.length === 1 ? '' : 's'}.`,
      };
    } else shown[name] = prop;
  }
  return { ...schema, properties: shown };
}

/**
 * A step's settings as an rjsf form, read-only: the schema's titles, descriptions and widgets,
 * the recipe's values (a placeholder shown as the text it is), no submit button.
 */
export function SchemaValues({ schema, values, idPrefix }: { schema: RJSFSchema; values: Record<string, unknown>; idPrefix?: string }) {
  const shown = useMemo(() => schemaForValues(schema, values), [schema, values]);
  return <FluentForm schema={shown} formData={values} validator={NO_VALIDATION} uiSchema={HIDE_SUBMIT} readonly idPrefix={idPrefix} />;
}
