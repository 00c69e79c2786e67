import { formatCalendarDate } from '../../lib/calendar-date';

export { formatDateTime, formatTime } from '../../lib/calendar-date';

/** A `YYYY-MM-DD` date as "Sunday, 22 Nov 2026". */
export function formatLongDate(date: string): string {
  return formatCalendarDate(date, { weekday: 'long', day: 'numeric', month: 'short', year: 'numeric' }, 'en-GB');
}
