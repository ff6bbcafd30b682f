/**
 * Times in the user's time zone. The account stores its choice in browser storage under
 * 'time_zone' as a label such as '(GMT+01:00) Europe/Paris'; the screens use its offset, so a
 * time reads the same whatever the browser's own zone is.
 */

const OFFSET = /(?:GMT|UTC)\s*([+-−])\s*(\d{1,2})(?::?(\d{2}))?/i;

/** A fixed offset from UTC, in minutes, and its label ('GMT+01:00'). */
export interface ZoneOffset {
  minutes: number;
  label: string;
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
  const minutes = sign * (hours * 60 + mins);
  return { minutes, label: `GMT${sign > 0 ? '+' : '-'}${String(hours).padStart(2, '0')}:${String(mins).padStart(2, '0')}` };
}

/**
 * Formats an ISO time as '22 Nov 2026, 14:05:09 GMT+01:00' in the given offset, or in the
 * browser's zone without one. An empty or unreadable time reads '–'.
 */
export function formatInZone(iso: string | null | undefined, zone: ZoneOffset | undefined): string {
  if (!iso) return '–';
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return '–';
  const opts: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false };
  if (!zone) return new Date(t).toLocaleString('en-GB', opts);
  const shifted = new Date(t + zone.minutes * 60_000);
  return `${shifted.toLocaleString('en-GB', { ...opts, timeZone: 'UTC' })} ${zone.label}`;
}

/** A duration in ms as '850 ms', '12.4 s' or '3 min 5 s'; unknown reads '–'. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h ? `${h} h ${m} min` : `${m} min ${s} s`;
}
