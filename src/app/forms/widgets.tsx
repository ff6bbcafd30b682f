import { Suspense, lazy, type ComponentType } from 'react';
import { getTemplate, type RegistryWidgetsType, type WidgetProps } from '@rjsf/utils';

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

/** The choice widgets' module (Fluent Select and Checkbox), loaded when a form first shows one. */
export const loadChoiceWidgets = () => import(/* webpackChunkName: "form-choice-widgets" */ './choice-widgets');
const loadTextareaWidget = () => import(/* webpackChunkName: "form-textarea-widget" */ './textarea-widget');

/**
 * A widget loaded on first use, so forms of text fields only (log-in, password reset) do not
 * download Select, Checkbox and Textarea. A page that shows one at once passes the widget itself
 * (`widgets={{ SelectWidget }}` from './choice-widgets') and never waits; while loading, a box of
 * the control's height keeps the layout still.
 */
function lazyWidget<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string, height: number): ComponentType<WidgetProps> {
  const Loaded = lazy(() => load().then((m) => ({ default: m[name] as ComponentType<WidgetProps> })));
  function LazyWidget(props: WidgetProps) {
    return (
      <Suspense fallback={<div style={{ minHeight: height }} aria-busy="true" />}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  LazyWidget.displayName = `Lazy${name}`;
  return LazyWidget;
}

const SelectWidget = lazyWidget(loadChoiceWidgets, 'SelectWidget', 32);
const CheckboxWidget = lazyWidget(loadChoiceWidgets, 'CheckboxWidget', 32);
const TextareaWidget = lazyWidget(loadTextareaWidget, 'TextareaWidget', 96);

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
