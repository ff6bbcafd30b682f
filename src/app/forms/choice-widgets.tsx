import type { ChangeEvent, FocusEvent } from 'react';
import { Checkbox, Select, makeStyles } from '@fluentui/react-components';
import {
  ariaDescribedByIds,
  enumOptionSelectedValue,
  enumOptionValueDecoder,
  enumOptionValueEncoder,
  getOptionValueFormat,
  labelValue,
  type WidgetProps,
} from '@rjsf/utils';

/**
 * The choice widgets of the Fluent UI v9 theme (Select, Checkbox), in a module of their own: the
 * shared registry (widgets.tsx) loads it on first use; pages that show one at once import the
 * widget from here and pass it to their form. The Textarea is in textarea-widget.tsx.
 */

// a native select is as wide as its longest option unless told to fit its column
const useSelectFit = makeStyles({
  root: { minWidth: 0, maxWidth: '100%' },
  select: { minWidth: 0, maxWidth: '100%', textOverflow: 'ellipsis' },
});

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
