/** The rjsf form layer: a small Fluent UI v9 theme, the shared validator and <SchemaForm>. */
export { SchemaForm, FluentForm, fluentTheme, type SchemaFormProps } from './SchemaForm';
export { fluentWidgets, TextWidget, EmailWidget, PasswordWidget, SelectWidget, CheckboxWidget, TextareaWidget } from './widgets';
export {
  fluentTemplates,
  FieldTemplate,
  BaseInputTemplate,
  ObjectFieldTemplate,
  SubmitButton,
  ErrorListTemplate,
  FluentSubmit,
} from './templates';
export { formValidator, createFormValidator, readableMessage, localizeErrors, ERROR_MESSAGE_KEYWORD } from './validator';
