import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, isIsoDate, isWithinWindow, todayIn } from './dates';

describe('isIsoDate', () => {
  it('accepts real dates and refuses impossible or malformed ones', () => {
    expect(isIsoDate('2026-11-22')).toBe(true);
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('22-11-2026')).toBe(false);
    expect(isIsoDate('2026-11-22T00:00')).toBe(false);
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
});

describe('isWithinWindow', () => {
  const today = '2026-11-22';
  it('holds today to today-6 in a 7-day window', () => {
    expect(isWithinWindow(today, today, 7)).toBe(true);
    expect(isWithinWindow(addDays(today, -6), today, 7)).toBe(true);
    expect(isWithinWindow(addDays(today, -7), today, 7)).toBe(false);
  });
  it('holds today-29 but not today-30 in a 30-day window, and never a future date', () => {
    expect(isWithinWindow(addDays(today, -29), today, 30)).toBe(true);
    expect(isWithinWindow(addDays(today, -30), today, 30)).toBe(false);
    expect(isWithinWindow(addDays(today, 1), today, 30)).toBe(false);
  });
});
