import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, eachDate, isIsoDate, todayIn } from './dates';

describe('isIsoDate', () => {
  it('accepts real dates and refuses impossible or malformed ones', () => {
    expect(isIsoDate('2026-11-22')).toBe(true);
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('22-11-2026')).toBe(false);
    expect(isIsoDate('2026-11-22T00:00')).toBe(false);
    expect(isIsoDate('2000-02-29')).toBe(true);
    expect(isIsoDate('1900-02-29')).toBe(false);
    expect(isIsoDate('2026-04-31')).toBe(false);
    expect(isIsoDate('2026-12-31')).toBe(true);
    expect(isIsoDate('2026-11-00')).toBe(false);
    expect(isIsoDate('2026-00-10')).toBe(false);
  });

  it('agrees with the calendar on every day of four hundred years, and refuses the years before 100', () => {
    for (let day = Date.UTC(1900, 0, 1); day < Date.UTC(2300, 0, 1); day += 86_400_000) {
      const date = new Date(day).toISOString().slice(0, 10);
      expect(isIsoDate(date)).toBe(true);
      // The next day number in the same month exists only when the calendar has it.
      const [y, m, d] = date.split('-').map(Number) as [number, number, number];
      const next = `${date.slice(0, 8)}${String(d + 1).padStart(2, '0')}`;
      expect(isIsoDate(next)).toBe(new Date(Date.UTC(y, m - 1, d + 1)).getUTCMonth() === m - 1);
    }
    expect(isIsoDate('0099-12-31')).toBe(false);
    expect(isIsoDate('0000-01-01')).toBe(false);
    expect(isIsoDate('0100-01-01')).toBe(true);
  });
});

describe('todayIn', () => {
  it('gives the calendar date in the requested zone', () => {
    const instant = new Date('2026-11-22T20:00:00Z');
    expect(todayIn('UTC', instant)).toBe('2026-11-22');
    expect(todayIn('Asia/Kolkata', instant)).toBe('2026-11-23');
    expect(todayIn('America/New_York', instant)).toBe('2026-11-22');
  });

  it('turns at midnight, asked again and again around it', () => {
    const before = new Date('2026-11-22T23:59:59.999Z');
    expect(todayIn('UTC', before)).toBe('2026-11-22');
    expect(todayIn('UTC', new Date('2026-11-22T23:59:59.000Z'))).toBe('2026-11-22');
    expect(todayIn('UTC', new Date('2026-11-23T00:00:00.000Z'))).toBe('2026-11-23');
    expect(todayIn('UTC', before)).toBe('2026-11-22');
    expect(todayIn('Asia/Kolkata', new Date('2026-11-22T18:29:59.999Z'))).toBe('2026-11-22');
    expect(todayIn('Asia/Kolkata', new Date('2026-11-22T18:30:00.000Z'))).toBe('2026-11-23');
  });
});

describe('addDays and daysBetween', () => {
  it('crosses month and year ends', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysBetween('2026-11-16', '2026-11-22')).toBe(6);
  });

  it('lists every date of a range, across month and year ends', () => {
    expect(eachDate('2026-12-30', '2027-01-02')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02']);
    expect(eachDate('2024-02-28', '2024-03-01')).toEqual(['2024-02-28', '2024-02-29', '2024-03-01']);
    expect(eachDate('2026-11-22', '2026-11-22')).toEqual(['2026-11-22']);
    expect(eachDate('2026-11-22', '2026-11-21')).toEqual([]);
  });
});
