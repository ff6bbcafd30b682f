import { useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Spinner } from '@fluentui/react-components';
import { withTheme, type IChangeEvent, type ThemeProps } from '@rjsf/core';
import type { ErrorSchema, FormValidation, RJSFSchema, RegistryFieldsType, RegistryWidgetsType, UiSchema, ValidatorType } from '@rjsf/utils';
import { fluentTemplates, FluentSubmit } from './templates';
import { fluentWidgets, loadChoiceWidgets } from './widgets';
import { precompiledValidator, type PrecompiledForm } from './validator';
import { useAllOfMerge } from './all-of';
import { PRECOMPILED_FORMS } from './precompiled';
import { ContainerContext } from '../hooks';
import { PluginRegistry } from '../tokens';

/**
 * Our own small rjsf theme built from Fluent UI v9 components.
 *
 * Why not @rjsf/fluentui-rc: it installs only with `npm install --legacy-peer-deps`, because its
 * peer chain reaches @fluentui/react-northstar, which wants React 16/17 (and it needs
 * @fluentui/react-migration-v0-v9 added by hand). Forcing peers would hide real conflicts for the
 * whole tree; the handful of widgets and templates below cover every form the product has.
 */
export const fluentTheme: ThemeProps = {
  widgets: fluentWidgets,
  templates: fluentTemplates,
};

/**
 * rjsf's Form with the theme alone. It does not load the `allOf` merger the browser build leaves
 * out (./all-of-merge-stub.ts): render a schema with `allOf` through <SchemaForm>, or pass
 * `experimental_customMergeAllOf={await loadAllOfMerge()}` (./all-of.ts).
 */
export const FluentForm = withTheme(fluentTheme);

/** The errors are on screen already; without a handler rjsf also logs them to the console. */
const ignoreErrors = () => undefined;

/** A `oneOf` of consts is a choice list: never pre-select its first option as a default. */
const DEFAULTS_BEHAVIOUR = { constAsDefaults: 'never' } as const;

export interface SchemaFormProps<T extends object> {
  schema: RJSFSchema;
  uiSchema?: UiSchema;
  /** initial values; the form keeps its own state afterwards (pass a new `key` to reset it) */
  formData?: Partial<T>;
  /** called with the data once the schema and `validate` both pass */
  onSubmit: (data: T) => void;
  /** every change, e.g. to compute `submitDisabled` */
  onChange?: (data: Partial<T>) => void;
  /** whole-form rule: returns the message to show above the form, or null when the data is fine */
  validate?: (data: Partial<T>) => string | null;
  /** live messages under fields (e.g. `{ confirm: 'Passwords do not match.' }`); empty values are ignored */
  fieldErrors?: Partial<Record<keyof T & string, string | null | undefined>>;
  submitText: string;
  submitDisabled?: boolean;
  busy?: boolean;
  /** a full-width submit button */
  blockSubmit?: boolean;
  /** rendered between the fields and the submit button (e.g. a "Forgot password" link) */
  beforeSubmit?: ReactNode;
  /** rendered after the submit button */
  afterSubmit?: ReactNode;
  /** extra widgets by name (page-specific ones such as the terms checkbox) */
  widgets?: RegistryWidgetsType;
  disabled?: boolean;
  /** the id prefix of the fields, to keep ids unique when two forms share a page */
  idPrefix?: string;
  /**
   * The form's validation compiled at build time (`import loginForm from '../forms/precompiled/auth-login'`):
   * given, the form renders at once; otherwise the module of the schema's `$id` is loaded first.
   */
  precompiled?: PrecompiledForm;
  /** a validator of its own, in place of the precompiled one */
  validator?: ValidatorType;
}

/** The precompiled forms loaded so far, by $id: a form shown again renders at once. */
const loadedForms = new Map<string, PrecompiledForm>();

/**
 * The validator of a form: the one given, or @rjsf/validator-ajv8's precompiled validator over the
 * form's compiled functions (given, or loaded by the schema's $id). Undefined while loading.
 */
function useSchemaValidator(schema: RJSFSchema, precompiled?: PrecompiledForm, validator?: ValidatorType): ValidatorType | undefined {
  const id = typeof schema.$id === 'string' ? schema.$id : undefined;
  const known = precompiled ?? (id ? loadedForms.get(id) : undefined);
  const [loaded, setLoaded] = useState<PrecompiledForm | undefined>(undefined);
  const [failure, setFailure] = useState<Error | null>(null);
  const form = known ?? (loaded?.id === id ? loaded : undefined);
  const needsLoad = !validator && !form;
  if (needsLoad && (!id || !PRECOMPILED_FORMS[id])) {
    throw new Error(
      `The form schema ${id ? `"${id}"` : 'without a $id'} has no precompiled validator: give it a $id, list it in FORM_SCHEMAS of ` +
        'schemas/generate-form-validators.ts and run `npm run forms:validators`.',
    );
  }
  if (failure) throw failure;
  useEffect(() => {
    if (!needsLoad || !id) return;
    let live = true;
    // a form given by schema alone (a plugin's) loads the select and checkbox alongside, not after
    void loadChoiceWidgets().catch(() => undefined);
    PRECOMPILED_FORMS[id]!().then(
      (f) => {
        loadedForms.set(id, f);
        if (live) setLoaded(f);
      },
      (e: unknown) => live && setFailure(e instanceof Error ? e : new Error(String(e))),
    );
    return () => {
      live = false;
    };
  }, [needsLoad, id]);
  return useMemo(() => validator ?? (form ? precompiledValidator(form, schema) : undefined), [validator, form, schema]);
}

/**
 * The rjsf fields and widgets plugins contribute by name (`formFields`, `formWidgets`), usable by
 * any form's uiSchema (`"ui:field": "csv-headers"`). Outside a shell (a bare form in a test)
 * there are none.
 */
function useContributedFormParts(): { fields?: RegistryFieldsType; widgets?: RegistryWidgetsType } {
  const container = useContext(ContainerContext);
  return useMemo(() => {
    if (!container) return {};
    const registry = container.get(PluginRegistry);
    const byName = (list: Array<{ name: string; component: unknown }>) =>
      list.length ? Object.fromEntries(list.map((c) => [c.name, c.component])) : undefined;
    return {
      fields: byName(registry.formFields.values()) as RegistryFieldsType | undefined,
      widgets: byName(registry.formWidgets.values()) as RegistryWidgetsType | undefined,
    };
  }, [container]);
}

/**
 * A JSON Schema form with the Fluent theme, the shared validator (ajv-formats, `errorMessage`,
 * readable English), no HTML5 validation (our messages, not the browser's), focus on the first
 * invalid field, and a whole-form `validate` for the spec's form-level messages.
 */
export function SchemaForm<T extends object>(props: SchemaFormProps<T>) {
  const {
    schema,
    uiSchema,
    formData,
    onSubmit,
    onChange,
    validate,
    fieldErrors,
    submitText,
    submitDisabled,
    busy,
    blockSubmit,
    beforeSubmit,
    afterSubmit,
    widgets,
    disabled,
    idPrefix,
    precompiled,
  } = props;
  const validator = useSchemaValidator(schema, precompiled, props.validator);
  // rjsf's allOf merger is not in the form chunk (./all-of-merge-stub.ts): a schema with `allOf`
  // waits for it (loaded alongside the validator) and hands it to rjsf; any other schema does not
  const allOfMerge = useAllOfMerge(schema);
  const contributed = useContributedFormParts();
  const [data, setData] = useState<Partial<T>>(() => ({ ...(formData ?? {}) }) as Partial<T>);
  const latest = useRef(data);

  const handleChange = useCallback(
    (e: IChangeEvent<Partial<T>>) => {
      const next = (e.formData ?? {}) as Partial<T>;
      latest.current = next;
      setData(next);
      onChange?.(next);
    },
    [onChange],
  );

  // rjsf hands customValidate a copy re-filled with schema defaults, and that fill treats a
  // oneOf's first `const` as a default (a role nobody chose). Validate what the user entered.
  const customValidate = useCallback(
    (_values: Partial<T> | undefined, errors: FormValidation<Partial<T>>) => {
      const message = validate?.(latest.current);
      if (message) errors.addError(message);
      return errors;
    },
    [validate],
  );

  // A stable object while the messages stay the same: rjsf re-merges extraErrors on identity change.
  const extraKey = JSON.stringify(fieldErrors ?? {});
  const extraErrors = useMemo(() => {
    const out: Record<string, { __errors: string[] }> = {};
    for (const [k, v] of Object.entries(JSON.parse(extraKey) as Record<string, string | null>)) if (v) out[k] = { __errors: [v] };
    return Object.keys(out).length ? (out as ErrorSchema<Partial<T>>) : undefined;
  }, [extraKey]);

  if (!validator || allOfMerge === undefined) return <Spinner size="small" label="Loading the form..." />;

  return (
    <FluentForm
      schema={schema}
      uiSchema={uiSchema}
      formData={data}
      validator={validator}
      widgets={widgets || contributed.widgets ? { ...fluentWidgets, ...contributed.widgets, ...widgets } : undefined}
      fields={contributed.fields}
      onChange={handleChange}
      onSubmit={(e: IChangeEvent<Partial<T>>) => onSubmit((e.formData ?? {}) as T)}
      onError={ignoreErrors}
      customValidate={customValidate}
      extraErrors={extraErrors}
      noHtml5Validate
      experimental_defaultFormStateBehavior={DEFAULTS_BEHAVIOUR}
      {...(allOfMerge ? { experimental_customMergeAllOf: allOfMerge } : {})}
      focusOnFirstError
      showErrorList="top"
      disabled={disabled}
      idPrefix={idPrefix}
    >
      {beforeSubmit}
      <FluentSubmit text={submitText} disabled={submitDisabled} busy={busy} block={blockSubmit} />
      {afterSubmit}
    </FluentForm>
  );
}
