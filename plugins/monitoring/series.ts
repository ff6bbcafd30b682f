import type { MonitoringMetric, MonitoringRecord } from './records';

/** The four series of a window, aligned on its dates (for the chart). */
export interface MonitoringSeries {
  dates: string[];
  failed: number[];
  succeeded: number[];
  successRate: number[];
  minutesSaved: number[];
}

/** The window's totals shown above the chart. */
export interface MonitoringTotals {
  runs: number;
  succeeded: number;
  failed: number;
  /** percent, one decimal; null when there were no runs */
  successRate: number | null;
  /** hours saved, one decimal */
  hoursSaved: number;
}

/** Thrown when the server's reply is not a list of monitoring records. */
export class MonitoringReplyError extends Error {
  constructor(detail: string) {
    super(`The monitoring data could not be read: ${detail}.`);
    this.name = 'MonitoringReplyError';
  }
}

const valueOf = (r: MonitoringRecord, type: MonitoringMetric['type']) => {
  const v = r.Type.find((t) => t.type === type)?.value;
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
};

/** Checks a reply is a list of records (Date and Type) and sorts it by date. */
export function readRecords(reply: unknown): MonitoringRecord[] {
  if (!Array.isArray(reply)) throw new MonitoringReplyError('the reply is not a list');
  for (const r of reply) {
    if (!r || typeof r !== 'object' || typeof (r as MonitoringRecord).Date !== 'string' || !Array.isArray((r as MonitoringRecord).Type)) {
      throw new MonitoringReplyError('a record has no Date or Type');
    }
  }
  return [...(reply as MonitoringRecord[])].sort((a, b) => a.Date.localeCompare(b.Date));
}

/** The chart's series from the records, one point per day. */
export function toSeries(records: MonitoringRecord[]): MonitoringSeries {
  return {
    dates: records.map((r) => r.Date),
    failed: records.map((r) => valueOf(r, 'FAILED')),
    succeeded: records.map((r) => valueOf(r, 'SUCCEEDED')),
    successRate: records.map((r) => valueOf(r, 'success_rate')),
    minutesSaved: records.map((r) => valueOf(r, 'time_cost_unit_min')),
  };
}

/** Runs, success rate and hours saved over the whole window. */
export function totalsOf(records: MonitoringRecord[]): MonitoringTotals {
  const s = toSeries(records);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const succeeded = sum(s.succeeded);
  const failed = sum(s.failed);
  const runs = succeeded + failed;
  return {
    runs,
    succeeded,
    failed,
    successRate: runs === 0 ? null : Math.round((succeeded / runs) * 1000) / 10,
    hoursSaved: Math.round((sum(s.minutesSaved) / 60) * 10) / 10,
  };
}
