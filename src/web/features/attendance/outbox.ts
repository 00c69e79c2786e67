import { attends, countMarks, type MarkStatus } from '../../../shared/attendance-rules';
import { RegisterConflictSchema, type AttendanceRegister, type SaveAttendanceBody } from '../../../shared/schemas/attendance';
import { AttendanceRegisterSchema } from '../../../shared/schemas/attendance';
import { ApiError, api } from '../../lib/api-client';
import type { OfflineStore, QueuedSave } from '../../lib/offline-store';
import { periodQuery, segment } from './api/query-keys';

/**
 * The register's outbox (decision 46): every save from the register page is written on the device
 * first and sent from there, with its Idempotency-Key (the queued save's id), If-Match (the
 * register's revision when the marks were taken) and markedAt (when Submit was pressed). A save
 * that cannot reach the server stays until it can; one that the server answers is removed, or
 * kept with the server's conflicts (412) for the user to settle.
 */

/** A save waiting longer than this is shown with a warning: the server refuses marks older than 7 days. */
export const STALE_AFTER_MS = 3 * 24 * 60 * 60_000;

export type SendOutcome =
  | { kind: 'sent'; save: QueuedSave; register: AttendanceRegister; etag: string | null }
  /** No connection: kept, sent later. */
  | { kind: 'offline'; save: QueuedSave }
  /** The register changed meanwhile: kept with the conflicts, for the user to choose. */
  | { kind: 'conflict'; save: QueuedSave }
  /** The key was used for another save (422): removed; sending it again cannot succeed. */
  | { kind: 'dropped'; save: QueuedSave; message: string }
  /** Refused for good (400, 403, 404, 409): kept with the message until the user discards it. */
  | { kind: 'refused'; save: QueuedSave; message: string }
  /** The server failed (5xx, a contract mismatch): kept, sent again later. */
  | { kind: 'failed'; save: QueuedSave; message: string };

/** A version 4 UUID; crypto.randomUUID only exists on secure pages (https or localhost). */
export function newSaveId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The time with the device's offset (what the server keeps as markedAt), e.g. 2026-11-23T09:05:00+05:30. */
export function localIsoTime(at: Date): string {
  const pad = (value: number) => String(Math.abs(value)).padStart(2, '0');
  const offset = -at.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  return (
    `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}` +
    `${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`
  );
}

export interface NewSave {
  userId: string;
  className: string;
  date: string;
  period: number;
  body: SaveAttendanceBody;
  ifMatch: string;
  /** When Submit was pressed. */
  at?: Date;
}

export function queuedSaveOf({ userId, className, date, period, body, ifMatch, at = new Date() }: NewSave): QueuedSave {
  return {
    id: newSaveId(),
    class: className,
    date,
    period,
    body: { ...body, markedAt: localIsoTime(at) },
    ifMatch,
    queuedAt: at.toISOString(),
    userId,
  };
}

export function savePath(save: Pick<QueuedSave, 'class' | 'date' | 'period'>): string {
  return `/api/attendance/${segment(save.class)}/${segment(save.date)}${periodQuery(save.period)}`;
}

/**
 * Writes a new save in the outbox. A save of the same register still waiting there is replaced:
 * the new one holds the whole register as the user now wants it, and keeps the earlier one's
 * If-Match, the revision the user's marks started from (sending both would make the second
 * conflict with the first, the user's own marks). One waiting for a choice or refused stays.
 */
export async function enqueue(store: OfflineStore, save: QueuedSave): Promise<QueuedSave> {
  const earlier = (await store.queued()).filter(
    (other) => other.userId === save.userId && other.class === save.class && other.date === save.date && other.period === save.period && isSendable(other),
  );
  const next = earlier[0] ? { ...save, ifMatch: earlier[0].ifMatch } : save;
  await store.putQueued(next);
  for (const other of earlier) await store.deleteQueued(other.id);
  return next;
}

/** One send of a queued save, and what it leaves in the store. */
export async function sendQueued(store: OfflineStore, save: QueuedSave): Promise<SendOutcome> {
  try {
    const answer = await api.putTagged(savePath(save), save.body, AttendanceRegisterSchema, {
      headers: { 'idempotency-key': save.id, 'if-match': save.ifMatch },
    });
    await store.deleteQueued(save.id);
    return { kind: 'sent', save, register: answer.data, etag: answer.etag };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 0) return { kind: 'offline', save };
    if (error.status === 412) {
      const parsed = RegisterConflictSchema.safeParse(error.body);
      if (parsed.success && parsed.data.conflicts.length === 0) {
        // Saved meanwhile, but no mark differs from ours: nothing to choose, send it at the new revision.
        const next = { ...save, ifMatch: parsed.data.revision };
        await store.putQueued(next);
        return sendQueued(store, next);
      }
      if (parsed.success) {
        const kept = { ...save, conflict: parsed.data };
        await store.putQueued(kept);
        return { kind: 'conflict', save: kept };
      }
    }
    if (error.status === 422) {
      await store.deleteQueued(save.id);
      return { kind: 'dropped', save, message: error.message };
    }
    if (error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 429) {
      const kept = { ...save, refusal: error.message };
      await store.putQueued(kept);
      return { kind: 'refused', save: kept, message: error.message };
    }
    return { kind: 'failed', save, message: error.message };
  }
}

/** Whether a queued save is sent by a sync: not one waiting for the user's choice or refused for good. */
export function isSendable(save: QueuedSave): boolean {
  return !save.conflict && !save.refusal;
}

let running: Promise<SendOutcome[]> | null = null;

/**
 * Sends the user's waiting saves, oldest first, stopping at the first that finds no connection.
 * One sync at a time: a sync asked for while one runs gets that one's outcomes.
 */
export function sendOutbox(store: OfflineStore, userId: string): Promise<SendOutcome[]> {
  running ??= (async () => {
    const outcomes: SendOutcome[] = [];
    try {
      for (const save of await store.queued()) {
        if (save.userId !== userId || !isSendable(save)) continue;
        const outcome = await sendQueued(store, save);
        outcomes.push(outcome);
        if (outcome.kind === 'offline') break;
      }
    } finally {
      running = null;
    }
    return outcomes;
  })();
  return running;
}

/**
 * The save again after a conflict: the user's choice for each student in conflict, a reason (the
 * change replaces a colleague's marks), and the register's revision now as If-Match. A new key:
 * its body is not the first one's.
 */
export function resolvedSave(save: QueuedSave, choices: Record<string, MarkStatus>, reason: string): QueuedSave {
  if (!save.conflict) return save;
  const records = save.body.records.map((record) => (record.pin in choices ? { ...record, status: choices[record.pin]! } : record));
  const rest: QueuedSave = { ...save };
  delete rest.conflict;
  delete rest.refusal;
  return { ...rest, id: newSaveId(), ifMatch: save.conflict.revision, body: { ...save.body, records, reason } };
}

export function isStale(save: QueuedSave, now = Date.now()): boolean {
  return now - new Date(save.queuedAt).getTime() > STALE_AFTER_MS;
}

/**
 * The user's save of this register still waiting to be sent (not one in conflict or refused: those
 * are shown apart, for the user to settle). At most one: a new save replaces a waiting one (enqueue).
 */
export function waitingSaveOf(saves: readonly QueuedSave[], place: { className: string; date: string | null; period: number | null }): QueuedSave | null {
  const waiting = saves.filter(
    (save) => save.class === place.className && save.date === place.date && save.period === place.period && isSendable(save),
  );
  return waiting.at(-1) ?? null;
}

/**
 * The register as the user will have it once their waiting save is sent: its marks laid over the
 * register as last fetched (or kept on the device), so that a register reloaded offline shows the
 * marks taken rather than those before them. A mark changed by the save is no longer a self check-in.
 */
export function withWaitingMarks(register: AttendanceRegister, save: QueuedSave): AttendanceRegister {
  const marks = new Map<string, MarkStatus>(
    save.body.records.map((record) => [record.pin, 'status' in record ? record.status : record.present ? 'present' : 'absent']),
  );
  const records = register.records.map((record) => {
    const status = marks.get(record.pin);
    if (status === undefined || status === record.status) return record;
    const changed = { ...record, status, present: attends(status) };
    delete changed.checkedInAt;
    return changed;
  });
  return { ...register, records, stats: countMarks(records) };
}
