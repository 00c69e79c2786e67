import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBurst, invalidateTouched } from './live-refresh';
import { reportKeys } from './query-keys';

describe('createBurst', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('hands a burst over once, 2 s after its first item, with every item of it', () => {
    const flushes: number[][] = [];
    const burst = createBurst<number>(2_000, (items) => flushes.push(items));
    burst.push(1);
    vi.advanceTimersByTime(1_000);
    burst.push(2);
    burst.push(3);
    expect(flushes).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(flushes).toEqual([[1, 2, 3]]);
    // The next save starts a new window: at most one flush per 2 s, and the last save is never lost.
    burst.push(4);
    vi.advanceTimersByTime(1_999);
    expect(flushes).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(flushes).toEqual([[1, 2, 3], [4]]);
  });

  it('drops what is pending when cancelled (the page has closed)', () => {
    const flush = vi.fn();
    const burst = createBurst<number>(2_000, flush);
    burst.push(1);
    burst.cancel();
    vi.advanceTimersByTime(5_000);
    expect(flush).not.toHaveBeenCalled();
  });
});

describe('invalidateTouched', () => {
  it('marks stale the dashboards, the lists of the saved classes or of all, and the records seen in them; nothing else', async () => {
    const client = new QueryClient();
    const record = (classes: string[]) => ({ history: classes.map((className) => ({ class: className })) });
    const seed: [readonly unknown[], unknown][] = [
      [reportKeys.dashboard(null), {}],
      [reportKeys.students(null, 75, null), []],
      [reportKeys.students('CSE1', 75, null), []],
      [reportKeys.students('CSE2', 75, null), []],
      [reportKeys.subjects('CSE1', null), []],
      [reportKeys.subjects('CSE2', null), []],
      [['students', 'P1', { term: null }], record(['CSE1'])],
      [['students', 'P2', { term: null }], record(['CSE2'])],
      [['students', 'P3', { term: null }], record([])],
    ];
    for (const [key, data] of seed) client.setQueryData(key, data);
    await invalidateTouched(client, [{ class: 'CSE1', date: '2026-03-02', period: 0 }]);
    const stale = seed.filter(([key]) => client.getQueryState(key)?.isInvalidated).map(([key]) => JSON.stringify(key));
    expect(stale).toEqual([
      JSON.stringify(reportKeys.dashboard(null)),
      JSON.stringify(reportKeys.students(null, 75, null)),
      JSON.stringify(reportKeys.students('CSE1', 75, null)),
      JSON.stringify(reportKeys.subjects('CSE1', null)),
      JSON.stringify(['students', 'P1', { term: null }]),
      JSON.stringify(['students', 'P3', { term: null }]),
    ]);
  });
});
