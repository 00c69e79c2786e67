import { describe, expect, it } from 'vitest';
import { dueSlots, scheduleProblem, wallTimeToInstant } from './slots';

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());
const at = (text: string) => new Date(text);

describe('dueSlots', () => {
  it('gives a daily time in the portal zone, within the window only (start excluded, end included)', () => {
    const daily = { task: 'digest', at: { hour: 7, minute: 30 } };
    // 07:30 in Kolkata (+5:30) is 02:00 UTC.
    expect(iso(dueSlots(daily, 'Asia/Kolkata', at('2027-03-09T02:01:00Z'), at('2027-03-10T02:01:00Z')))).toEqual(['2027-03-10T02:00:00.000Z']);
    expect(iso(dueSlots(daily, 'Asia/Kolkata', at('2027-03-09T02:00:00Z'), at('2027-03-10T02:00:00Z')))).toEqual(['2027-03-10T02:00:00.000Z']);
    expect(dueSlots(daily, 'Asia/Kolkata', at('2027-03-10T02:00:00Z'), at('2027-03-10T02:59:00Z'))).toEqual([]);
    expect(iso(dueSlots(daily, 'Asia/Kolkata', at('2027-03-07T00:00:00Z'), at('2027-03-10T00:00:00Z')))).toEqual([
      '2027-03-07T02:00:00.000Z',
      '2027-03-08T02:00:00.000Z',
      '2027-03-09T02:00:00.000Z',
    ]);
    // Midnight in Kolkata is the evening before in UTC.
    expect(iso(dueSlots({ task: 'x', at: { hour: 0, minute: 0 } }, 'Asia/Kolkata', at('2027-03-09T12:00:00Z'), at('2027-03-10T12:00:00Z')))).toEqual([
      '2027-03-09T18:30:00.000Z',
    ]);
    expect(iso(dueSlots(daily, 'UTC', at('2027-03-09T12:00:00Z'), at('2027-03-10T12:00:00Z')))).toEqual(['2027-03-10T07:30:00.000Z']);
  });

  it('keeps a time of day on the wall clock across the changes to and from summer time', () => {
    const daily = { task: 'digest', at: { hour: 7, minute: 30 } };
    // London moves to summer time on 2027-03-28 and back on 2027-10-31.
    expect(iso(dueSlots(daily, 'Europe/London', at('2027-03-26T12:00:00Z'), at('2027-03-29T12:00:00Z')))).toEqual([
      '2027-03-27T07:30:00.000Z',
      '2027-03-28T06:30:00.000Z',
      '2027-03-29T06:30:00.000Z',
    ]);
    expect(iso(dueSlots(daily, 'Europe/London', at('2027-10-29T12:00:00Z'), at('2027-11-01T12:00:00Z')))).toEqual([
      '2027-10-30T06:30:00.000Z',
      '2027-10-31T07:30:00.000Z',
      '2027-11-01T07:30:00.000Z',
    ]);
  });

  it('runs a time the clocks skip once, after the change, and a time they read twice once, the first time', () => {
    // 01:30 does not happen in London on 2027-03-28 (01:00 GMT becomes 02:00 BST): it runs at 02:30 BST.
    const skipped = { task: 'x', at: { hour: 1, minute: 30 } };
    expect(iso(dueSlots(skipped, 'Europe/London', at('2027-03-27T12:00:00Z'), at('2027-03-28T12:00:00Z')))).toEqual(['2027-03-28T01:30:00.000Z']);
    // 01:30 happens twice on 2027-10-31 (02:00 BST becomes 01:00 GMT): the first, 00:30 UTC.
    expect(iso(dueSlots(skipped, 'Europe/London', at('2027-10-30T12:00:00Z'), at('2027-10-31T12:00:00Z')))).toEqual(['2027-10-31T00:30:00.000Z']);
    // New York's changes are at 02:00 local.
    expect(wallTimeToInstant('America/New_York', Date.UTC(2027, 2, 14, 2, 30))).toBe(Date.parse('2027-03-14T07:30:00Z'));
    expect(wallTimeToInstant('America/New_York', Date.UTC(2027, 10, 7, 1, 30))).toBe(Date.parse('2027-11-07T05:30:00Z'));
    // A day of 23 hours still has one 07:30, and a window of 24 hours across it holds one or two.
    const daily = { task: 'x', at: { hour: 7, minute: 30 } };
    expect(dueSlots(daily, 'Europe/London', at('2027-03-27T12:00:00Z'), at('2027-03-28T12:00:00Z'))).toHaveLength(1);
  });

  it('gives a weekly time on its weekday only, 1 being Monday', () => {
    const weekly = { task: 'digest-weekly', at: { hour: 7, minute: 30, weekday: 1 } };
    // 2027-03-08 and 2027-03-15 are Mondays.
    expect(iso(dueSlots(weekly, 'Asia/Kolkata', at('2027-03-01T12:00:00Z'), at('2027-03-16T12:00:00Z')))).toEqual([
      '2027-03-08T02:00:00.000Z',
      '2027-03-15T02:00:00.000Z',
    ]);
    const sunday = { task: 'x', at: { hour: 23, minute: 0, weekday: 7 } };
    // Sunday 23:00 in Kolkata is 17:30 UTC; in Los Angeles it is Monday 07:00 UTC, 06:00 once summer time began (on 2027-03-14).
    expect(iso(dueSlots(sunday, 'Asia/Kolkata', at('2027-03-08T00:00:00Z'), at('2027-03-15T00:00:00Z')))).toEqual(['2027-03-14T17:30:00.000Z']);
    expect(iso(dueSlots(sunday, 'America/Los_Angeles', at('2027-03-08T00:00:00Z'), at('2027-03-16T00:00:00Z')))).toEqual([
      '2027-03-08T07:00:00.000Z',
      '2027-03-15T06:00:00.000Z',
    ]);
  });

  it('gives every N minutes as steps of real time', () => {
    const every = { task: 'register-missing', everyMinutes: 1 };
    expect(iso(dueSlots(every, 'Asia/Kolkata', at('2027-03-10T02:00:30Z'), at('2027-03-10T02:02:10Z')))).toEqual([
      '2027-03-10T02:01:00.000Z',
      '2027-03-10T02:02:00.000Z',
    ]);
    expect(iso(dueSlots({ task: 'x', everyMinutes: 10 }, 'UTC', at('2027-03-10T02:00:00Z'), at('2027-03-10T02:20:00Z')))).toEqual([
      '2027-03-10T02:10:00.000Z',
      '2027-03-10T02:20:00.000Z',
    ]);
  });

  it('refuses a schedule it cannot keep', () => {
    expect(scheduleProblem({ task: 'x', at: { hour: 24, minute: 0 } })).toBe('x: the hour must be 0 to 23, not 24');
    expect(scheduleProblem({ task: 'x', at: { hour: 7, minute: 30, weekday: 0 } })).toBe('x: the weekday must be 1 (Monday) to 7 (Sunday), not 0');
    expect(scheduleProblem({ task: 'x', everyMinutes: 0.5 })).toBe('x: everyMinutes must be a whole number from 1 to 1440, not 0.5');
    expect(() => dueSlots({ task: 'x', at: { hour: 7, minute: 60 } }, 'UTC', new Date(0), new Date(DAY))).toThrow('the minute must be 0 to 59');
  });
});

const DAY = 24 * 3600_000;
