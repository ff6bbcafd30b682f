/**
 * Stands in for @rjsf/core's `components/fields/index.js` in the browser build (webpack.config.ts,
 * NormalModuleReplacementPlugin): the same default fields, but the ones none of our first screens
 * use (arrays, the layout-grid fields, the anyOf/oneOf field) are chunks loaded when a form first
 * renders them (issue 7, 'Speed'). Jest and the server use rjsf's own index.
 */
import type { RegistryFieldsType } from '@rjsf/utils';
import BooleanField from '@rjsf/core/lib/components/fields/BooleanField.js';
import CyclicSchemaField from '@rjsf/core/lib/components/fields/CyclicSchemaField.js';
import FallbackField from '@rjsf/core/lib/components/fields/FallbackField.js';
import NullField from '@rjsf/core/lib/components/fields/NullField.js';
import NumberField from '@rjsf/core/lib/components/fields/NumberField.js';
import ObjectField from '@rjsf/core/lib/components/fields/ObjectField.js';
import OptionalDataControlsField from '@rjsf/core/lib/components/fields/OptionalDataControlsField.js';
import SchemaField from '@rjsf/core/lib/components/fields/SchemaField.js';
import StringField from '@rjsf/core/lib/components/fields/StringField.js';
import { lazyPart } from './lazy-part';

const ArrayField = lazyPart(() => import(/* webpackChunkName: "rjsf-array" */ '@rjsf/core/lib/components/fields/ArrayField.js'), 'ArrayField');
const LayoutGridField = lazyPart(() => import(/* webpackChunkName: "rjsf-layout" */ '@rjsf/core/lib/components/fields/LayoutGridField.js'), 'LayoutGridField');
const LayoutHeaderField = lazyPart(
  () => import(/* webpackChunkName: "rjsf-layout" */ '@rjsf/core/lib/components/fields/LayoutHeaderField.js'),
  'LayoutHeaderField',
);
// AnyOfField and OneOfField: only for a real anyOf/oneOf; a oneOf of consts (a choice list, such as
// the account form's role) is a select and never renders it
const MultiSchemaField = lazyPart(
  () => import(/* webpackChunkName: "rjsf-multi" */ '@rjsf/core/lib/components/fields/MultiSchemaField.js'),
  'MultiSchemaField',
);
const LayoutMultiSchemaField = lazyPart(
  () => import(/* webpackChunkName: "rjsf-layout" */ '@rjsf/core/lib/components/fields/LayoutMultiSchemaField.js'),
  'LayoutMultiSchemaField',
);

export default function fields(): RegistryFieldsType {
  return {
    AnyOfField: MultiSchemaField,
    ArrayField,
    BooleanField,
    CyclicSchemaField,
    FallbackField,
    LayoutGridField,
    LayoutHeaderField,
    LayoutMultiSchemaField,
    NumberField,
    ObjectField,
    OneOfField: MultiSchemaField,
    OptionalDataControlsField,
    SchemaField,
    StringField,
    NullField,
  } as RegistryFieldsType;
}
