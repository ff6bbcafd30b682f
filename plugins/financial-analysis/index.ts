import { definePlugin } from '../../src/app';

/** Financial analysis reports: combination 11 (always authorised, counts nothing). */
export default definePlugin({
  id: 'financial-analysis',
  combinationViews: { 11: { load: () => import('./FinancialAnalysisView') } },
  authorisationRules: [{ combinationId: 11, isAuthorised: () => true, activeConnectionsWeight: 0 }],
});
