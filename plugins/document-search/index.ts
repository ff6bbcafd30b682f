import { definePlugin } from '../../src/app';

/** Natural-language document search: workflow page 10011. */
export default definePlugin({
  id: 'document-search',
  workflowViews: { 10011: { load: () => import('./DocumentSearchView') } },
});
