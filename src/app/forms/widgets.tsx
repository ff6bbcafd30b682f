import type { ChangeEvent, FocusEvent } from 'react';
import { Checkbox, Select, Textarea, makeStyles } from '@fluentui/react-components';
import {
  ariaDescribedByIds,
  enumOptionSelectedValue,
  enumOptionValueDecoder,
  enumOptionValueEncoder,
  getOptionValueFormat,
  getTemplate,
  labelValue,
  type RegistryWidgetsType,
  type WidgetProps,
} from '@rjsf/utils';

// a native select is as wide as its longest option unless told to fit its column
const useSelectFit = makeStyles({
  root: { minWidth: 0, maxWidth: '100%' },
  select: { minWidth: 0, maxWidth: '100%', textOverflow: 'ellipsis' },
});

/**
 * Widgets of the Fluent UI v9 theme. Each renders a native control through Fluent (Input, Select,
 * Checkbox, Textarea), so the `<label for>` of the surrounding Field reaches it, the browser's own
 * keyboard handling applies, and tests can use getByLabelText.
 */

export function TextWidget(props: WidgetProps) {
  const { options, registry } = props;
  const BaseInputTemplate = getTemplate('BaseInputTemplate', registry, options);
  return <BaseInputTemplate {...props} />;
}

export function EmailWidget(props: WidgetProps) {
  return <TextWidget {...props} type="email" />;
}

export function PasswordWidget(props: WidgetProps) {
  return <TextWidget {...props} type="password" />;
}

export function SelectWidget({
  id,
  htmlName,
  options,
  value,
  disabled,
  readonly,
  autofocus,
  placeholder,
  onChange,
  onBlur,
  onFocus,
  schema,
  required,
}: WidgetProps) {
  const { enumOptions = [], enumDisabled, emptyValue } = options;
  const format = getOptionValueFormat(options);
  const selected = enumOptionSelectedValue(value, enumOptions, false, format, '');
  const decode = (raw: string) => enumOptionValueDecoder(raw, enumOptions, format, emptyValue);
  const fit = useSelectFit();
  return (
    <Select
      className={fit.root}
      select={{ className: fit.select }}
      id={id}
      name={htmlName || id}
      value={selected as string}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      required={required}
      aria-readonly={readonly || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(_e: ChangeEvent<HTMLSelectElement>, data) => onChange(decode(data.value))}
      onBlur={(e: FocusEvent<HTMLSelectElement>) => onBlur(id, decode(e.target.value))}
      onFocus={(e: FocusEvent<HTMLSelectElement>) => onFocus(id, decode(e.target.value))}
    >
      {schema.default === undefined && <option value="">{placeholder || 'Select…'}</option>}
      {enumOptions.map(({ value: optionValue, label }, i) => (
        <option key={i} value={enumOptionValueEncoder(optionValue, i, format)} disabled={enumDisabled?.includes(optionValue)}>
          {label}
        </option>
      ))}
    </Select>
  );
}

export function CheckboxWidget({ id, htmlName, value, disabled, readonly, autofocus, label, hideLabel, onChange, onBlur, onFocus, required }: WidgetProps) {
  return (
    <Checkbox
      id={id}
      name={htmlName || id}
      checked={value === true}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      aria-required={required || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      label={labelValue(label, hideLabel, undefined) as string | undefined}
      onChange={(_e, data) => onChange(data.checked === true)}
      onBlur={() => onBlur(id, value === true)}
      onFocus={() => onFocus(id, value === true)}
    />
  );
}

export function TextareaWidget({ id, htmlName, value, disabled, readonly, autofocus, placeholder, options, onChange, onBlur, onFocus }: WidgetProps) {
  return (
    <Textarea
      id={id}
      name={htmlName || id}
      value={value ?? ''}
      disabled={disabled}
      readOnly={readonly}
      autoFocus={autofocus}
      placeholder={placeholder}
      rows={typeof options.rows === 'number' ? options.rows : 4}
      resize="vertical"
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(_e, data) => onChange(data.value === '' ? options.emptyValue : data.value)}
      onBlur={(e) => onBlur(id, e.target.value)}
      onFocus={(e) => onFocus(id, e.target.value)}
    />
  );
}

export const fluentWidgets: RegistryWidgetsType = {
  TextWidget,
  text: TextWidget,
  EmailWidget,
  email: EmailWidget,
  PasswordWidget,
  password: PasswordWidget,
  SelectWidget,
  select: SelectWidget,
  CheckboxWidget,
  checkbox: CheckboxWidget,
  TextareaWidget,
  textarea: TextareaWidget,
};
