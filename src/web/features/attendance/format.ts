import { formatPercent as formatWholePercent } from '../../lib/numbers';
import { formatDayDate } from '../../lib/calendar-date';

export { formatDateTime, formatTime } from '../../lib/calendar-date';

/** A register's date, with its weekday (lib/calendar-date.ts). */
export function formatLongDate(date: string): string {
  return formatDayDate(date);
}

export { formatCount } from '../../lib/numbers';

/** A share out of 100, whole: "67%", as the language shown writes it. */
export function formatPercent(percentage: number): string {
  return formatWholePercent(Math.round(percentage), 0);
}
