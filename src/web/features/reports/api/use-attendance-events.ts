import { useEffect, useRef, useState } from 'react';
import { ATTENDANCE_EVENT, AttendanceEventSchema, type AttendanceEvent } from '../../../../shared/schemas/reports';

export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'unsupported';

interface Handlers {
  /** A register was saved somewhere (any server process). */
  onAttendance: (event: AttendanceEvent) => void;
  /** The stream is back after a break: saves made meanwhile were not heard. */
  onReconnected: () => void;
}

/** Longest wait between attempts once the browser has given up reconnecting by itself. */
const MAX_BACKOFF_MS = 30_000;
const FIRST_BACKOFF_MS = 2_000;

/**
 * Listens to GET /api/events. The browser's EventSource reconnects by itself after a network
 * error or a server restart; it gives up only when an answer is not a stream (a proxy's 502
 * while the server restarts, or a 401), and then this hook opens a new one with a growing delay.
 */
export function useAttendanceEvents(handlers: Handlers): LiveState {
  const [state, setState] = useState<LiveState>(() => (typeof EventSource === 'undefined' ? 'unsupported' : 'connecting'));
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let retryTimer: number | undefined;
    let backoff = FIRST_BACKOFF_MS;
    let broken = false;
    let stopped = false;

    const onAttendance = (message: MessageEvent<string>) => {
      try {
        const parsed = AttendanceEventSchema.safeParse(JSON.parse(message.data));
        if (parsed.success) latest.current.onAttendance(parsed.data);
      } catch {
        // Not JSON: nothing to act on.
      }
    };

    const connect = () => {
      const current = new EventSource('/api/events');
      source = current;
      current.addEventListener(ATTENDANCE_EVENT, onAttendance);
      current.addEventListener('open', () => {
        backoff = FIRST_BACKOFF_MS;
        setState('live');
        if (broken) latest.current.onReconnected();
        broken = false;
      });
      current.addEventListener('error', () => {
        broken = true;
        setState('reconnecting');
        if (current.readyState !== EventSource.CLOSED || stopped) return;
        // The browser gave up on this one: try again later with a new connection.
        current.close();
        retryTimer = window.setTimeout(connect, backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      });
    };

    connect();
    return () => {
      stopped = true;
      window.clearTimeout(retryTimer);
      source?.close();
    };
  }, []);

  return state;
}
