import type { CatalogueContribution } from '../../src/server';
import { SOLUTIONS } from '../../src/server';

/**
 * The solutions every workflow plugin files itself under (spec section 2, /solutions). Ids are
 * fixed: workflow plugins name them in `solution_id`.
 */

export const catalogue: CatalogueContribution = {
  solutions: [
    {
      id: SOLUTIONS.finance.id,
      name: SOLUTIONS.finance.name,
      descrption:
        'Take the typing out of accounts payable and reporting: capture invoice data, reconcile invoices with purchase orders and turn financial statements into plain-language analysis.',
      icon: 'finance',
      status: 'active',
      author_first_name: 'Maya',
      created_time: '2024-01-15T09:00:00Z',
    },
    {
      id: SOLUTIONS.operations.id,
      name: SOLUTIONS.operations.name,
      descrption: 'Turn the documents your teams handle every day into structured data, and find any answer in them by asking a question in your own words.',
      icon: 'operations',
      status: 'active',
      author_first_name: 'Daniel',
      created_time: '2024-01-22T09:00:00Z',
    },
    {
      id: SOLUTIONS.customerExperience.id,
      name: SOLUTIONS.customerExperience.name,
      descrption:
        'Understand how your customers feel: read the emotions in reviews, surveys and support conversations, and route what needs attention to the right people.',
      icon: 'customer_experience',
      status: 'active',
      author_first_name: 'Priya',
      created_time: '2024-02-05T09:00:00Z',
    },
    {
      id: SOLUTIONS.humanResources.id,
      name: SOLUTIONS.humanResources.name,
      descrption: 'Screen CVs, answer policy questions and keep employee records tidy. Workflows for HR teams are on their way.',
      icon: 'human_resources',
      status: 'coming_soon',
      author_first_name: 'Maya',
      created_time: '2024-04-02T09:00:00Z',
    },
    {
      id: SOLUTIONS.salesAndMarketing.id,
      name: SOLUTIONS.salesAndMarketing.name,
      descrption: 'Enrich leads, draft follow-ups and summarise campaign results automatically. Coming soon to Flowmatic.',
      icon: 'sales_marketing',
      status: 'coming_soon',
      author_first_name: 'Daniel',
      created_time: '2024-04-02T09:00:00Z',
    },
  ],
};
