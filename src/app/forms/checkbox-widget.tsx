import { Checkbox } from '@fluentui/react-components';
import { ariaDescribedByIds, labelValue, type WidgetProps } from '@rjsf/utils';

/** The Checkbox widget of the Fluent UI v9 theme (loaded with the Select through ./choice-widgets). */
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
