import { describe, expect, it } from 'vitest';
import { waitBeforeFile } from './midnight-guard';

describe('waitBeforeFile', () => {
  it('lets a file start at once except in the last two minutes of a UTC day', () => {
    expect(waitBeforeFile(Date.parse('2026-11-26T12:00:00Z'))).toBe(0);
    expect(waitBeforeFile(Date.parse('2026-11-26T23:57:59Z'))).toBe(0);
    // From 23:58 the file waits until a second past midnight.
    expect(waitBeforeFile(Date.parse('2026-11-26T23:58:00Z'))).toBe(121_000);
    expect(waitBeforeFile(Date.parse('2026-11-26T23:59:59.500Z'))).toBe(1_500);
    expect(waitBeforeFile(Date.parse('2026-11-27T00:00:00Z'))).toBe(0);
  });
});
