import { formatDayDate } from '../../lib/calendar-date';

export { formatDateTime, formatTime } from '../../lib/calendar-date';

/** A register's date, with its weekday (lib/calendar-date.ts). */
export function formatLongDate(date: string): string {
  return formatDayDate(date);
}
