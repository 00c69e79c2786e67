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

/** A `YYYY-MM-DD` date as "Sunday, 22 Nov 2026". */
export function formatLongDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  // Formatted in UTC so that the calendar date cannot shift with the device's zone.
  return new Intl.DateTimeFormat('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y, m - 1, d)));
}
