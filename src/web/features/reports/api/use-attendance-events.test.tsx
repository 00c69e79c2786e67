import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAttendanceEvents } from './use-attendance-events';
import { FakeEventSource } from '../../../test/fake-event-source';


const latest = () => FakeEventSource.instances.at(-1)!;

beforeEach(() => {
  FakeEventSource.instances = [];
  vi.useFakeTimers();
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('useAttendanceEvents', () => {
  it('opens /api/events, reports each saved register, and closes on unmount', () => {
    const onAttendance = vi.fn();
    const { result, unmount } = renderHook(() => useAttendanceEvents({ onAttendance, onReconnected: vi.fn() }));
    expect(result.current).toBe('connecting');
    expect(latest().url).toBe('/api/events');
    act(() => latest().open());
    expect(result.current).toBe('live');

    act(() => latest().send('attendance', '{"class":"CSE3","date":"2026-03-02"}'));
    act(() => latest().send('attendance', 'not json'));
    act(() => latest().send('attendance', '{"class":"CSE3"}'));
    expect(onAttendance).toHaveBeenCalledTimes(1);
    expect(onAttendance).toHaveBeenCalledWith({ class: 'CSE3', date: '2026-03-02' });

    unmount();
    expect(latest().closed).toBe(true);
  });

  it('after the browser reconnects by itself, asks for a refresh of what was missed', () => {
    const onReconnected = vi.fn();
    const { result } = renderHook(() => useAttendanceEvents({ onAttendance: vi.fn(), onReconnected }));
    act(() => latest().open());
    expect(onReconnected).not.toHaveBeenCalled();
    act(() => latest().fail(false));
    expect(result.current).toBe('reconnecting');
    act(() => latest().open());
    expect(result.current).toBe('live');
    expect(onReconnected).toHaveBeenCalledTimes(1);
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it('opens a new connection, later and later, when the browser gives up (e.g. a 502 during a restart)', () => {
    const onReconnected = vi.fn();
    renderHook(() => useAttendanceEvents({ onAttendance: vi.fn(), onReconnected }));
    act(() => latest().open());
    act(() => latest().fail(true));
    expect(FakeEventSource.instances[0]!.closed).toBe(true);
    act(() => vi.advanceTimersByTime(1999));
    expect(FakeEventSource.instances).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(FakeEventSource.instances).toHaveLength(2);

    act(() => latest().fail(true));
    act(() => vi.advanceTimersByTime(3999));
    expect(FakeEventSource.instances).toHaveLength(2);
    act(() => vi.advanceTimersByTime(1));
    expect(FakeEventSource.instances).toHaveLength(3);

    act(() => latest().open());
    expect(onReconnected).toHaveBeenCalledTimes(1);
  });

  it('stops retrying once the page is left', () => {
    const { unmount } = renderHook(() => useAttendanceEvents({ onAttendance: vi.fn(), onReconnected: vi.fn() }));
    act(() => latest().fail(true));
    unmount();
    act(() => vi.advanceTimersByTime(60_000));
    expect(FakeEventSource.instances).toHaveLength(1);
  });
});
