import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client';
import { attendanceChanges, attendanceMarks, registers, users } from '../../db/schema';

export type RegisterRow = typeof registers.$inferSelect;
export type MarkRow = typeof attendanceMarks.$inferSelect;
export type NewMarkRow = typeof attendanceMarks.$inferInsert;

export interface RegisterWithTaker extends RegisterRow {
  takerName: string | null;
}

const registerWithTaker = {
  id: registers.id,
  className: registers.className,
  date: registers.date,
  takenBy: registers.takenBy,
  takenAt: registers.takenAt,
  updatedAt: registers.updatedAt,
  presentCount: registers.presentCount,
  absentCount: registers.absentCount,
  takerName: users.name,
};

export async function findRegister(db: Executor, className: string, date: string): Promise<RegisterWithTaker | undefined> {
  const [row] = await db
    .select(registerWithTaker)
    .from(registers)
    .leftJoin(users, eq(users.id, registers.takenBy))
    .where(and(eq(registers.className, className), eq(registers.date, date)))
    .limit(1);
  return row;
}

export function listMarks(db: Executor, registerId: string): Promise<MarkRow[]> {
  return db
    .select()
    .from(attendanceMarks)
    .where(eq(attendanceMarks.registerId, registerId))
    .orderBy(sql`${attendanceMarks.pin} collate "C"`);
}

/**
 * Creates the (class, date) register row if it is missing and locks it until the transaction ends.
 * A concurrent insert of the same row waits for ours and then does nothing, and the select
 * waits for the lock, so two saves of one register run one after the other.
 */
export async function lockRegister(tx: Tx, className: string, date: string, userId: string): Promise<RegisterRow> {
  await tx
    .insert(registers)
    .values({ className, date, takenBy: userId })
    .onConflictDoNothing({ target: [registers.className, registers.date] });
  const [row] = await tx
    .select()
    .from(registers)
    .where(and(eq(registers.className, className), eq(registers.date, date)))
    .for('update');
  if (!row) throw new Error('register missing after insert');
  return row;
}

export async function upsertMarks(
  tx: Tx,
  marks: NewMarkRow[],
): Promise<void> {
  if (marks.length === 0) return;
  await tx
    .insert(attendanceMarks)
    .values(marks)
    .onConflictDoUpdate({
      target: [attendanceMarks.registerId, attendanceMarks.pin],
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
export async function refreshCounters(tx: Tx, registerId: string): Promise<void> {
  await tx
    .update(registers)
    .set({
      presentCount: sql`(select count(*) from attendance_marks m where m.session_id = ${registerId} and m.present)::int`,
      absentCount: sql`(select count(*) from attendance_marks m where m.session_id = ${registerId} and not m.present)::int`,
      updatedAt: sql`clock_timestamp()`,
    })
    .where(eq(registers.id, registerId));
}

/** Appends change rows stamped with the save's time (the register's updated_at). */
export async function insertChanges(
  tx: Tx,
  registerId: string,
  changes: { pin: string; oldValue: boolean | null; newValue: boolean }[],
  changedBy: string,
  reason: string | null,
): Promise<void> {
  if (changes.length === 0) return;
  const changedAt = sql`(select s.updated_at from attendance_sessions s where s.id = ${registerId})`;
  await tx
    .insert(attendanceChanges)
    .values(changes.map((change) => ({ registerId, ...change, changedBy, reason, changedAt })));
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
export function listChanges(db: Executor, registerId: string): Promise<ChangeRow[]> {
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
      and(eq(attendanceMarks.registerId, attendanceChanges.registerId), eq(attendanceMarks.pin, attendanceChanges.pin)),
    )
    .leftJoin(users, eq(users.id, attendanceChanges.changedBy))
    .where(eq(attendanceChanges.registerId, registerId))
    .orderBy(desc(attendanceChanges.changedAt), sql`${attendanceChanges.pin} collate "C"`, attendanceChanges.id);
}

/** How many registers each class has, all dates; a class with none is absent from the map. */
export async function countRegistersByClass(db: Executor): Promise<Map<string, number>> {
  const rows = await db
    .select({ className: registers.className, count: sql<number>`count(*)::int` })
    .from(registers)
    .groupBy(registers.className);
  return new Map(rows.map((row) => [row.className, Number(row.count)]));
}

/** The classes whose register for `date` has been taken. */
export async function listClassesTakenOn(db: Executor, date: string): Promise<Set<string>> {
  const rows = await db.select({ className: registers.className }).from(registers).where(eq(registers.date, date));
  return new Set(rows.map((row) => row.className));
}

export interface StudentMarkRow {
  date: string;
  className: string;
  name: string;
  present: boolean;
}

/** Every mark of one student, newest day first, read through the index on attendance_marks.pin. */
export function listMarksByPin(db: Executor, pin: string): Promise<StudentMarkRow[]> {
  return db
    .select({
      date: registers.date,
      className: registers.className,
      name: attendanceMarks.name,
      present: attendanceMarks.present,
    })
    .from(attendanceMarks)
    .innerJoin(registers, eq(registers.id, attendanceMarks.registerId))
    .where(eq(attendanceMarks.pin, pin))
    .orderBy(desc(registers.date), asc(registers.className));
}

/** Writes a whole register with its marks and counters in one go: for demo data, which has no history. */
export async function insertRegister(
  tx: Tx,
  register: { className: string; date: string; takenBy: string; takenAt: Date; presentCount: number; absentCount: number },
  marks: Omit<NewMarkRow, 'registerId'>[],
): Promise<void> {
  const [row] = await tx
    .insert(registers)
    .values({ ...register, updatedAt: register.takenAt })
    .returning({ id: registers.id });
  if (!row) throw new Error('insert returned no register');
  await tx.insert(attendanceMarks).values(marks.map((mark) => ({ ...mark, registerId: row.id })));
}
