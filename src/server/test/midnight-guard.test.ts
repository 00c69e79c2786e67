import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitNearMidnight, waitOutMidnight } from './midnight';

describe('waitNearMidnight', () => {
  it('lets a test start at once except in the last two minutes of a UTC day', () => {
    expect(waitNearMidnight(Date.parse('2026-11-26T12:00:00Z'))).toBe(0);
    expect(waitNearMidnight(Date.parse('2026-11-26T23:57:59Z'))).toBe(0);
    // From 23:58 the test waits until a second past midnight.
    expect(waitNearMidnight(Date.parse('2026-11-26T23:58:00Z'))).toBe(121_000);
    expect(waitNearMidnight(Date.parse('2026-11-26T23:59:59.500Z'))).toBe(1_500);
    expect(waitNearMidnight(Date.parse('2026-11-27T00:00:00Z'))).toBe(0);
  });
});

describe('waitOutMidnight', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('returns at once during the day, and near midnight says how long it waits, then waits that long', async () => {
    vi.useFakeTimers();
    const heard: number[] = [];
    vi.setSystemTime(Date.parse('2026-11-26T12:00:00Z'));
    await waitOutMidnight((ms) => heard.push(ms));
    expect(heard).toEqual([]);

    vi.setSystemTime(Date.parse('2026-11-26T23:59:59.500Z'));
    let done = false;
    const waiting = waitOutMidnight((ms) => heard.push(ms)).then(() => (done = true));
    expect(heard).toEqual([1_500]);
    await vi.advanceTimersByTimeAsync(1_499);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(done).toBe(true);
  });
});
