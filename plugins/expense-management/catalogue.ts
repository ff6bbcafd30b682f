import type { CatalogueContribution } from '../../src/server';
import { AI_PROVIDER, connectors, trigger, SOLUTIONS } from '../../src/server';

export const EXPENSE_RECEIPT_WORKFLOW = 10005;
export const EXPENSE_CATEGORISATION_WORKFLOW = 10007;

/** Expense management: not built yet; its combinations are shown for voting. */
export const catalogue: CatalogueContribution = {
  workflows: [
    {
      id: EXPENSE_RECEIPT_WORKFLOW,
      solution_id: SOLUTIONS.finance.id,
      name: 'Expense Receipt Data Extraction',
      descrption: 'Snap or forward a receipt and get the merchant, date, amount, currency and tax captured for your expense claims.',
      icon: 'coming_soon',
    },
    {
      id: EXPENSE_CATEGORISATION_WORKFLOW,
      solution_id: SOLUTIONS.finance.id,
      name: 'Expense Categorisation',
      descrption: 'Assign every expense to the right account code and cost centre automatically, and flag the ones that break your policy.',
      icon: 'coming_soon',
    },
  ],
  combinations: [
    {
      id: 12,
      workflow_id: EXPENSE_RECEIPT_WORKFLOW,
      order: 2,
      name: 'E-mailed Receipts to Google Sheets',
      sub_title: 'Forward receipts from your phone and keep a running expense log',
      icon: 'expense',
      created_time: '2024-05-13T10:00:00Z',
      status: 'coming_soon',
      enabled: true,
      recommended: false,
      triggers: [trigger('email_received')],
      connectors: connectors('manual_email', AI_PROVIDER, 'google_sheets'),
      recipe: {
        name: 'Expense Receipts from E-mail to Google Sheets',
        description: 'Reads each e-mailed receipt with Flowmatic AI and appends merchant, date, amount and tax to a Google Sheet.',
        steps: [
          { kind: 'trigger', provider: 'manual_email', action: 'email_received' },
          { kind: 'action', provider: AI_PROVIDER, action: 'extract_receipt_fields' },
          { kind: 'action', provider: 'google_sheets', action: 'append_row' },
        ],
      },
    },
    {
      id: 13,
      workflow_id: EXPENSE_RECEIPT_WORKFLOW,
      order: 1,
      name: 'Google Drive Receipts to Xero Expenses',
      sub_title: 'Receipts saved to a Drive folder become expense claims in Xero',
      icon: 'expense',
      created_time: '2024-05-13T11:00:00Z',
      status: 'coming_soon',
      enabled: true,
      recommended: false,
      triggers: [trigger('google_drive_new_file')],
      connectors: connectors('google_drive', AI_PROVIDER, 'xero'),
      recipe: {
        name: 'Expense Receipts from Google Drive to Xero',
        description: 'Reads each receipt added to a Google Drive folder and creates a matching expense claim in Xero.',
        steps: [
          { kind: 'trigger', provider: 'google_drive', action: 'new_file_in_folder' },
          { kind: 'action', provider: AI_PROVIDER, action: 'extract_receipt_fields' },
          { kind: 'action', provider: 'xero', action: 'create_expense_claim' },
        ],
      },
    },
    {
      id: 14,
      workflow_id: EXPENSE_CATEGORISATION_WORKFLOW,
      order: 1,
      name: 'Categorise Xero Bills with Flowmatic AI',
      sub_title: 'Suggest account codes for new bills and flag out-of-policy spending',
      icon: 'expense_categorisation',
      created_time: '2024-05-20T10:00:00Z',
      status: 'coming_soon',
      enabled: true,
      recommended: false,
      triggers: [trigger('xero_new_bill')],
      connectors: connectors('xero', AI_PROVIDER),
      recipe: {
        name: 'Expense Categorisation in Xero',
        description: 'Classifies each new Xero bill into an account code and cost centre and notes any policy exceptions.',
        steps: [
          { kind: 'trigger', provider: 'xero', action: 'new_bill' },
          { kind: 'action', provider: AI_PROVIDER, action: 'categorise_expense' },
          { kind: 'action', provider: 'xero', action: 'update_bill' },
        ],
      },
    },
  ],
};
