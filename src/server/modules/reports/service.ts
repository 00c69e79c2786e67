import { eachDate, todayIn } from '../../../shared/dates';
import {
  buildDailyReport,
  overallOf,
  PERIOD_DAYS,
  reportWindow,
  toClassAttendance,
  toStudentSummary,
} from '../../../shared/report-rules';
import { percentage } from '../../../shared/attendance-rules';
import type { Dashboard, StudentSummary, SubjectReportRow } from '../../../shared/schemas/reports';
import type { Term } from '../../../shared/schemas/terms';
import type { Db } from '../../db/client';
import { notFound } from '../../http-error';
import { assertClassExists } from '../classes/service';
import { studentTotals } from '../counters/service';
import type { DataVersions } from '../data-version/service';
import { countByClass } from '../roster/service';
import { findSubject } from '../subjects/service';
import { resolveTermRange } from '../terms/service';
import * as repo from './repository';

export const subjectNotFound = (code: string) => `There is no subject with the code ${code}`;

export interface DashboardInput {
  className?: string | undefined;
  /** `?term=`: a term's id, `all`, or undefined for the default term (decision 12). */
  term?: string | undefined;
  timeZone: string;
  /** What this process knows of the data versions: the term is then read once per version. */
  versions?: DataVersions | undefined;
  now?: Date;
}

/**
 * The faculty dashboard: overall and per-class totals of the term's dates, and the weekly and
 * monthly per-date series (the original app's 7 and 30 days, whatever the term), all read from the register
 * counters. With a class, every figure is that class's.
 */
export async function getDashboard(db: Db, input: DashboardInput): Promise<Dashboard> {
  if (input.className !== undefined) await assertClassExists(db, input.className);
  const today = todayIn(input.timeZone, input.now);
  const range = await resolveTermRange(db, input.term, today, input.versions);
  const [{ perClass, perDay }, sizes] = await Promise.all([
    repo.dashboardCounts(db, { className: input.className, termId: range.term?.id, dates: seriesDates(today) }),
    // Withdrawn students are off their class's register.
    countByClass(db, input.versions),
  ]);

  const classWiseAttendance = perClass.map((row) => toClassAttendance({ ...row, totalStudents: sizes.get(row.className) ?? 0 }));
  return {
    overallAttendance: overallOf(classWiseAttendance),
    classWiseAttendance,
    weeklyReport: buildDailyReport(perDay, today, PERIOD_DAYS.weekly),
    monthlyReport: buildDailyReport(perDay, today, PERIOD_DAYS.monthly),
    today,
    term: range.term,
  };
}

/** The series' dates of the last `today` asked: the same all day, where working them out was a twentieth of a dashboard's time in the server. */
let series: { today: string; dates: readonly string[] } | undefined;

/** The dates of the dashboard's series ending `today`: the monthly window, which holds the weekly one, so one read serves both. */
function seriesDates(today: string): readonly string[] {
  if (series?.today !== today) {
    const { from, to } = reportWindow(today, Math.max(PERIOD_DAYS.weekly, PERIOD_DAYS.monthly));
    series = { today, dates: Object.freeze(eachDate(from, to)) };
  }
  return series.dates;
}

export interface StudentSummariesInput {
  className?: string | undefined;
  below?: number | undefined;
  /** `?subject=CODE`: only that subject's lectures; students who had none are not listed. */
  subject?: string | undefined;
  /** `?term=`: a term's id, `all`, or undefined for the default term (decision 12). */
  term?: string | undefined;
  /** The portal's zone, for the default term's today (the server's zone when absent). */
  timeZone?: string | undefined;
  /** What this process knows of the data versions: the term is then read once per version. */
  versions?: DataVersions | undefined;
  now?: Date;
}

/**
 * The students' summaries over the term's dates, lowest percentage first; `below` keeps only
 * those under it. `term` says which term they cover (null: all time).
 */
export async function studentSummariesOfTerm(
  db: Db,
  input: StudentSummariesInput,
): Promise<{ term: Term | null; summaries: StudentSummary[] }> {
  if (input.className !== undefined) await assertClassExists(db, input.className);
  const range = await resolveTermRange(db, input.term, todayIn(input.timeZone, input.now), input.versions);
  if (input.subject !== undefined && !(await findSubject(db, input.subject))) throw notFound(subjectNotFound(input.subject));
  const rows = await studentTotals(db, {
    className: input.className,
    below: input.below,
    termId: range.term?.id,
    subjectCode: input.subject,
  });
  return {
    term: range.term,
    summaries: rows.map((row) =>
      toStudentSummary({ pin: row.pin, name: row.name, className: row.className, presentDays: row.attended, absentDays: row.absent }),
    ),
  };
}

/** The students' summaries of the term (see studentSummariesOfTerm), lowest percentage first. */
export async function listStudentSummaries(db: Db, input: StudentSummariesInput): Promise<StudentSummary[]> {
  return (await studentSummariesOfTerm(db, input)).summaries;
}

export interface SubjectReportInput {
  className?: string | undefined;
  term?: string | undefined;
  timeZone: string;
  /** What this process knows of the data versions: the term is then read once per version. */
  versions?: DataVersions | undefined;
  now?: Date;
}

/** GET /api/reports/subjects: per subject, lectures, held, attended and percentage over the term (decision 13). */
export async function getSubjectReport(db: Db, input: SubjectReportInput): Promise<{ term: Term | null; rows: SubjectReportRow[] }> {
  if (input.className !== undefined) await assertClassExists(db, input.className);
  const range = await resolveTermRange(db, input.term, todayIn(input.timeZone, input.now), input.versions);
  const rows = await repo.subjectCounts(db, { className: input.className, termId: range.term?.id });
  return {
    term: range.term,
    rows: rows.map((row) => ({ ...row, percentage: percentage(row.attended, row.held) })),
  };
}

/** What the process knows of the data versions, as this module's routes hand it over. */
export type { DataVersions };
