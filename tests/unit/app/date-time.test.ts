// @ts-expect-error d3-time-format (plotly's) ships no types
import { utcFormat } from 'd3-time-format';
import { CHART_DAY_FORMAT, browserZone, formatDateTime, formatDay, formatTime, parseZoneOffset } from '../../../src/app/date-time';

describe('the one date-time format (src/app/date-time.ts, issue 25)', () => {
  const paris = parseZoneOffset('(GMT+01:00) Europe/Paris');

  it("reads a moment in the user's stored zone as '25 Nov 2026, 23:55:25 GMT+01:00', across midnight and with half-hour offsets", () => {
    expect(formatDateTime('2026-11-25T22:55:25Z', paris)).toBe('25 Nov 2026, 23:55:25 GMT+01:00');
    expect(formatDateTime('2026-11-25T23:30:00Z', paris)).toBe('26 Nov 2026, 00:30:00 GMT+01:00');
    expect(formatDateTime('2026-03-01T02:00:00Z', parseZoneOffset('(GMT-03:30) Newfoundland'))).toBe('28 Feb 2026, 22:30:00 GMT-03:30');
    expect(formatDateTime('2026-11-25T22:55:25Z', parseZoneOffset('(GMT) Greenwich Mean Time : London'))).toBe('25 Nov 2026, 22:55:25 GMT');
    expect(formatDateTime(Date.UTC(2026, 10, 25, 9, 5, 7), paris)).toBe('25 Nov 2026, 10:05:07 GMT+01:00');
  });

  it("without a stored zone, uses the browser's offset and still names it", () => {
    const at = Date.UTC(2026, 10, 25, 22, 55, 25);
    const zone = browserZone(at);
    expect(zone.minutes).toBe(-new Date(at).getTimezoneOffset());
    expect(zone.label).toMatch(/^GMT[+-]\d{2}:\d{2}$/);
    expect(formatDateTime('2026-11-25T22:55:25Z')).toBe(formatDateTime('2026-11-25T22:55:25Z', zone));
    expect(formatDateTime('2026-11-25T22:55:25Z', { minutes: 0, label: 'GMT+00:00' })).toBe('25 Nov 2026, 22:55:25 GMT+00:00');
  });

  it("a time alone and a day alone are the same parts: '23:55:25 GMT+01:00', '25 Nov 2026'", () => {
    expect(formatTime('2026-11-25T22:55:25Z', paris)).toBe('23:55:25 GMT+01:00');
    expect(formatDay('2026-11-25')).toBe('25 Nov 2026');
    expect(formatDay('2026-03-01')).toBe('1 Mar 2026');
  });

  it("an empty or unreadable value reads '–'", () => {
    for (const v of [null, undefined, '', 'not a date']) {
      expect(formatDateTime(v, paris)).toBe('–');
      expect(formatTime(v, paris)).toBe('–');
    }
    expect(formatDay('25/11/2026')).toBe('–');
    expect(formatDay(null)).toBe('–');
  });

  it("the chart's day format (plotly's d3 format) reads the same as formatDay", () => {
    const chart = utcFormat(CHART_DAY_FORMAT);
    for (const day of ['2026-11-25', '2026-03-01', '2026-01-09']) expect(chart(new Date(`${day}T00:00:00Z`))).toBe(formatDay(day));
  });
});
