/**
 * The one way the screens show a date or a time (issue 25: one date-time format per screen).
 * Every date-time reads '25 Nov 2026, 23:55:25 GMT+01:00' in the user's time zone: the offset of
 * the label the account stores in browser storage under 'time_zone' ('(GMT+01:00) Europe/Paris',
 * spec: recipe timestamps are shown in the user's stored time zone offset), or the browser's own
 * zone when the account names none. A day alone reads '25 Nov 2026', a time alone
 * '23:55:25 GMT+01:00': the same parts in the same order, so two of them on one screen agree.
 */
import { useMemo } from 'react';
import { useService } from './hooks';
import { Storage } from './tokens';

/** The format's language: English day-month-year with a 24-hour clock, unambiguous in any region. */
export const DATE_TIME_LOCALE = 'en-GB';

/** The same day format for a chart (plotly's d3 time format): '25 Nov 2026'. */
export const CHART_DAY_FORMAT = '%-d %b %Y';

const OFFSET = /(?:GMT|UTC)\s*([+-−])\s*(\d{1,2})(?::?(\d{2}))?/i;

/** A fixed offset from UTC, in minutes, and its label ('GMT+01:00'). */
export interface ZoneOffset {
  minutes: number;
  label: string;
}

function zoneOf(minutes: number): ZoneOffset {
  const abs = Math.abs(minutes);
  const sign = minutes < 0 ? '-' : '+';
  return { minutes, label: `GMT${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}` };
}

/**
 * The offset of a stored time-zone label; '(GMT)' or 'GMT' alone is UTC. Undefined when the
 * label names no offset (the browser's zone is used then).
 */
export function parseZoneOffset(label: string | null | undefined): ZoneOffset | undefined {
  if (!label) return undefined;
  const m = OFFSET.exec(label);
  if (!m) return /\b(GMT|UTC)\b/i.test(label) ? { minutes: 0, label: 'GMT' } : undefined;
  const hours = Number(m[2]);
  const mins = Number(m[3] ?? '0');
  if (hours > 14 || mins > 59) return undefined;
  const sign = m[1] === '+' ? 1 : -1;
  return zoneOf(sign * (hours * 60 + mins));
}

/** The browser's own offset at a moment (used when the account stores no zone). */
export function browserZone(at: number): ZoneOffset {
  return zoneOf(-new Date(at).getTimezoneOffset());
}

const DAY: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' };
const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false, timeZone: 'UTC' };

/** The moment shifted by the zone, so formatting it at UTC reads the zone's wall clock; undefined when unreadable. */
function shifted(iso: string | number | Date | null | undefined, zone: ZoneOffset | undefined): { at: Date; zone: ZoneOffset } | undefined {
  if (iso === null || iso === undefined || iso === '') return undefined;
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return undefined;
  const z = zone ?? browserZone(t);
  return { at: new Date(t + z.minutes * 60_000), zone: z };
}

/** '25 Nov 2026, 23:55:25 GMT+01:00'; an empty or unreadable time reads '–'. */
export function formatDateTime(iso: string | number | Date | null | undefined, zone?: ZoneOffset): string {
  const s = shifted(iso, zone);
  if (!s) return '–';
  return `${s.at.toLocaleDateString(DATE_TIME_LOCALE, DAY)}, ${s.at.toLocaleTimeString(DATE_TIME_LOCALE, TIME)} ${s.zone.label}`;
}

/** '23:55:25 GMT+01:00' (for a time of today beside other date-times); unreadable reads '–'. */
export function formatTime(iso: string | number | Date | null | undefined, zone?: ZoneOffset): string {
  const s = shifted(iso, zone);
  if (!s) return '–';
  return `${s.at.toLocaleTimeString(DATE_TIME_LOCALE, TIME)} ${s.zone.label}`;
}

/**
 * A calendar day ('2026-11-25', as the monitoring records name theirs) as '25 Nov 2026'. A day has
 * no time zone, so it is read as it is written; unreadable reads '–'.
 */
export function formatDay(day: string | null | undefined): string {
  if (!day) return '–';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  const t = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  return Number.isNaN(t) ? '–' : new Date(t).toLocaleDateString(DATE_TIME_LOCALE, DAY);
}

/** The user's time zone offset, from browser storage key 'time_zone' ('(GMT+01:00) Europe/Paris'). */
export function useUserZone(): ZoneOffset | undefined {
  const storage = useService(Storage);
  const label = storage.getItem('time_zone');
  return useMemo(() => parseZoneOffset(label), [label]);
}

/** The formatters bound to the user's time zone: `const { dateTime } = useDateTime(); dateTime(job.started_at)`. */
export function useDateTime(): {
  zone: ZoneOffset | undefined;
  dateTime: (iso: string | number | Date | null | undefined) => string;
  time: (iso: string | number | Date | null | undefined) => string;
} {
  const zone = useUserZone();
  return useMemo(() => ({ zone, dateTime: (iso) => formatDateTime(iso, zone), time: (iso) => formatTime(iso, zone) }), [zone]);
}
