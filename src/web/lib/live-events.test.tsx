import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLiveEvents } from './live-events';
import { FakeEventSource } from '../test/fake-event-source';


beforeEach(() => {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => vi.unstubAllGlobals());

describe('useLiveEvents', () => {
  it("shares the page's one stream: each listener hears its own events, and the last to leave closes it", () => {
    const heardByBell = vi.fn();
    const heardByReports = vi.fn();
    const reconnectedBell = vi.fn();
    const bell = renderHook(() => useLiveEvents(['notification'], { onEvent: heardByBell, onReconnected: reconnectedBell }));
    const stream = FakeEventSource.instances[0]!;
    act(() => stream.open());
    expect(bell.result.current).toBe('live');

    // A page that listens too joins the stream, already live.
    const reports = renderHook(() => useLiveEvents(['attendance'], { onEvent: heardByReports }));
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(reports.result.current).toBe('live');

    act(() => stream.send('notification', '{}'));
    act(() => stream.send('attendance', '{"class":"CSE3","date":"2026-03-02"}'));
    expect(heardByBell.mock.calls).toEqual([['notification', '{}']]);
    expect(heardByReports.mock.calls).toEqual([['attendance', '{"class":"CSE3","date":"2026-03-02"}']]);

    act(() => stream.fail());
    expect(bell.result.current).toBe('reconnecting');
    expect(reports.result.current).toBe('reconnecting');
    act(() => stream.open());
    expect(reconnectedBell).toHaveBeenCalledTimes(1);

    reports.unmount();
    expect(stream.closed).toBe(false);
    act(() => stream.send('notification', '{}'));
    expect(heardByBell).toHaveBeenCalledTimes(2);
    bell.unmount();
    expect(stream.closed).toBe(true);

    // The next listener opens a new one.
    renderHook(() => useLiveEvents(['notification'], { onEvent: vi.fn() }));
    expect(FakeEventSource.instances).toHaveLength(2);
  });

  it("keeps one connection per stream: a check-in's stream beside the live updates, each hearing its own events", () => {
    const heardByBell = vi.fn();
    const heardByProjector = vi.fn();
    const bell = renderHook(() => useLiveEvents(['notification'], { onEvent: heardByBell }));
    const projector = renderHook(() => useLiveEvents(['checkin'], { onEvent: heardByProjector }, '/api/checkins/c1/events'));
    expect(FakeEventSource.instances.map((source) => source.url)).toEqual(['/api/events', '/api/checkins/c1/events']);
    const [updates, checkin] = FakeEventSource.instances as [FakeEventSource, FakeEventSource];
    act(() => checkin.open());
    expect(projector.result.current).toBe('live');
    expect(bell.result.current).toBe('connecting');

    act(() => checkin.send('checkin', '{"id":"c1"}'));
    act(() => updates.send('notification', '{}'));
    expect(heardByProjector.mock.calls).toEqual([['checkin', '{"id":"c1"}']]);
    expect(heardByBell.mock.calls).toEqual([['notification', '{}']]);

    // A second listener of the check-in shares its connection; the last to leave closes only that one.
    const second = renderHook(() => useLiveEvents(['checkin'], { onEvent: vi.fn() }, '/api/checkins/c1/events'));
    expect(FakeEventSource.instances).toHaveLength(2);
    expect(second.result.current).toBe('live');
    projector.unmount();
    second.unmount();
    expect(checkin.closed).toBe(true);
    expect(updates.closed).toBe(false);
    bell.unmount();
    expect(updates.closed).toBe(true);
  });

  it('says so where the browser has no EventSource, and opens nothing', () => {
    vi.stubGlobal('EventSource', undefined);
    const { result } = renderHook(() => useLiveEvents(['notification'], { onEvent: vi.fn() }));
    expect(result.current).toBe('unsupported');
    expect(FakeEventSource.instances).toHaveLength(0);
  });
});
