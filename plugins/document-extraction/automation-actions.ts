import { AI_PROVIDER, extractDocumentFields, extractionAction, type ActionDefinition, type ExtractionServices } from '../../src/server';

/**
 * flowmatic_ai:extract_document_fields: reads each document the run brought and returns its
 * label / value pairs (`fields`, as the extraction page shows them) and `values`, the same pairs
 * keyed by label for later steps (a Sheets row).
 */
export function documentExtractionActions(services: () => ExtractionServices): ActionDefinition[] {
  return [
    extractionAction({
      provider: AI_PROVIDER,
      action: 'extract_document_fields',
      name: 'Extract the document fields',
      services,
      extract: extractDocumentFields,
      shape: (fields) => ({ fields, values: Object.fromEntries(fields.map((f) => [f.label, f.result])) }),
    }) as ActionDefinition,
  ];
}
