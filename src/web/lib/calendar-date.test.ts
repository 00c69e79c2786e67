import { describe, expect, it } from 'vitest';
import { formatCalendarDate } from './calendar-date';

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
