import { describe, expect, it } from 'vitest';
import { waitNearMidnight } from './midnight';

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
