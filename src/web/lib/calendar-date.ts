/**
 * A `YYYY-MM-DD` calendar date (a day in the portal's zone) as text. Built at noon UTC and
 * formatted in UTC, so the day shown never shifts with the device's time zone.
 */
export function formatCalendarDate(isoDate: string, options: Intl.DateTimeFormatOptions, locale?: string): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  if (!year || !month || !day) return isoDate;
  return new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(new Date(Date.UTC(year, month - 1, day, 12)));
}
