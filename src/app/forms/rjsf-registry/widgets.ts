/**
 * Stands in for @rjsf/core's `components/widgets/index.js` in the browser build (see ./fields.ts):
 * the widgets our theme does not replace and no first screen shows (dates, colour, file, radio,
 * range, rating, up-down, URL, checkbox lists) load when a form first renders one.
 */
import type { RegistryWidgetsType } from '@rjsf/utils';
import CheckboxWidget from '@rjsf/core/lib/components/widgets/CheckboxWidget.js';
import EmailWidget from '@rjsf/core/lib/components/widgets/EmailWidget.js';
import HiddenWidget from '@rjsf/core/lib/components/widgets/HiddenWidget.js';
import PasswordWidget from '@rjsf/core/lib/components/widgets/PasswordWidget.js';
import SelectWidget from '@rjsf/core/lib/components/widgets/SelectWidget.js';
import TextareaWidget from '@rjsf/core/lib/components/widgets/TextareaWidget.js';
import TextWidget from '@rjsf/core/lib/components/widgets/TextWidget.js';
import type { ComponentType } from 'react';
import { lazyPart } from './lazy-part';

const load = () => import(/* webpackChunkName: "rjsf-widgets" */ './rare-widgets');
const rare = (name: keyof Awaited<ReturnType<typeof load>>) =>
  lazyPart<object>(() => load().then((m) => ({ default: m[name] as unknown as ComponentType<object> })), name);

export default function widgets(): RegistryWidgetsType {
  return {
    AltDateWidget: rare('AltDateWidget'),
    AltDateTimeWidget: rare('AltDateTimeWidget'),
    CheckboxWidget,
    CheckboxesWidget: rare('CheckboxesWidget'),
    ColorWidget: rare('ColorWidget'),
    DateWidget: rare('DateWidget'),
    DateTimeWidget: rare('DateTimeWidget'),
    EmailWidget,
    FileWidget: rare('FileWidget'),
    HiddenWidget,
    PasswordWidget,
    RadioWidget: rare('RadioWidget'),
    RangeWidget: rare('RangeWidget'),
    RatingWidget: rare('RatingWidget'),
    SelectWidget,
    TextWidget,
    TextareaWidget,
    TimeWidget: rare('TimeWidget'),
    UpDownWidget: rare('UpDownWidget'),
    URLWidget: rare('URLWidget'),
  } as RegistryWidgetsType;
}
