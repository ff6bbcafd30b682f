import type { CatalogueContribution } from '../../src/server';
import { AI_PROVIDER, connectors, trigger, SOLUTIONS } from '../../src/server';

export const INVOICE_EXTRACTION_WORKFLOW = 10004;

const EXTRACT = { kind: 'action', provider: AI_PROVIDER, action: 'extract_invoice_fields' } as const;

export const catalogue: CatalogueContribution = {
  workflows: [
    {
      id: INVOICE_EXTRACTION_WORKFLOW,
      solution_id: SOLUTIONS.finance.id,
      name: 'Invoice Data Extraction',
      descrption:
        'Read supplier invoices (PDFs, scans and photos) and capture the vendor, invoice number, dates, totals, tax and line items, ready for your spreadsheet or accounting system.',
      icon: 'invoice',
    },
  ],
  combinations: [
    {
      id: 1,
      starter_recipe: true,
      workflow_id: INVOICE_EXTRACTION_WORKFLOW,
      order: 4,
      name: 'Google Drive Invoices to Google Sheets',
      sub_title: 'Drop invoices in a Drive folder and get one spreadsheet row per invoice',
      icon: 'invoice',
      created_time: '2024-02-12T10:00:00Z',
      status: 'active',
      enabled: true,
      recommended: true,
      triggers: [trigger('google_drive_new_file')],
      connectors: connectors('google_drive', AI_PROVIDER, 'google_sheets'),
      recipe: {
        name: 'Invoice Extraction from Google Drive to Google Sheets',
        description: 'Watches a Google Drive folder; each new invoice is read by Flowmatic AI and its fields appended to a Google Sheet.',
        steps: [
          { kind: 'trigger', provider: 'google_drive', action: 'new_file_in_folder' },
          { kind: 'action', provider: 'google_drive', action: 'download_file' },
          EXTRACT,
          { kind: 'action', provider: 'google_sheets', action: 'append_row' },
        ],
      },
    },
    {
      id: 8,
      workflow_id: INVOICE_EXTRACTION_WORKFLOW,
      order: 3,
      name: 'E-mailed Invoices to Google Sheets',
      sub_title: 'Forward invoices to your Flowmatic address and find them in a spreadsheet',
      icon: 'invoice',
      created_time: '2024-03-04T10:00:00Z',
      status: 'active',
      enabled: true,
      recommended: true,
      triggers: [trigger('email_received')],
      connectors: connectors('manual_email', AI_PROVIDER, 'google_sheets'),
      recipe: {
        name: 'Invoice Extraction from E-mail to Google Sheets',
        description: 'Each e-mail sent to the recipe address has its invoice attachments read by Flowmatic AI and appended to a Google Sheet.',
        steps: [
          { kind: 'trigger', provider: 'manual_email', action: 'email_received' },
          EXTRACT,
          { kind: 'action', provider: 'google_sheets', action: 'append_row' },
        ],
      },
    },
    {
      id: 9,
      completes_on_start: true,
      workflow_id: INVOICE_EXTRACTION_WORKFLOW,
      order: 2,
      name: 'E-mailed Invoices to Xero Bills',
      sub_title: 'Turn invoices sent to your Flowmatic address into draft bills in Xero',
      icon: 'invoice',
      created_time: '2024-03-18T10:00:00Z',
      status: 'active',
      enabled: true,
      recommended: false,
      triggers: [trigger('email_received')],
      connectors: connectors('manual_email', AI_PROVIDER, 'xero'),
      recipe: {
        name: 'Invoice Extraction from E-mail to Xero',
        description: 'Each invoice e-mailed to the recipe address is read by Flowmatic AI and created as a draft bill in Xero for review.',
        steps: [
          { kind: 'trigger', provider: 'manual_email', action: 'email_received' },
          EXTRACT,
          { kind: 'action', provider: 'xero', action: 'create_draft_bill' },
        ],
      },
    },
    {
      id: 2,
      starter_recipe: true,
      completes_on_start: true,
      new_combination_target: true,
      workflow_id: INVOICE_EXTRACTION_WORKFLOW,
      order: 1,
      name: 'Invoice Data Extraction (basic)',
      sub_title: 'Upload an invoice and see its fields in seconds, no connections needed',
      icon: 'invoice',
      created_time: '2024-02-12T09:00:00Z',
      status: 'active',
      enabled: true,
      recommended: true,
      triggers: [trigger('file_uploaded')],
      connectors: connectors('manual_upload', AI_PROVIDER),
      recipe: {
        name: 'Invoice Data Extraction Basic',
        description: 'Reads an uploaded invoice with Flowmatic AI and shows the extracted fields.',
        steps: [{ kind: 'trigger', provider: 'manual_upload', action: 'file_uploaded' }, EXTRACT],
      },
    },
  ],
};
