import type { CatalogueContribution } from '../../src/server';
import { AI_PROVIDER, connectors, trigger, SOLUTIONS } from '../../src/server';

export const INVOICE_RECONCILIATION_WORKFLOW = 10012;

export const catalogue: CatalogueContribution = {
  workflows: [
    {
      id: INVOICE_RECONCILIATION_WORKFLOW,
      solution_id: SOLUTIONS.finance.id,
      name: 'Invoice Reconciliation',
      descrption:
        'Match supplier invoices against purchase orders line by line, list the discrepancies and unmatched records, and draft the e-mails and memos that resolve them.',
      icon: 'reconciliation',
    },
  ],
  combinations: [
    {
      id: 10,
      workflow_id: INVOICE_RECONCILIATION_WORKFLOW,
      order: 1,
      name: 'Invoice to Purchase Order Reconciliation',
      sub_title: 'Compare invoice and purchase-order exports and e-mail suppliers about any differences',
      icon: 'reconciliation',
      created_time: '2024-06-03T10:00:00Z',
      status: 'active',
      enabled: true,
      recommended: true,
      triggers: [trigger('file_uploaded')],
      connectors: connectors('manual_upload', AI_PROVIDER, 'manual_email'),
      recipe: {
        name: 'Invoice to Purchase Order Reconciliation',
        description:
          'Joins the uploaded invoice and purchase-order CSV files on the chosen keys, finds discrepancies and unmatched records, and writes comparison e-mails in the chosen tone of voice.',
        steps: [
          { kind: 'trigger', provider: 'manual_upload', action: 'files_uploaded' },
          { kind: 'action', provider: AI_PROVIDER, action: 'reconcile_invoices' },
          { kind: 'action', provider: 'manual_email', action: 'send_email' },
        ],
      },
    },
  ],
};
