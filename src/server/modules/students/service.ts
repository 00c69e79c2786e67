import { canSeeStudent } from '../../../shared/access';
import { countMarks, studentReportFilename, summarize } from '../../../shared/attendance-rules';
import type { User } from '../../../shared/schemas/auth';
import {
  OWN_RECORD_ONLY_MESSAGE,
  STUDENT_NOT_FOUND_MESSAGE,
  type StudentRecord,
} from '../../../shared/schemas/students';
import { todayIn } from '../../../shared/dates';
import type { Executor } from '../../db/client';
import { forbidden, notFound } from '../../http-error';
import { listStudentMarks } from '../attendance/service';
import { findProfile } from '../profiles/service';
import { findStudent } from '../roster/service';
import { buildReportPdf } from './report-pdf';

/**
 * A student's record: profile, summary and history, put together from the roster, the profiles
 * and the marks. Found when a profile, a mark or a roster entry exists: a student on the roster
 * whose class has no registers yet is a real student with zero days, not "no records".
 */
export async function getStudentRecord(db: Executor, viewer: User, pin: string): Promise<StudentRecord> {
  if (!canSeeStudent(viewer, pin)) throw forbidden(OWN_RECORD_ONLY_MESSAGE);
  const [profile, rosterStudent, marks] = await Promise.all([
    findProfile(db, pin),
    findStudent(db, pin),
    listStudentMarks(db, pin),
  ]);
  // The roster is authoritative: anyone can register a profile for a PIN, so its name comes second.
  const name = rosterStudent?.name ?? profile?.name ?? marks[0]?.name;
  if (name === undefined) throw notFound(STUDENT_NOT_FOUND_MESSAGE);

  const counts = countMarks(marks);
  return {
    pin,
    name,
    profile,
    summary: summarize(counts.present, counts.absent),
    history: marks.map((mark) => ({ date: mark.date, class: mark.className, present: mark.present })),
  };
}

export interface StudentReport {
  filename: string;
  pdf: Buffer;
}

export async function getStudentReport(
  db: Executor,
  viewer: User,
  pin: string,
  timeZone: string,
  now = new Date(),
): Promise<StudentReport> {
  const record = await getStudentRecord(db, viewer, pin);
  const pdf = await buildReportPdf(record, { generatedOn: todayIn(timeZone, now) });
  return { filename: studentReportFilename(pin), pdf };
}
