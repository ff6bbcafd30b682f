import { PluginRegistry } from '../../../src/core/plugin-registry';
import {
  CALLS_MAX,
  CALLS_MIN,
  CALLS_STEP,
  DEFAULT_ESTIMATE_CALLS,
  DEFAULT_SLIDER_CALLS,
  clampCalls,
  estimate,
  fee,
  perRequestFor,
  tierFor,
} from '../../../src/core/catalogue';
import costEstimator from '../../../plugins/cost-estimator';

const registry = new PluginRegistry([costEstimator]);
const tiers = registry.costTiers.values();
const prices = registry.perRequestPrices;

describe('cost estimator constants', () => {
  it('slider 100..1,000,000 step 100, default 100; default estimate at 25 calls', () => {
    expect([CALLS_MIN, CALLS_MAX, CALLS_STEP, DEFAULT_SLIDER_CALLS, DEFAULT_ESTIMATE_CALLS]).toEqual([100, 1_000_000, 100, 100, 25]);
  });

  it('the plugin contributes four USD monthly tiers', () => {
    expect(tiers.map((t) => [t.numbers, t.base_price, t.currency, t.cycle])).toEqual([
      [1_000, 36.98, 'USD', 'monthly'],
      [10_000, 51.71, 'USD', 'monthly'],
      [100_000, 71.35, 'USD', 'monthly'],
      [1_000_000, 110.64, 'USD', 'monthly'],
    ]);
  });
});

describe('per-request price', () => {
  it.each([
    [4, 0.02],
    [6, 0.06],
    [7, 0.06],
    [1, 0.01],
    [9, 0.01],
    [11, 0.01],
    [12345, 0.01],
  ])('combination %i -> %f', (id, price) => {
    expect(perRequestFor(id, prices)).toBe(price);
  });

  it('falls back to 0.01 when no plugin contributes prices', () => {
    expect(perRequestFor(4, new PluginRegistry([]).perRequestPrices)).toBe(0.01);
  });
});

describe('tier and fee at every tier boundary (per_request 0.01)', () => {
  it.each([
    [25, 36.98, 37.23],
    [100, 36.98, 37.98],
    [1_000, 36.98, 46.98],
    [1_001, 51.71, 61.72],
    [10_000, 51.71, 151.71],
    [10_001, 71.35, 171.36],
    [100_000, 71.35, 1071.35],
    [100_001, 110.64, 1110.65],
    [1_000_000, 110.64, 10110.64],
  ])('%i calls -> base %f, fee %f', (calls, base, expected) => {
    expect(tierFor(calls, tiers)?.base_price).toBe(base);
    expect(fee(base, 0.01, calls)).toBe(expected);
    expect(estimate(calls, tiers, 0.01)?.fee).toBe(expected);
  });
});

describe('per-request variants', () => {
  it.each([
    // combination 4: 0.02
    [0.02, 100, 38.98],
    [0.02, 1_000, 56.98],
    [0.02, 1_001, 71.73],
    [0.02, 10_000, 251.71],
    [0.02, 10_001, 271.37],
    [0.02, 100_000, 2071.35],
    [0.02, 100_001, 2110.66],
    [0.02, 1_000_000, 20110.64],
    // combinations 6 and 7: 0.06
    [0.06, 100, 42.98],
    [0.06, 1_000, 96.98],
    [0.06, 1_001, 111.77],
    [0.06, 10_000, 651.71],
    [0.06, 10_001, 671.41],
    [0.06, 100_000, 6071.35],
    [0.06, 100_001, 6110.7],
    [0.06, 1_000_000, 60110.64],
  ])('per_request %f, %i calls -> %f', (per, calls, expected) => {
    const e = estimate(calls, tiers, per)!;
    expect(e.fee).toBe(expected);
    expect(e.formatted).toBe(expected.toFixed(2));
    expect(e.currency).toBe('USD');
    expect(e.cycle).toBe('monthly');
  });

  it('the default estimate (25 calls) for combination 6 is 38.48', () => {
    expect(estimate(DEFAULT_ESTIMATE_CALLS, tiers, perRequestFor(6, prices))?.formatted).toBe('38.48');
  });

  it('beyond the largest tier the largest applies; no tiers -> no estimate', () => {
    expect(tierFor(2_000_000, tiers)?.base_price).toBe(110.64);
    expect(estimate(100, [], 0.01)).toBeUndefined();
  });
});

describe('slider values', () => {
  it('clamps to 100..1,000,000 on multiples of 100', () => {
    expect(clampCalls(0)).toBe(100);
    expect(clampCalls(149)).toBe(100);
    expect(clampCalls(151)).toBe(200);
    expect(clampCalls(5_000_000)).toBe(1_000_000);
    expect(clampCalls(Number.NaN)).toBe(100);
  });
});
