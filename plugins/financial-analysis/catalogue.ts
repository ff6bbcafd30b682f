import type { CatalogueContribution } from '../../src/server';
import { AI_PROVIDER, connectors, trigger, SOLUTIONS } from '../../src/server';

export const FINANCIAL_ANALYSIS_WORKFLOW = 10013;

export const catalogue: CatalogueContribution = {
  workflows: [
    {
      id: FINANCIAL_ANALYSIS_WORKFLOW,
      solution_id: SOLUTIONS.finance.id,
      name: 'Financial Analysis',
      descrption:
        'Upload financial statements and receive a written report on the area you choose: overall position, risks, opportunities, cash flow or sales and income.',
      icon: 'financial_analysis',
    },
  ],
  combinations: [
    {
      id: 11,
      workflow_id: FINANCIAL_ANALYSIS_WORKFLOW,
      order: 1,
      name: 'Financial Statement Analysis Report',
      sub_title: 'Turn a balance sheet or P&L into a plain-language report, delivered by e-mail',
      icon: 'financial_analysis',
      created_time: '2024-06-17T10:00:00Z',
      status: 'active',
      enabled: true,
      recommended: true,
      triggers: [trigger('file_uploaded')],
      connectors: connectors('manual_upload', AI_PROVIDER, 'manual_email'),
      recipe: {
        name: 'Financial Statement Analysis',
        description: 'Reads the uploaded statement, analyses it for the selected focus area and e-mails the report.',
        steps: [
          { kind: 'trigger', provider: 'manual_upload', action: 'file_uploaded' },
          { kind: 'action', provider: AI_PROVIDER, action: 'analyse_financials' },
          { kind: 'action', provider: 'manual_email', action: 'send_email' },
        ],
      },
    },
  ],
};
