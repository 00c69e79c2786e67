import { formatCalendarDate } from '../../lib/calendar-date';

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
  return formatCalendarDate(date, { weekday: 'long', day: 'numeric', month: 'short', year: 'numeric' }, 'en-GB');
}
