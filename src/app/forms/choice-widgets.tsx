/**
 * The choice widgets of the Fluent UI v9 theme (Select, Checkbox), one chunk: the shared registry
 * (widgets.tsx) loads it on first use. Pages that show a select at once import it from
 * ./select-widget. The Textarea is in textarea-widget.tsx.
 */
export { SelectWidget } from './select-widget';
export { CheckboxWidget } from './checkbox-widget';
