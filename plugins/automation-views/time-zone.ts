/**
 * Times in the user's time zone: the shell's one date-time format (src/app date-time), kept
 * under this plugin's old names.
 */
export { parseZoneOffset, formatDateTime as formatInZone, type ZoneOffset } from '../../src/app';

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
