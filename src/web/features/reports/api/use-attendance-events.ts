import { ATTENDANCE_EVENT, AttendanceEventSchema, type AttendanceEvent } from '../../../../shared/schemas/reports';
import { useLiveEvents, type LiveState } from '../../../lib/live-events';

export type { LiveState } from '../../../lib/live-events';

interface Handlers {
  /** A register was saved somewhere (any server process). */
  onAttendance: (event: AttendanceEvent) => void;
  /** The stream is back after a break: saves made meanwhile were not heard. */
  onReconnected: () => void;
}

const NAMES = [ATTENDANCE_EVENT];

/**
 * Hears each saved register from GET /api/events, over the page's one connection to it (shared
 * with the header's bell: lib/live-events.ts, which also reconnects).
 */
export function useAttendanceEvents(handlers: Handlers): LiveState {
  return useLiveEvents(NAMES, {
    onEvent: (_name, data) => {
      try {
        const parsed = AttendanceEventSchema.safeParse(JSON.parse(data));
        if (parsed.success) handlers.onAttendance(parsed.data);
      } catch {
        // Not JSON: nothing to act on.
      }
    },
    onReconnected: () => handlers.onReconnected(),
  });
}
