/** Calendar dates as `YYYY-MM-DD` strings, always in the portal's time zone. */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * True for a real calendar date written as YYYY-MM-DD (2026-02-30 is not one), from the year 100:
 * the helpers below work through Date.UTC, which reads the years 0 to 99 as 1900 to 1999. Checked
 * by arithmetic: every date of an answer passes here, and a Date per check cost more than the rest.
 */
export function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  return year >= 100 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Today's date in the given IANA time zone (the server's zone when none is given). */
export function todayIn(timeZone?: string, now: Date = new Date()): string {
  // A day starts on a whole second in every zone: within one second the answer cannot change,
  // and a busy server asks many times a second (formatting costs more than the rest of a cached answer).
  const second = Math.floor(now.getTime() / 1000);
  const last = lastToday.get(timeZone);
  if (last?.second === second) return last.date;
  const date = isoDateFormat(timeZone).format(now);
  lastToday.set(timeZone, { second, date });
  return date;
}

/** The last date todayIn gave per time zone, and the second it was for. */
const lastToday = new Map<string | undefined, { second: number; date: string }>();

/** One formatter per time zone: making one costs far more than formatting (every request asks). */
const isoDateFormats = new Map<string | undefined, Intl.DateTimeFormat>();

function isoDateFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  let format = isoDateFormats.get(timeZone);
  if (!format) {
    // en-CA formats as YYYY-MM-DD. A zone Intl does not know throws here, as before, and is not kept.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    isoDateFormats.set(timeZone, format);
  }
  return format;
}

/** The date `days` days after `date` (negative to go back). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const shifted = new Date(Date.UTC(y, m - 1, d + days));
  return shifted.toISOString().slice(0, 10);
}

/** Every date from `from` to `to`, both included, oldest first (none when `to` comes first). */
export function eachDate(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) dates.push(date);
  return dates;
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  const toUtc = (s: string) => {
    const [y, m, d] = s.split('-').map(Number) as [number, number, number];
    return Date.UTC(y, m - 1, d);
  };
  return Math.round((toUtc(to) - toUtc(from)) / 86_400_000);
}
