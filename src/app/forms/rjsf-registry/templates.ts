/**
 * Stands in for @rjsf/core's `components/templates/index.js` in the browser build (see
 * ./fields.ts): the same templates, the array ones (used with ArrayField only) loaded on first use.
 */
import type { TemplatesType } from '@rjsf/utils';
import BaseInputTemplate from '@rjsf/core/lib/components/templates/BaseInputTemplate.js';
import ButtonTemplates from '@rjsf/core/lib/components/templates/ButtonTemplates/index.js';
import CyclicSchemaExpandTemplate from '@rjsf/core/lib/components/templates/CyclicSchemaExpandTemplate.js';
import DescriptionField from '@rjsf/core/lib/components/templates/DescriptionField.js';
import ErrorList from '@rjsf/core/lib/components/templates/ErrorList.js';
import FallbackFieldTemplate from '@rjsf/core/lib/components/templates/FallbackFieldTemplate.js';
import FieldErrorTemplate from '@rjsf/core/lib/components/templates/FieldErrorTemplate.js';
import FieldHelpTemplate from '@rjsf/core/lib/components/templates/FieldHelpTemplate.js';
import FieldTemplate from '@rjsf/core/lib/components/templates/FieldTemplate/index.js';
import GridTemplate from '@rjsf/core/lib/components/templates/GridTemplate.js';
import MultiSchemaFieldTemplate from '@rjsf/core/lib/components/templates/MultiSchemaFieldTemplate.js';
import ObjectFieldTemplate from '@rjsf/core/lib/components/templates/ObjectFieldTemplate.js';
import OptionalDataControlsTemplate from '@rjsf/core/lib/components/templates/OptionalDataControlsTemplate.js';
import TitleField from '@rjsf/core/lib/components/templates/TitleField.js';
import UnsupportedField from '@rjsf/core/lib/components/templates/UnsupportedField.js';
import WrapIfAdditionalTemplate from '@rjsf/core/lib/components/templates/WrapIfAdditionalTemplate.js';
import type { ComponentType } from 'react';
import { lazyPart } from './lazy-part';

const load = () => import(/* webpackChunkName: "rjsf-array" */ './array-templates');
const arrayPart = (name: keyof Awaited<ReturnType<typeof load>>) =>
  lazyPart<object>(() => load().then((m) => ({ default: m[name] as unknown as ComponentType<object> })), name);

export default function templates(): TemplatesType {
  return {
    ArrayFieldDescriptionTemplate: arrayPart('ArrayFieldDescriptionTemplate'),
    ArrayFieldItemTemplate: arrayPart('ArrayFieldItemTemplate'),
    ArrayFieldItemButtonsTemplate: arrayPart('ArrayFieldItemButtonsTemplate'),
    ArrayFieldTemplate: arrayPart('ArrayFieldTemplate'),
    ArrayFieldTitleTemplate: arrayPart('ArrayFieldTitleTemplate'),
    ButtonTemplates: ButtonTemplates(),
    BaseInputTemplate,
    CyclicSchemaExpandTemplate,
    DescriptionFieldTemplate: DescriptionField,
    ErrorListTemplate: ErrorList,
    FallbackFieldTemplate,
    FieldTemplate,
    FieldErrorTemplate,
    FieldHelpTemplate,
    GridTemplate,
    MultiSchemaFieldTemplate,
    ObjectFieldTemplate,
    OptionalDataControlsTemplate,
    TitleFieldTemplate: TitleField,
    UnsupportedFieldTemplate: UnsupportedField,
    WrapIfAdditionalTemplate,
  } as TemplatesType;
}
