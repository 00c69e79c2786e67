import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client';
import { attendanceChanges, attendanceMarks, attendanceSessions, users } from '../../db/schema';

export type SessionRow = typeof attendanceSessions.$inferSelect;
export type MarkRow = typeof attendanceMarks.$inferSelect;

export interface SessionWithTaker extends SessionRow {
  takerName: string | null;
}

const sessionWithTaker = {
  id: attendanceSessions.id,
  className: attendanceSessions.className,
  date: attendanceSessions.date,
  takenBy: attendanceSessions.takenBy,
  takenAt: attendanceSessions.takenAt,
  updatedAt: attendanceSessions.updatedAt,
  presentCount: attendanceSessions.presentCount,
  absentCount: attendanceSessions.absentCount,
  takerName: users.name,
};

export async function findSession(db: Executor, className: string, date: string): Promise<SessionWithTaker | undefined> {
  const [row] = await db
    .select(sessionWithTaker)
    .from(attendanceSessions)
    .leftJoin(users, eq(users.id, attendanceSessions.takenBy))
    .where(and(eq(attendanceSessions.className, className), eq(attendanceSessions.date, date)))
    .limit(1);
  return row;
}

export function listMarks(db: Executor, sessionId: string): Promise<MarkRow[]> {
  return db
    .select()
    .from(attendanceMarks)
    .where(eq(attendanceMarks.sessionId, sessionId))
    .orderBy(sql`${attendanceMarks.pin} collate "C"`);
}

/**
 * Creates the (class, date) session row if it is missing and locks it until the transaction ends.
 * A concurrent insert of the same row waits for ours and then does nothing, and the select
 * waits for the lock, so two saves of one register run one after the other.
 */
export async function lockSession(tx: Tx, className: string, date: string, userId: string): Promise<SessionRow> {
  await tx
    .insert(attendanceSessions)
    .values({ className, date, takenBy: userId })
    .onConflictDoNothing({ target: [attendanceSessions.className, attendanceSessions.date] });
  const [row] = await tx
    .select()
    .from(attendanceSessions)
    .where(and(eq(attendanceSessions.className, className), eq(attendanceSessions.date, date)))
    .for('update');
  if (!row) throw new Error('attendance session missing after insert');
  return row;
}

export async function upsertMarks(
  tx: Tx,
  marks: { sessionId: string; pin: string; name: string; className: string; present: boolean }[],
): Promise<void> {
  if (marks.length === 0) return;
  await tx
    .insert(attendanceMarks)
    .values(marks)
    .onConflictDoUpdate({
      target: [attendanceMarks.sessionId, attendanceMarks.pin],
      set: {
        name: sql`excluded.name`,
        className: sql`excluded.class_name`,
        present: sql`excluded.present`,
      },
    });
}

/**
 * Sets the counters from the marks themselves, so they cannot drift from them, and stamps the
 * save with the database clock at this moment (not the transaction's start, which for a save
 * that waited on the lock would be earlier than the save it waited for).
 */
export async function refreshCounters(tx: Tx, sessionId: string): Promise<void> {
  await tx
    .update(attendanceSessions)
    .set({
      presentCount: sql`(select count(*) from attendance_marks m where m.session_id = ${sessionId} and m.present)::int`,
      absentCount: sql`(select count(*) from attendance_marks m where m.session_id = ${sessionId} and not m.present)::int`,
      updatedAt: sql`clock_timestamp()`,
    })
    .where(eq(attendanceSessions.id, sessionId));
}

/** Appends change rows stamped with the save's time (the session's updated_at). */
export async function insertChanges(
  tx: Tx,
  sessionId: string,
  changes: { pin: string; oldValue: boolean | null; newValue: boolean }[],
  changedBy: string,
  reason: string | null,
): Promise<void> {
  if (changes.length === 0) return;
  const changedAt = sql`(select s.updated_at from attendance_sessions s where s.id = ${sessionId})`;
  await tx
    .insert(attendanceChanges)
    .values(changes.map((change) => ({ sessionId, ...change, changedBy, reason, changedAt })));
}

export interface ChangeRow {
  pin: string;
  name: string | null;
  oldValue: boolean | null;
  newValue: boolean;
  changedBy: string | null;
  changedAt: Date;
  reason: string | null;
}

/** Newest save first; within one save, by PIN. */
export function listChanges(db: Executor, sessionId: string): Promise<ChangeRow[]> {
  return db
    .select({
      pin: attendanceChanges.pin,
      name: attendanceMarks.name,
      oldValue: attendanceChanges.oldValue,
      newValue: attendanceChanges.newValue,
      changedBy: users.name,
      changedAt: attendanceChanges.changedAt,
      reason: attendanceChanges.reason,
    })
    .from(attendanceChanges)
    .leftJoin(
      attendanceMarks,
      and(eq(attendanceMarks.sessionId, attendanceChanges.sessionId), eq(attendanceMarks.pin, attendanceChanges.pin)),
    )
    .leftJoin(users, eq(users.id, attendanceChanges.changedBy))
    .where(eq(attendanceChanges.sessionId, sessionId))
    .orderBy(desc(attendanceChanges.changedAt), sql`${attendanceChanges.pin} collate "C"`, attendanceChanges.id);
}
