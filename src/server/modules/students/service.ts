import { summarize } from '../../../shared/attendance-rules';
import type { User } from '../../../shared/schemas/auth';
import {
  OWN_RECORD_ONLY_MESSAGE,
  STUDENT_NOT_FOUND_MESSAGE,
  type StudentRecord,
} from '../../../shared/schemas/students';
import { todayIn } from '../../../shared/dates';
import type { Executor } from '../../db/client';
import { forbidden, notFound } from '../../http-error';
import { canSeeStudent } from '../../plugins/auth';
import { findProfileByPin } from '../registrations/repository';
import { toProfileResponse } from '../registrations/service';
import * as repo from './repository';
import { buildReportPdf } from './report-pdf';

/**
 * A student's profile, summary and history. Found when a profile, a mark or a roster entry
 * exists: a student on the roster whose class has no registers yet is a real student with zero
 * days, not "no records" (the specification only knew profiles and marks).
 */
export async function getStudentRecord(db: Executor, viewer: User, pin: string): Promise<StudentRecord> {
  if (!canSeeStudent(viewer, pin)) throw forbidden(OWN_RECORD_ONLY_MESSAGE);
  const [profile, roster, marks] = await Promise.all([
    findProfileByPin(db, pin),
    repo.findRosterStudent(db, pin),
    repo.listMarksByPin(db, pin),
  ]);
  // The roster is authoritative: anyone can register a profile for a PIN, so its name comes second.
  const name = roster?.name ?? profile?.name ?? marks[0]?.name;
  if (name === undefined) throw notFound(STUDENT_NOT_FOUND_MESSAGE);

  const presentDays = marks.filter((mark) => mark.present).length;
  return {
    pin,
    name,
    profile: profile ? toProfileResponse(profile) : null,
    summary: summarize(presentDays, marks.length - presentDays),
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
  // A PIN may hold '/', which is not allowed in a file name.
  return { filename: `attendance-${pin.replace(/\//g, '-')}.pdf`, pdf };
}
