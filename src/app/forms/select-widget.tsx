import type { ChangeEvent, FocusEvent } from 'react';
import { Select, makeStyles } from '@fluentui/react-components';
import {
  ariaDescribedByIds,
  enumOptionSelectedValue,
  enumOptionValueDecoder,
  enumOptionValueEncoder,
  getOptionValueFormat,
  type WidgetProps,
} from '@rjsf/utils';

/**
 * The Select widget of the Fluent UI v9 theme. The shared registry (widgets.tsx) loads it with the
 * Checkbox through ./choice-widgets on first use; pages that show a select at once import it from
 * here (not from ./choice-widgets, so the Checkbox does not come along) and pass it to their form.
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
