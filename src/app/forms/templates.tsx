import { useState, type CSSProperties } from 'react';
import {
  Button,
  Caption1,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Subtitle2,
  makeStyles,
  mergeClasses,
  tokens,
  type InputProps,
} from '@fluentui/react-components';
import { Eye20Regular } from '@fluentui/react-icons/svg/eye';
import { EyeOff20Regular } from '@fluentui/react-icons/svg/eye-off';
import {
  ariaDescribedByIds,
  getInputProps,
  getSubmitButtonOptions,
  getTemplate,
  getUiOptions,
  type BaseInputTemplateProps,
  type DescriptionFieldProps,
  type ErrorListProps,
  type FieldTemplateProps,
  type ObjectFieldTemplateProps,
  type SubmitButtonProps,
  type TemplatesType,
  type TitleFieldProps,
} from '@rjsf/utils';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(var(--fm-form-columns, 1), minmax(0, 1fr))',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalM,
    '@media (max-width: 640px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  full: { gridColumn: '1 / -1' },
  objectTitle: { display: 'block', marginBottom: tokens.spacingVerticalS },
  submitRow: { display: 'flex', marginTop: tokens.spacingVerticalL },
  submitBlock: { width: '100%' },
  // Fluent's Input has an intrinsic minimum width; in a grid cell it must shrink with the column
  input: { width: '100%', minWidth: 0 },
  inputElement: { minWidth: 0 },
});

/** Field: Fluent `Field` with the label linked to the control, the hint, and the validation message. */
export function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, rawErrors, rawHelp, rawDescription, hidden, displayLabel, schema, uiSchema, registry, classNames, style } = props;
  const uiOptions = getUiOptions(uiSchema);
  const WrapIfAdditionalTemplate = getTemplate('WrapIfAdditionalTemplate', registry, uiOptions);
  if (hidden) return <div style={{ display: 'none' }}>{children}</div>;
  if (schema.type === 'object' || schema.type === 'array') {
    return (
      <div className={classNames} style={style as CSSProperties | undefined}>
        {children}
      </div>
    );
  }
  const message = (rawErrors ?? []).filter(Boolean).join(' ');
  const isCheckbox = schema.type === 'boolean';
  return (
    <WrapIfAdditionalTemplate {...props}>
      <Field
        label={displayLabel && !isCheckbox ? { children: label, htmlFor: id } : undefined}
        hint={rawHelp || rawDescription || undefined}
        validationMessage={message || undefined}
        validationState={message ? 'error' : 'none'}
      >
        {children}
      </Field>
    </WrapIfAdditionalTemplate>
  );
}

/** The text-like inputs (text, email, password, number...) as a Fluent `Input`; passwords get a show/hide toggle. */
export function BaseInputTemplate(props: BaseInputTemplateProps) {
  const { id, htmlName, value, readonly, disabled, autofocus, placeholder, onBlur, onFocus, onChange, onChangeOverride, options, schema, type } = props;
  const inputProps = getInputProps(schema, type, options);
  const s = useStyles();
  const [reveal, setReveal] = useState(false);
  const isPassword = inputProps.type === 'password';
  const inputType = (isPassword && reveal ? 'text' : inputProps.type) as InputProps['type'];
  const autoComplete = typeof options.autocomplete === 'string' ? options.autocomplete : undefined;
  return (
    <Input
      className={s.input}
      input={{ className: s.inputElement }}
      id={id}
      name={htmlName || id}
      type={inputType}
      value={value === undefined || value === null ? '' : String(value)}
      readOnly={readonly}
      disabled={disabled}
      autoFocus={autofocus}
      placeholder={placeholder}
      autoComplete={autoComplete}
      step={inputProps.step}
      min={inputProps.min}
      max={inputProps.max}
      aria-describedby={ariaDescribedByIds(id, !!schema.examples)}
      appearance={readonly ? 'filled-darker' : 'outline'}
      onChange={(e, data) => (onChangeOverride ? onChangeOverride(e) : onChange(data.value === '' ? options.emptyValue : data.value))}
      onBlur={(e) => onBlur(id, e.target.value)}
      onFocus={(e) => onFocus(id, e.target.value)}
      contentAfter={
        isPassword && !readonly ? (
          <Button
            appearance="transparent"
            size="small"
            icon={reveal ? <EyeOff20Regular /> : <Eye20Regular />}
            aria-label={reveal ? 'Hide password' : 'Show password'}
            aria-pressed={reveal}
            onClick={() => setReveal((r) => !r)}
            disabled={disabled}
          />
        ) : undefined
      }
    />
  );
}

/**
 * Object: the properties on a responsive grid. `ui:options.columns` on the object sets the number
 * of columns (one on narrow screens); `ui:options.fullWidth` on a property spans the whole row.
 */
export function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const s = useStyles();
  const { properties, uiSchema, title, fieldPathId, registry, schema } = props;
  const uiOptions = getUiOptions(uiSchema);
  const columns = typeof uiOptions.columns === 'number' ? uiOptions.columns : 1;
  const isRoot = !fieldPathId?.path?.length;
  const TitleFieldTemplate = getTemplate('TitleFieldTemplate', registry, uiOptions);
  return (
    <fieldset style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
      {!isRoot && title && uiOptions.label !== false && (
        <TitleFieldTemplate id={`${fieldPathId.$id}__title`} title={title} schema={schema} uiSchema={uiSchema} registry={registry} />
      )}
      <div className={s.grid} style={{ '--fm-form-columns': columns } as CSSProperties}>
        {properties
          .filter((p) => !p.hidden)
          .map((p) => {
            const childOptions = getUiOptions(uiSchema?.[p.name]);
            return (
              <div key={p.name} className={childOptions.fullWidth ? s.full : undefined}>
                {p.content}
              </div>
            );
          })}
        {properties
          .filter((p) => p.hidden)
          .map((p) => (
            <div key={p.name} style={{ display: 'none' }}>
              {p.content}
            </div>
          ))}
      </div>
    </fieldset>
  );
}

export interface FluentSubmitProps {
  text: string;
  disabled?: boolean;
  busy?: boolean;
  block?: boolean;
}

/** The primary submit button; shows a spinner while busy. Used by the template and by SchemaForm. */
export function FluentSubmit({ text, disabled, busy, block }: FluentSubmitProps) {
  const s = useStyles();
  return (
    <div className={s.submitRow}>
      <Button
        type="submit"
        appearance="primary"
        size="large"
        disabled={disabled || busy}
        aria-busy={busy || undefined}
        icon={busy ? <Spinner size="tiny" /> : undefined}
        className={mergeClasses(block && s.submitBlock)}
      >
        {text}
      </Button>
    </div>
  );
}

export function SubmitButton({ uiSchema }: SubmitButtonProps) {
  const { submitText, norender, props = {} } = getSubmitButtonOptions(uiSchema);
  if (norender) return null;
  return <FluentSubmit text={submitText ?? 'Submit'} disabled={Boolean(props.disabled)} block={Boolean(props.block)} />;
}

/**
 * The form-wide errors (those not tied to one field) as a Fluent MessageBar. Field errors are
 * shown under their fields, so they are not repeated here.
 */
export function ErrorListTemplate({ errorSchema }: ErrorListProps) {
  const root = ((errorSchema as { __errors?: string[] } | undefined)?.__errors ?? []).filter(Boolean);
  if (root.length === 0) return null;
  return (
    <MessageBar intent="error" layout="multiline" style={{ marginBottom: tokens.spacingVerticalM }}>
      <MessageBarBody>
        {root.length === 1 ? (
          root[0]
        ) : (
          <>
            <MessageBarTitle>Please check the form</MessageBarTitle>
            <ul style={{ margin: '4px 0 0', paddingLeft: 18 }}>
              {root.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          </>
        )}
      </MessageBarBody>
    </MessageBar>
  );
}

export function TitleFieldTemplate({ id, title }: TitleFieldProps) {
  const s = useStyles();
  return (
    <Subtitle2 as="h3" id={id} className={s.objectTitle}>
      {title}
    </Subtitle2>
  );
}

export function DescriptionFieldTemplate({ id, description }: DescriptionFieldProps) {
  if (!description) return null;
  return (
    <Caption1 as="p" id={id} style={{ margin: 0 }}>
      {description}
    </Caption1>
  );
}

/** FieldTemplate shows errors and help through Fluent `Field`, so these render nothing. */
function Nothing() {
  return null;
}

export const fluentTemplates: Partial<Omit<TemplatesType, 'ButtonTemplates'>> & { ButtonTemplates: Partial<TemplatesType['ButtonTemplates']> } = {
  FieldTemplate,
  BaseInputTemplate,
  ObjectFieldTemplate,
  ErrorListTemplate,
  TitleFieldTemplate,
  DescriptionFieldTemplate,
  FieldErrorTemplate: Nothing,
  FieldHelpTemplate: Nothing,
  ButtonTemplates: { SubmitButton },
};
