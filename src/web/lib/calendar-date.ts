/**
 * A `YYYY-MM-DD` calendar date (a day in the portal's zone) as text. Built at noon UTC and
 * formatted in UTC, so the day shown never shifts with the device's time zone.
 */
export function formatCalendarDate(isoDate: string, options: Intl.DateTimeFormatOptions, locale?: string): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  if (!year || !month || !day) return isoDate;
  return new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(new Date(Date.UTC(year, month - 1, day, 12)));
}

/**
 * Times from the API are instants; faculty read them as wall-clock times of the portal's zone,
 * the zone in which the register's date was taken, whatever zone their own device is in.
 */
export function formatDateTime(iso: string, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).format(new Date(iso));
}

/** The wall-clock time of an instant in the portal's zone, as "09:05". */
export function formatTime(iso: string, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(new Date(iso));
}
