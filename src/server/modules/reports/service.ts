import { addDays, eachDate, todayIn } from '../../../shared/dates';
import {
  buildDailyReport,
  overallOf,
  PERIOD_DAYS,
  reportWindow,
  toClassAttendance,
  toStudentSummary,
} from '../../../shared/report-rules';
import { percentage } from '../../../shared/attendance-rules';
import type { ClassAttendance, Dashboard, StudentSummary, SubjectReportRow } from '../../../shared/schemas/reports';
import type { Term } from '../../../shared/schemas/terms';
import type { Db } from '../../db/client';
import { notFound } from '../../http-error';
import { assertClassExists } from '../classes/service';
import { studentTotals } from '../counters/service';
import { MARKS, MARKS_OF_EARLIER_DAYS, marksOfClass, REPORTS, type DataVersions } from '../data-version/service';
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
  // The series' days before yesterday are remembered until a save of an earlier day (or any change
  // of the reports); yesterday and today are read each time (decision 54).
  const { earlier, recent } = seriesDates(today);
  const termId = range.term?.id;
  const [{ perClass, perDay: recentDays }, earlierDays, sizes] = await Promise.all([
    input.className === undefined && input.versions && termId !== undefined
      ? everyClassCounts(db, input.versions, termId, recent)
      : repo.dashboardCounts(db, { className: input.className, termId, dates: recent, names: VERSION_NAMES }),
    earlierSeries(db, input.className, earlier, input.versions),
    // Withdrawn students are off their class's register.
    countByClass(db, input.versions),
  ]);
  const perDay = [...earlierDays, ...recentDays];

  const classWiseAttendance = perClass.map((row) => classAttendanceOf(row, sizes.get(row.className) ?? 0));
  return {
    overallAttendance: overallOf(classWiseAttendance),
    classWiseAttendance,
    weeklyReport: buildDailyReport(perDay, today, PERIOD_DAYS.weekly),
    monthlyReport: buildDailyReport(perDay, today, PERIOD_DAYS.monthly),
    today,
    term: range.term,
  };
}

const VERSION_NAMES: repo.MarksVersionNames = { marks: MARKS, classPrefix: marksOfClass('') };

/** Every class's totals in the term as of one `marks` value, in the dashboard's class order. */
interface ClassTable {
  marksVersion: number;
  rows: readonly repo.ClassCountsRow[];
}

/**
 * The dashboard's counts of every class, with the class table kept per process under the `reports`
 * version and the term (decision 55): after the first read, each read asks only for the classes
 * saved since the table's `marks` value, with yesterday's and today's sums, and puts their rows in
 * a copy of the table. Every write that changes a class's totals other than a save bumps `reports`,
 * which starts a new table. Only a term's: a class's totals of every term are summed from a row per
 * term, which no key finds by class, so a dashboard of every term reads them all each time.
 */
async function everyClassCounts(db: Db, versions: DataVersions, termId: string, dates: readonly string[]): Promise<repo.DashboardCounts> {
  const kept = await versions.remember(REPORTS, `dashboard classes ${termId}`, async (): Promise<{ table?: ClassTable }> => ({}));
  const known = kept.table;
  const counts = await repo.dashboardCounts(db, { termId, dates, names: VERSION_NAMES, savedSince: known?.marksVersion });
  let rows = counts.perClass;
  if (known !== undefined) {
    const saved = new Map(counts.perClass.map((row) => [row.className, row]));
    rows = known.rows.map((row) => saved.get(row.className) ?? row);
    // A class saved that the table does not hold (one made since, whose `reports` bump this
    // process has not heard of yet): a new table, for one read more.
    if (rows.filter((row) => saved.has(row.className)).length !== saved.size) {
      kept.table = undefined;
      return everyClassCounts(db, versions, termId, dates);
    }
  }
  // Another request's newer table stays.
  if (kept.table === undefined || counts.marksVersion > kept.table.marksVersion) kept.table = { marksVersion: counts.marksVersion, rows };
  return { ...counts, perClass: rows as repo.ClassCountsRow[] };
}

/**
 * A class row as the dashboard gives it, made once per row of the class table and roster size:
 * the table keeps the rows of the classes not saved since, and so the answer's (their JSON too).
 */
const attendanceOfRow = new WeakMap<repo.ClassCountsRow, ClassAttendance>();

function classAttendanceOf(row: repo.ClassCountsRow, size: number): ClassAttendance {
  const kept = attendanceOfRow.get(row);
  if (kept?.totalStudents === size) return kept;
  const made = toClassAttendance({ ...row, totalStudents: size });
  attendanceOfRow.set(row, made);
  return made;
}

interface SeriesDates {
  /** The days before yesterday: remembered. */
  earlier: readonly string[];
  /** Yesterday and today. */
  recent: readonly string[];
}

/** The series' dates of the last `today` asked: the same all day, where working them out was a twentieth of a dashboard's time in the server. */
let series: { today: string; dates: SeriesDates } | undefined;

/**
 * The dates of the dashboard's series ending `today`: the monthly window, which holds the weekly
 * one, so one read serves both; split before yesterday.
 */
function seriesDates(today: string): SeriesDates {
  if (series?.today !== today) {
    const { from, to } = reportWindow(today, Math.max(PERIOD_DAYS.weekly, PERIOD_DAYS.monthly));
    const dates = eachDate(from, to);
    const yesterday = addDays(today, -1);
    series = {
      today,
      dates: { earlier: Object.freeze(dates.filter((date) => date < yesterday)), recent: Object.freeze(dates.filter((date) => date >= yesterday)) },
    };
  }
  return series.dates;
}

/**
 * The series' sums of the days before yesterday, remembered under the version that a save of a day
 * before the saver's today bumps, and the reports version. A save's today may be a day behind the
 * reader's (clocks around midnight): yesterday is therefore never remembered.
 */
async function earlierSeries(db: Db, className: string | undefined, dates: readonly string[], versions: DataVersions | undefined) {
  if (dates.length === 0) return [];
  const read = () => repo.seriesCounts(db, { className, dates });
  if (!versions) return read();
  const reports = await versions.current(REPORTS);
  return versions.remember(MARKS_OF_EARLIER_DAYS, `series ${className ?? ''} ${dates[0]} ${dates.length} under reports ${reports}`, read);
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
