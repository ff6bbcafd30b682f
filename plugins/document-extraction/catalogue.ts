import type { CatalogueContribution } from '../../src/server';
import { AI_PROVIDER, connectors, trigger, SOLUTIONS } from '../../src/server';

export const DOCUMENT_EXTRACTION_WORKFLOW = 10006;

const EXTRACT = { kind: 'action', provider: AI_PROVIDER, action: 'extract_document_fields' } as const;

export const catalogue: CatalogueContribution = {
  workflows: [
    {
      id: DOCUMENT_EXTRACTION_WORKFLOW,
      solution_id: SOLUTIONS.operations.id,
      name: 'Document Data Extraction',
      descrption: 'Pull the key fields out of forms, contracts, delivery notes and other business documents, with text recognition for scanned pages.',
      icon: 'document',
    },
  ],
  combinations: [
    {
      id: 3,
      starter_recipe: true,
      completes_on_start: true,
      workflow_id: DOCUMENT_EXTRACTION_WORKFLOW,
      order: 1,
      name: 'Document Data Extraction (basic)',
      sub_title: 'Upload a document and review the labelled fields Flowmatic AI finds',
      icon: 'document',
      created_time: '2024-02-19T10:00:00Z',
      status: 'active',
      enabled: true,
      recommended: true,
      triggers: [trigger('file_uploaded')],
      connectors: connectors('manual_upload', AI_PROVIDER),
      recipe: {
        name: 'Document Data Extraction Basic',
        description: 'Reads an uploaded document with Flowmatic AI and lists its fields as label and value pairs.',
        steps: [{ kind: 'trigger', provider: 'manual_upload', action: 'file_uploaded' }, EXTRACT],
      },
    },
    {
      id: 4,
      starter_recipe: true,
      workflow_id: DOCUMENT_EXTRACTION_WORKFLOW,
      order: 2,
      name: 'Google Drive Documents to Google Sheets',
      sub_title: 'Extract fields from every document added to a Drive folder into a spreadsheet',
      icon: 'document',
      created_time: '2024-03-11T10:00:00Z',
      status: 'active',
      enabled: true,
      recommended: true,
      triggers: [trigger('google_drive_new_file')],
      connectors: connectors('google_drive', AI_PROVIDER, 'google_sheets'),
      recipe: {
        name: 'Document Extraction from Google Drive to Google Sheets',
        description: 'Watches a Google Drive folder; each new document is read by Flowmatic AI and its fields appended to a Google Sheet.',
        steps: [
          { kind: 'trigger', provider: 'google_drive', action: 'new_file_in_folder' },
          { kind: 'action', provider: 'google_drive', action: 'download_file' },
          EXTRACT,
          { kind: 'action', provider: 'google_sheets', action: 'append_row' },
        ],
      },
    },
  ],
};
