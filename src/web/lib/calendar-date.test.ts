import { describe, expect, it } from 'vitest';
import { formatCalendarDate, formatDate, formatDateTime, formatDayDate, formatDayMonth, formatTime } from './calendar-date';

describe('formatCalendarDate', () => {
  it('shows the calendar day itself, at the edges of the year too', () => {
    expect(formatCalendarDate('2026-03-02', { day: 'numeric', month: 'short' }, 'en-GB')).toBe('2 Mar');
    expect(formatCalendarDate('2026-01-01', { weekday: 'long', day: 'numeric', month: 'short', year: 'numeric' }, 'en-GB')).toBe(
      'Thursday, 1 Jan 2026',
    );
    expect(formatCalendarDate('2025-12-31', { day: 'numeric', month: 'short', year: 'numeric' }, 'en-GB')).toBe('31 Dec 2025');
  });

  it('gives back what is not a date as it is', () => {
    expect(formatCalendarDate('not a date', { dateStyle: 'medium' })).toBe('not a date');
  });
});

describe('the portal\'s one date format', () => {
  // The reader's locale decides the order and the words; the tests read it as Intl does.
  const locale = new Intl.DateTimeFormat().resolvedOptions().locale;
  const medium = (date: Date) => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(date);

  it('is Intl\'s medium date in the reader\'s locale, with the weekday or the time where asked', () => {
    const day = new Date(Date.UTC(2026, 10, 24, 12));
    expect(formatDate('2026-11-24')).toBe(medium(day));
    expect(formatDayDate('2026-11-24')).toContain('Tuesday');
    expect(formatDayDate('2026-11-24', 'short')).toContain('Tue');
    expect(formatDayMonth('2026-11-24')).not.toContain('2026');
    // Instants in the portal's zone: 23:30 UTC is already the next day in Kolkata.
    expect(formatDateTime('2026-11-24T23:30:00Z', 'Asia/Kolkata')).toContain(medium(new Date(Date.UTC(2026, 10, 25, 12))));
    expect(formatTime('2026-11-24T23:30:00Z', 'Asia/Kolkata')).toMatch(/05:00|5:00/);
  });
});
