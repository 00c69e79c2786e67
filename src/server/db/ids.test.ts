import { describe, expect, it } from 'vitest';
import { isUuid, timeOrderedUuid } from './ids';

describe('time-ordered ids', () => {
  it('are version 7 UUIDs that sort as their times do, and differ within one millisecond', () => {
    const at = Date.UTC(2026, 10, 28, 9, 0, 0);
    const ids = [timeOrderedUuid(at), timeOrderedUuid(at + 1), timeOrderedUuid(at + 60_000), timeOrderedUuid(at + 86_400_000)];
    for (const id of ids) {
      expect(isUuid(id)).toBe(true);
      expect(id[14]).toBe('7');
      expect('89ab').toContain(id[19]);
    }
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]!.replaceAll('-', '').slice(0, 12)).toBe(at.toString(16).padStart(12, '0'));
    expect(timeOrderedUuid(at)).not.toBe(timeOrderedUuid(at));
  });
});
