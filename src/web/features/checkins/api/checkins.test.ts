import { describe, expect, it } from 'vitest';
import type { Checkin } from '../../../../shared/schemas/checkins';
import { timeLeft } from '../pages/projector-page';
import { LIST_POLL_MS, nextPollMs } from './checkins';

const now = Date.parse('2026-11-24T09:00:00.000Z');
const checkin = (slotEndsInMs: number, state: Checkin['state'] = 'open') =>
  ({
    state,
    code: state === 'open' ? { token: 't', url: 'http://portal/c/t', typedCode: 'ABCDEF', slotEndsAt: new Date(now + slotEndsInMs).toISOString() } : null,
  }) as Checkin;

describe("the projector's polling", () => {
  it('asks at the end of the code (a little after), or every few seconds for the list, whichever is first', () => {
    expect(nextPollMs(checkin(1_000), now)).toBe(1_100);
    expect(nextPollMs(checkin(9_000), now)).toBe(LIST_POLL_MS);
    expect(nextPollMs(checkin(-5_000), now)).toBe(250);
    expect(nextPollMs(undefined, now)).toBe(LIST_POLL_MS);
  });

  it('stops once the check-in is closed', () => {
    expect(nextPollMs(checkin(0, 'closed'), now)).toBe(false);
  });

  it('counts the time left down to 0:00', () => {
    expect(timeLeft(new Date(now + 600_000).toISOString(), now)).toBe('10:00');
    expect(timeLeft(new Date(now + 61_500).toISOString(), now)).toBe('1:02');
    expect(timeLeft(new Date(now - 1_000).toISOString(), now)).toBe('0:00');
  });
});
