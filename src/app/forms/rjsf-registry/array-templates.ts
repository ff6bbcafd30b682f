/** rjsf's array templates that ./templates.ts loads with the first array field, one chunk. */
export { default as ArrayFieldDescriptionTemplate } from '@rjsf/core/lib/components/templates/ArrayFieldDescriptionTemplate.js';
export { default as ArrayFieldItemTemplate } from '@rjsf/core/lib/components/templates/ArrayFieldItemTemplate.js';
export { default as ArrayFieldItemButtonsTemplate } from '@rjsf/core/lib/components/templates/ArrayFieldItemButtonsTemplate.js';
export { default as ArrayFieldTemplate } from '@rjsf/core/lib/components/templates/ArrayFieldTemplate.js';
export { default as ArrayFieldTitleTemplate } from '@rjsf/core/lib/components/templates/ArrayFieldTitleTemplate.js';
