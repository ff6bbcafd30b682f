import { definePlugin } from '../../src/app';

/**
 * Cost estimator prices (spec section 9): fee = base_price + per_request x calls, monthly, USD.
 * A tier covers calls up to its `numbers`.
 */
export default definePlugin({
  id: 'cost-estimator',
  costTiers: {
    tiers: [
      { id: 1, numbers: 1_000, base_price: 36.98, currency: 'USD', cycle: 'monthly' },
      { id: 2, numbers: 10_000, base_price: 51.71, currency: 'USD', cycle: 'monthly' },
      { id: 3, numbers: 100_000, base_price: 71.35, currency: 'USD', cycle: 'monthly' },
      { id: 4, numbers: 1_000_000, base_price: 110.64, currency: 'USD', cycle: 'monthly' },
    ],
    perRequest: { default: 0.01, 4: 0.02, 6: 0.06, 7: 0.06 },
  },
});
