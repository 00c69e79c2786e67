import { numberLocale } from '../../i18n/i18n';
import { formatDayDate } from '../../lib/calendar-date';

export { formatDateTime, formatTime } from '../../lib/calendar-date';

/** A register's date, with its weekday (lib/calendar-date.ts). */
export function formatLongDate(date: string): string {
  return formatDayDate(date);
}

/** A count, as the language shown writes numbers. */
export function formatCount(count: number): string {
  return new Intl.NumberFormat(numberLocale()).format(count);
}

/** A share out of 100, whole: "67%", as the language shown writes it. */
export function formatPercent(percentage: number): string {
  return new Intl.NumberFormat(numberLocale(), { style: 'percent', maximumFractionDigits: 0 }).format(Math.round(percentage) / 100);
}
