import type { CatalogueContribution } from '../../src/server';
import { AI_PROVIDER, connectors, trigger, SOLUTIONS } from '../../src/server';

export const INTELLIGENT_SEARCH_WORKFLOW = 10011;

export const catalogue: CatalogueContribution = {
  workflows: [
    {
      id: INTELLIGENT_SEARCH_WORKFLOW,
      solution_id: SOLUTIONS.operations.id,
      name: 'Intelligent Search',
      descrption: 'Ask a question in plain language and get the passages that answer it from your documents, ranked, with a link to each source file.',
      icon: 'search',
    },
  ],
  combinations: [
    {
      id: 5,
      workflow_id: INTELLIGENT_SEARCH_WORKFLOW,
      order: 1,
      name: 'Search Your Google Drive Documents',
      sub_title: 'Index a Drive folder and search it by meaning, not just by file name',
      icon: 'search',
      created_time: '2024-03-25T10:00:00Z',
      status: 'active',
      enabled: true,
      recommended: false,
      triggers: [trigger('google_drive_new_file')],
      connectors: connectors('google_drive', AI_PROVIDER),
      recipe: {
        name: 'Intelligent Search over Google Drive',
        description: 'Each new document in the watched Google Drive folder is read and added to your searchable document store.',
        steps: [
          { kind: 'trigger', provider: 'google_drive', action: 'new_file_in_folder' },
          { kind: 'action', provider: 'google_drive', action: 'download_file' },
          { kind: 'action', provider: AI_PROVIDER, action: 'index_document' },
        ],
      },
    },
  ],
};
