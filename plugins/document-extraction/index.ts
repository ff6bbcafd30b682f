import { definePlugin } from '../../src/app';

/** Document data extraction: workflow page 10006. */
export default definePlugin({
  id: 'document-extraction',
  workflowViews: { 10006: { load: () => import('./DocumentExtractionView') } },
});
