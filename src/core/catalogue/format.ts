/**
 * Dates on cards are shown in long format, e.g. 'November 22, 2026'. Catalogue timestamps are
 * calendar dates, so they are read in UTC: the same day shows wherever the browser is.
 */
export function formatLongDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}
