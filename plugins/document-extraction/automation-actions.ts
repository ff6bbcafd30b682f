import { AI_PROVIDER, extractionAction, type DocumentFields, type StoredDocumentExtractor } from '../../src/server';

/**
 * flowmatic_ai:extract_document_fields: reads each document the run brought and returns its
 * label / value pairs (`fields`, as the extraction page shows them) and `values`, the same pairs
 * keyed by label for later steps (a Sheets row).
 */
export function documentExtractionSteps(extractor: StoredDocumentExtractor<DocumentFields>) {
  return [
    extractionAction({
      provider: AI_PROVIDER,
      action: 'extract_document_fields',
      title: 'Extract the document fields',
      description: 'Reads each PDF, PNG or JPEG document of the run and returns its label / value pairs.',
      extractor,
      shape: (fields) => ({ fields, values: Object.fromEntries(fields.map((f) => [f.label, f.result])) }),
    }),
  ];
}
