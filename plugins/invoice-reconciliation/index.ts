import { definePlugin } from '../../src/app';

/** Invoice-to-purchase-order reconciliation: combination 10 (always authorised, counts nothing). */
export default definePlugin({
  id: 'invoice-reconciliation',
  combinationViews: { 10: { load: () => import('./ReconciliationView') } },
  authorisationRules: [{ combinationId: 10, isAuthorised: () => true, activeConnectionsWeight: 0 }],
});
