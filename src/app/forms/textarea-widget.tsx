import { Textarea } from '@fluentui/react-components';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';

/** The multi-line text widget of the Fluent UI v9 theme, loaded on first use (see widgets.tsx). */
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
