import { dateLocale } from '../i18n/i18n';

/**
 * Every date and time the portal shows, in one format (decision 16: one way to say each thing):
 * Intl's medium date in the reader's locale ("24 Nov 2026" in Britain, "Nov 24, 2026" in the
 * United States), with the weekday where a page is about one day, with the time where an
 * instant matters, and the day and month alone on chart axes. The locale is the language's
 * (docs/i18n.md): in Hindi and Telugu their own month and day names; in English the browser's.
 *
 * Calendar dates (`YYYY-MM-DD`, a day in the portal's zone) are built at noon UTC and formatted
 * in UTC, so the day shown never shifts with the device's time zone. Instants from the API are
 * read as wall-clock times of the portal's zone, the zone the registers are taken in, whatever
 * zone the reader's device is in.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * One formatter per locale, options and zone: making one costs far more than formatting with it.
 * The locale is read at each call, so a change of language shows in the next render.
 */
function formatter(options: Intl.DateTimeFormatOptions, locale = dateLocale()): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

/** A `YYYY-MM-DD` calendar date with any Intl options; what is not a date is given back as it is. */
export function formatCalendarDate(isoDate: string, options: Intl.DateTimeFormatOptions, locale?: string): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  if (!year || !month || !day) return isoDate;
  return formatter({ ...options, timeZone: 'UTC' }, locale ?? dateLocale()).format(new Date(Date.UTC(year, month - 1, day, 12)));
}

/** The portal's date: "24 Nov 2026" (en-GB). Tables, terms, lists. */
export function formatDate(isoDate: string): string {
  return formatCalendarDate(isoDate, { day: 'numeric', month: 'short', year: 'numeric' });
}

/** The date of a page about one day, with its weekday: "Tuesday 24 Nov 2026" (en-GB). */
export function formatDayDate(isoDate: string, weekday: 'long' | 'short' = 'long'): string {
  return formatCalendarDate(isoDate, { weekday, day: 'numeric', month: 'short', year: 'numeric' });
}

/** Day and month only, where the year is plain (chart axes): "24 Nov" (en-GB). */
export function formatDayMonth(isoDate: string): string {
  return formatCalendarDate(isoDate, { day: 'numeric', month: 'short' });
}

/** An instant in the portal's zone: "24 Nov 2026, 09:05" (en-GB). */
export function formatDateTime(iso: string, timeZone: string | undefined): string {
  return formatter({ day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone }).format(new Date(iso));
}

/** The wall-clock time of an instant in the portal's zone: "09:05" (en-GB). */
export function formatTime(iso: string, timeZone: string | undefined): string {
  return formatter({ hour: '2-digit', minute: '2-digit', timeZone }).format(new Date(iso));
}

/** The date pickers' text, in the same format (Mantine's `valueFormatter`; a single date). */
export function formatPickerDate({ date }: { date: unknown }): string {
  return typeof date === 'string' && date.length >= 10 ? formatDate(date.slice(0, 10)) : '';
}
