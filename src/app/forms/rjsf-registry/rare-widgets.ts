/** rjsf's default widgets that ./widgets.ts loads on first use, one chunk. */
export { default as AltDateWidget } from '@rjsf/core/lib/components/widgets/AltDateWidget.js';
export { default as AltDateTimeWidget } from '@rjsf/core/lib/components/widgets/AltDateTimeWidget.js';
export { default as CheckboxesWidget } from '@rjsf/core/lib/components/widgets/CheckboxesWidget.js';
export { default as ColorWidget } from '@rjsf/core/lib/components/widgets/ColorWidget.js';
export { default as DateWidget } from '@rjsf/core/lib/components/widgets/DateWidget.js';
export { default as DateTimeWidget } from '@rjsf/core/lib/components/widgets/DateTimeWidget.js';
export { default as FileWidget } from '@rjsf/core/lib/components/widgets/FileWidget.js';
export { default as RadioWidget } from '@rjsf/core/lib/components/widgets/RadioWidget.js';
export { default as RangeWidget } from '@rjsf/core/lib/components/widgets/RangeWidget.js';
export { default as RatingWidget } from '@rjsf/core/lib/components/widgets/RatingWidget.js';
export { default as TimeWidget } from '@rjsf/core/lib/components/widgets/TimeWidget.js';
export { default as UpDownWidget } from '@rjsf/core/lib/components/widgets/UpDownWidget.js';
export { default as URLWidget } from '@rjsf/core/lib/components/widgets/URLWidget.js';
