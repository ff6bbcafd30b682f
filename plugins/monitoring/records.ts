import type { DailyRuns } from './rollup';

/** The minutes one successful run saves when a workflow does not say (catalogue minutes_per_run). */
export const DEFAULT_MINUTES_PER_RUN = 5;
/** The longest window a request may ask for, in weeks (a year). */
export const MAX_PERIOD_WEEKS = 52;

/** One type/value pair of a monitoring record (spec section 3). */
export interface MonitoringMetric {
  type: 'FAILED' | 'SUCCEEDED' | 'success_rate' | 'time_cost_unit_min';
  value: number;
}

/** The monitoring record of spec section 3 ('Cilent_id' spelt so): one workflow's day. */
export interface MonitoringRecord {
  Id: number;
  Cilent_id: number;
  Data_source: number;
  Type: MonitoringMetric[];
  Date: string;
}

const DAY_MS = 86_400_000;

/** The inclusive UTC day range of the last `weeks` weeks ending today: 2 → today and the 13 days before. */
export function windowOf(weeks: number, now: number): { from: string; to: string; days: string[] } {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const count = weeks * 7;
  const days = Array.from({ length: count }, (_, i) => new Date(today - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10));
  return { from: days[0], to: days[days.length - 1], days };
}

/** Success rate in percent, one decimal; 0 on a day without runs. */
export function successRate(succeeded: number, failed: number): number {
  const runs = succeeded + failed;
  return runs === 0 ? 0 : Math.round((succeeded / runs) * 1000) / 10;
}

/**
 * The records of a window: one per day, in date order, days without runs with zeros. Minutes
 * saved are the day's successful runs times the workflow's minutes per run.
 */
export function monitoringRecords(opts: {
  clientId: number;
  workflowId: number;
  days: string[];
  rows: DailyRuns[];
  minutesPerRun: number;
}): MonitoringRecord[] {
  const byDay = new Map(opts.rows.map((r) => [r.day, r]));
  return opts.days.map((day, i) => {
    const r = byDay.get(day) ?? { succeeded: 0, failed: 0 };
    return {
      Id: i + 1,
      Cilent_id: opts.clientId,
      Data_source: opts.workflowId,
      Type: [
        { type: 'FAILED', value: r.failed },
        { type: 'SUCCEEDED', value: r.succeeded },
        { type: 'success_rate', value: successRate(r.succeeded, r.failed) },
        {
          type: 'time_cost_unit_min',
          value: Math.round(r.succeeded * opts.minutesPerRun * 100) / 100,
        },
      ],
      Date: day,
    };
  });
}
