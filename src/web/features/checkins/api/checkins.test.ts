import { describe, expect, it } from 'vitest';
import type { Checkin } from '../../../../shared/schemas/checkins';
import { timeLeft } from '../pages/projector-page';
import { LIST_FALLBACK_POLL_MS, nextPollMs, withList } from './checkins';

const now = Date.parse('2026-11-24T09:00:00.000Z');
const checkin = (slotEndsInMs: number, state: Checkin['state'] = 'open') =>
  ({
    state,
    code: state === 'open' ? { token: 't', url: 'http://portal/c/t', typedCode: 'ABCDEF', slotEndsAt: new Date(now + slotEndsInMs).toISOString() } : null,
  }) as Checkin;

describe("the projector's polling", () => {
  it('asks at the end of the code (a little after), whatever the stream does: the next code comes with the list', () => {
    expect(nextPollMs(checkin(1_000), now, 'live')).toBe(1_100);
    expect(nextPollMs(checkin(9_000), now, 'live')).toBe(9_100);
    expect(nextPollMs(checkin(9_000), now, 'reconnecting')).toBe(9_100);
    expect(nextPollMs(checkin(-5_000), now, 'live')).toBe(250);
  });

  it('asks for a closed check-in only while its stream is down, every 30 seconds', () => {
    expect(nextPollMs(checkin(0, 'closed'), now, 'live')).toBe(false);
    for (const state of ['connecting', 'reconnecting', 'unsupported'] as const) {
      expect(nextPollMs(checkin(0, 'closed'), now, state)).toBe(LIST_FALLBACK_POLL_MS);
    }
    expect(nextPollMs(undefined, now, 'live')).toBe(LIST_FALLBACK_POLL_MS);
  });

  it("takes a list from the stream into the check-in shown, keeping the code until it closes; another check-in's list changes nothing", () => {
    const shown = { ...checkin(5_000), id: 'a', checkedIn: 0 } as Checkin;
    const { code: _code, ...list } = { ...shown, checkedIn: 1 };
    expect(withList(shown, list)).toEqual({ ...shown, checkedIn: 1 });
    expect(withList(shown, { ...list, state: 'closed' })).toEqual({ ...shown, checkedIn: 1, state: 'closed', code: null });
    expect(withList(shown, { ...list, id: 'b' })).toBe(shown);
    expect(withList(undefined, list)).toBeUndefined();
  });

  it('counts the time left down to 0:00', () => {
    expect(timeLeft(new Date(now + 600_000).toISOString(), now)).toBe('10:00');
    expect(timeLeft(new Date(now + 61_500).toISOString(), now)).toBe('1:02');
    expect(timeLeft(new Date(now - 1_000).toISOString(), now)).toBe('0:00');
  });
});
