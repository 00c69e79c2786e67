import { asc, desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { attendanceMarks, attendanceSessions, students } from '../../db/schema';

export type RosterRow = typeof students.$inferSelect;

export interface MarkRow {
  date: string;
  className: string;
  name: string;
  present: boolean;
}

export function findRosterStudent(db: Executor, pin: string): Promise<RosterRow | undefined> {
  return db
    .select()
    .from(students)
    .where(eq(students.pin, pin))
    .limit(1)
    .then((rows) => rows[0]);
}

/** Every mark of one student, newest day first, read through the index on attendance_marks.pin. */
export function listMarksByPin(db: Executor, pin: string): Promise<MarkRow[]> {
  return db
    .select({
      date: attendanceSessions.date,
      className: attendanceSessions.className,
      name: attendanceMarks.name,
      present: attendanceMarks.present,
    })
    .from(attendanceMarks)
    .innerJoin(attendanceSessions, eq(attendanceSessions.id, attendanceMarks.sessionId))
    .where(eq(attendanceMarks.pin, pin))
    .orderBy(desc(attendanceSessions.date), asc(attendanceSessions.className));
}
