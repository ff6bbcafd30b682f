import { definePlugin } from '../../src/app';
import { invoiceExtractionRules } from './rules';

/** Invoice data extraction: workflow page 10004 and the authorisation of combinations 1, 8, 9. */
export default definePlugin({
  id: 'invoice-extraction',
  workflowViews: { 10004: { load: () => import('./InvoiceExtractionView') } },
  authorisationRules: invoiceExtractionRules,
});
