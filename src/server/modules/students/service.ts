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
import { inTermRange, resolveTermRange } from '../terms/service';
import { buildReportPdf } from './report-pdf';

export interface RecordScope {
  /** `?term=`: a term's id, `all`, or undefined for the default term (DESIGN.md 7.5). */
  term?: string | undefined;
  timeZone: string;
  now?: Date;
}

/**
 * A student's record: profile, summary and history over a term, put together from the roster,
 * the profiles and the marks. Found when a profile, a mark or a roster entry exists, whatever the
 * term: a student on the roster whose class has no registers yet is a real student with zero
 * days, not "no records".
 */
export async function getStudentRecord(db: Executor, viewer: User, pin: string, scope: RecordScope): Promise<StudentRecord> {
  if (!canSeeStudent(viewer, pin)) throw forbidden(OWN_RECORD_ONLY_MESSAGE);
  const [profile, rosterStudent, allMarks, range] = await Promise.all([
    findProfile(db, pin),
    findStudent(db, pin),
    listStudentMarks(db, pin),
    resolveTermRange(db, scope.term, todayIn(scope.timeZone, scope.now)),
  ]);
  // The roster is authoritative: anyone can register a profile for a PIN, so its name comes second.
  const name = rosterStudent?.name ?? profile?.name ?? allMarks[0]?.name;
  if (name === undefined) throw notFound(STUDENT_NOT_FOUND_MESSAGE);

  // The term's marks. The one place a record is scoped to a term: per-term counters, when they
  // come, replace this filter.
  const marks = allMarks.filter((mark) => inTermRange(range, mark.date));
  const counts = countMarks(marks);
  return {
    pin,
    name,
    profile,
    summary: summarize(counts.present, counts.absent),
    history: marks.map((mark) => ({ date: mark.date, class: mark.className, present: mark.present })),
    term: range.term,
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
  scope: RecordScope,
): Promise<StudentReport> {
  const now = scope.now ?? new Date();
  const record = await getStudentRecord(db, viewer, pin, { ...scope, now });
  const pdf = await buildReportPdf(record, { generatedOn: todayIn(scope.timeZone, now) });
  return { filename: studentReportFilename(pin), pdf };
}
