import { AttendanceEventSchema, type AttendanceEvent } from '../../../shared/schemas/reports';
import { ChannelHub } from '../../db/channel-hub';
import type { Database } from '../../db/client';
import { ATTENDANCE_CHANNEL } from '../attendance/service';
import { NOTIFICATION_CHANNEL } from '../alerts/service';

export type AttendanceSubscriber = (event: AttendanceEvent) => void;

/** Reads a notification's payload; anything that is not a well-formed event is dropped. */
export function parseAttendanceEvent(payload: string): AttendanceEvent | null {
  try {
    const parsed = AttendanceEventSchema.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The 'attendance' notifications: a register saved. */
export class AttendanceEventHub extends ChannelHub<AttendanceEvent> {
  constructor(database: Pick<Database, 'listen'>, onSubscriberError?: (err: unknown) => void) {
    super(database, ATTENDANCE_CHANNEL, parseAttendanceEvent, onSubscriberError);
  }
}

/** Reads a notice's notification: the account it is for. */
function parseNoticeEvent(payload: string): { userId: string } | null {
  try {
    const value: unknown = JSON.parse(payload);
    return typeof value === 'object' && value !== null && typeof (value as { userId?: unknown }).userId === 'string' ? { userId: (value as { userId: string }).userId } : null;
  } catch {
    return null;
  }
}

/** The 'notifications' notifications: an account got a notice in its bell. */
export class NoticeEventHub extends ChannelHub<{ userId: string }> {
  constructor(database: Pick<Database, 'listen'>, onSubscriberError?: (err: unknown) => void) {
    super(database, NOTIFICATION_CHANNEL, parseNoticeEvent, onSubscriberError);
  }
}
