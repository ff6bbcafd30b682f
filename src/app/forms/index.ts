/** The rjsf form layer: a small Fluent UI v9 theme, the shared validator and <SchemaForm>. */
export { SchemaForm, FluentForm, fluentTheme, type SchemaFormProps } from './SchemaForm';
export { SchemaValues, schemaForValues } from './SchemaValues';
export { fluentWidgets, TextWidget, EmailWidget, PasswordWidget, loadChoiceWidgets } from './widgets';
export { SelectWidget, CheckboxWidget } from './choice-widgets';
export { TextareaWidget } from './textarea-widget';
export { fluentTemplates, FieldTemplate, BaseInputTemplate, ObjectFieldTemplate, SubmitButton, ErrorListTemplate, FluentSubmit } from './templates';
export { precompiledValidator, readableMessage, localizeErrors, ERROR_MESSAGE_KEYWORD, type PrecompiledForm } from './validator';
