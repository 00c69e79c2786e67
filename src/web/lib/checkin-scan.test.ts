import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { outcomeInWords, resultAddress } from './checkin-scan';
import { canSign, signCheckin, signedText } from './device-key';

const result = { checkinId: 'c1', class: 'CSE3', date: '2026-11-24', period: 2, subject: null, status: 'present', at: '2026-11-24T09:05:00.000Z', markKept: false } as const;

describe('a scan in words', () => {
  it('says the class, the period and the mark', () => {
    expect(outcomeInWords(result)).toBe('You are checked in to CSE3, period 2: present');
    expect(outcomeInWords({ ...result, period: 0, status: 'late' })).toBe('You are checked in to CSE3 for the day: late');
    expect(outcomeInWords({ ...result, status: 'excused', markKept: true })).toBe('You are checked in to CSE3, period 2. Your teacher had already marked you: excused.');
  });

  it("the result page's address: the mark, or the refusal's message", () => {
    expect(resultAddress(result)).toBe('/checkin-result?status=present&class=CSE3&period=2');
    expect(resultAddress({ ...result, markKept: true })).toBe('/checkin-result?status=present&class=CSE3&period=2&kept=true');
    expect(resultAddress(new ApiError(409, 'This check-in is closed'))).toBe('/checkin-result?error=This+check-in+is+closed');
  });
});

describe("the device's signature", () => {
  it('covers the subject and the time, as the server reads them', () => {
    expect(signedText('ABCDEF', 1_700_000_000_000)).toBe('portal-checkin\nABCDEF\n1700000000000');
  });

  it('is left out where the browser cannot keep a key (no IndexedDB here): the scan goes without one', async () => {
    expect(typeof indexedDB).toBe('undefined');
    expect(canSign()).toBe(false);
    await expect(signCheckin('pending')).resolves.toBeUndefined();
  });
});
