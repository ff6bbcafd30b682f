import type { PricingTier } from '../domain';

/** Cost estimator constants (spec section 9). */
export const CALLS_MIN = 100;
export const CALLS_MAX = 1_000_000;
export const CALLS_STEP = 100;
/** Where the slider starts. */
export const DEFAULT_SLIDER_CALLS = 100;
/**
 * "The default estimate is based on 25 calls": until the user moves the slider, the estimate
 * shown is the one for 25 calls, and says so; from the first move it follows the slider.
 */
export const DEFAULT_ESTIMATE_CALLS = 25;
export const DEFAULT_PER_REQUEST = 0.01;
export const PER_REQUEST_DEFAULT_KEY = 'default';

export type CostTier = Omit<PricingTier, 'per_request'>;

/**
 * The tier that covers a number of calls: the smallest tier whose `numbers` is at least the
 * calls (up to 1,000 -> 36.98; up to 10,000 -> 51.71; ...). Beyond the largest tier, the largest.
 */
export function tierFor(calls: number, tiers: readonly CostTier[]): CostTier | undefined {
  const sorted = [...tiers].sort((a, b) => a.numbers - b.numbers);
  return sorted.find((t) => calls <= t.numbers) ?? sorted[sorted.length - 1];
}

/** per_request for a combination: its own price, else the 'default' price, else 0.01. */
export function perRequestFor(combinationId: number | string | undefined, prices: { get(key: string | number): number | undefined }): number {
  return (combinationId !== undefined ? prices.get(combinationId) : undefined) ?? prices.get(PER_REQUEST_DEFAULT_KEY) ?? DEFAULT_PER_REQUEST;
}

/** Rounds money to cents (guarding against binary fractions such as 0.06 * 3). */
export function roundCents(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

/** Fee = base_price + per_request x calls, to 2 decimals. */
export function fee(basePrice: number, perRequest: number, calls: number): number {
  return roundCents(basePrice + perRequest * calls);
}

export interface Estimate {
  calls: number;
  tier: CostTier;
  perRequest: number;
  fee: number;
  /** '37.98' */
  formatted: string;
  currency: string;
  cycle: string;
}

/** The estimate for a number of calls, or undefined when no tier is contributed. */
export function estimate(calls: number, tiers: readonly CostTier[], perRequest: number): Estimate | undefined {
  const tier = tierFor(calls, tiers);
  if (!tier) return undefined;
  const value = fee(tier.base_price, perRequest, calls);
  return {
    calls,
    tier,
    perRequest,
    fee: value,
    formatted: value.toFixed(2),
    currency: tier.currency ?? 'USD',
    cycle: tier.cycle ?? 'monthly',
  };
}

/** Keeps a slider value inside 100..1,000,000 on a multiple of 100. */
export function clampCalls(calls: number): number {
  if (!Number.isFinite(calls)) return DEFAULT_SLIDER_CALLS;
  const stepped = Math.round(calls / CALLS_STEP) * CALLS_STEP;
  return Math.min(CALLS_MAX, Math.max(CALLS_MIN, stepped));
}
