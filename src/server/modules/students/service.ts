import { createHash } from 'node:crypto';
import { canSeeStudent } from '../../../shared/access';
import { addCounts, attends, NO_MARKS, percentage, studentReportFilename, summarizeCounts } from '../../../shared/attendance-rules';
import type { User } from '../../../shared/schemas/auth';
import {
  HISTORY_PAGE_DEFAULT,
  INVALID_CURSOR_MESSAGE,
  OWN_RECORD_ONLY_MESSAGE,
  STUDENT_NOT_FOUND_MESSAGE,
  type HistoryEntry,
  type StudentDays,
  type StudentRecord,
  type SubjectSummary,
} from '../../../shared/schemas/students';
import { addDays, isIsoDate, todayIn } from '../../../shared/dates';
import type { Executor } from '../../db/client';
import { badRequest, forbidden, notFound } from '../../http-error';
import { latestMarkOf, listStudentMarks, studentDayCounts, type HistoryCursor, type StudentMarkRow } from '../attendance/service';
import { countsOfStudent } from '../counters/service';
import { type DataVersions, MARKS, marksOfClass, REPORTS } from '../data-version/service';
import { findProfile } from '../profiles/service';
import { findStudent } from '../roster/service';
import { subjectsByCode } from '../subjects/service';
import { resolveTermRange, type TermRange } from '../terms/service';
import { buildReportPdf } from './report-pdf';

export interface RecordScope {
  /** `?term=`: a term's id, `all`, or undefined for the default term (decision 12). */
  term?: string | undefined;
  timeZone: string;
  now?: Date;
  /** What this process knows of the data versions: the term and the subjects' names are then read once per version. */
  versions?: DataVersions | undefined;
  /** The university's name for the PDF (PORTAL_NAME). */
  university?: string | undefined;
}

export interface HistoryPage {
  /** Rows of history (50 by default). */
  limit?: number | undefined;
  /** The `nextBefore` of the previous page. */
  before?: string | undefined;
}

/** The history cursor is opaque to callers: the (date, period, class) of the last row, base64url. */
export function encodeCursor(cursor: HistoryCursor): string {
  return Buffer.from(JSON.stringify([cursor.date, cursor.period, cursor.className])).toString('base64url');
}

export function decodeCursor(text: string): HistoryCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 3) {
      const [date, period, className] = value as unknown[];
      if (typeof date === 'string' && isIsoDate(date) && Number.isInteger(period) && typeof className === 'string') {
        return { date, period: period as number, className };
      }
    }
  } catch {
    // Falls through to the 400 below.
  }
  throw badRequest(INVALID_CURSOR_MESSAGE);
}

function toHistoryEntry(mark: StudentMarkRow): HistoryEntry {
  return {
    date: mark.date,
    period: mark.period,
    class: mark.className,
    subject: mark.subjectCode === null ? null : { code: mark.subjectCode, name: mark.subjectName ?? mark.subjectCode },
    status: mark.status,
    present: attends(mark.status),
  };
}

/** The summary and per-subject figures of a term, from the student counters (never the marks). */
async function summaryOf(
  db: Executor,
  pin: string,
  range: TermRange,
  versions?: DataVersions,
): Promise<Pick<StudentRecord, 'summary' | 'subjects'>> {
  const rows = await countsOfStudent(db, pin, { termId: range.term === null ? undefined : range.term.id });
  const total = rows.reduce((sum, row) => addCounts(sum, row), { ...NO_MARKS });
  const bySubject = rows.filter((row) => row.subjectCode !== '');
  const names = await subjectsByCode(
    db,
    bySubject.map((row) => row.subjectCode),
    versions,
  );
  const subjects: SubjectSummary[] = bySubject
    .map((row) => {
      const summary = summarizeCounts(row);
      return {
        code: row.subjectCode,
        name: names.get(row.subjectCode)?.name ?? row.subjectCode,
        held: summary.totalDays,
        attended: summary.presentDays,
        percentage: summary.percentage,
        status: summary.status,
        canMiss: summary.canMiss,
      };
    })
    // A subject whose every mark was excused had no held lecture.
    .filter((subject) => subject.held > 0);
  return { summary: summarizeCounts(total), subjects };
}

/**
 * The data versions a student's record and days depend on (decision 52): the reports' (the
 * roster, profiles, subjects, terms, and every write of marks but a register's save) and the marks
 * of the student's class, which a save bumps for each class whose students' marks it changed. The
 * class is remembered per reports version (a move bumps it); a PIN on no roster follows every save.
 */
export async function recordVersion(db: Executor, versions: DataVersions, pin: string): Promise<string> {
  const reports = await versions.current(REPORTS);
  // Read under this reports version or a newer one: the tag names the class it counted, so an
  // answer kept under one class's version never matches another's.
  // The class's short hash is remembered with it, not computed at every request.
  const student = await versions.rememberPerKey(REPORTS, `class of ${pin}`, async () => {
    const className = (await findStudent(db, pin))?.className;
    return className === undefined ? null : { className, tag: createHash('sha256').update(className).digest('base64url').slice(0, 8) };
  });
  if (student === null) return `${reports}.${await versions.current(MARKS)}`;
  return `${reports}.${await versions.current(marksOfClass(student.className))}.${student.tag}`;
}

/** Staff see every PIN, a student only their own (403 with the portal's fixed words otherwise). */
export function assertCanSeeStudent(viewer: User, pin: string): void {
  if (!canSeeStudent(viewer, pin)) throw forbidden(OWN_RECORD_ONLY_MESSAGE);
}

/**
 * A student's record: profile, summary and subjects over a term, and a page of its history, put
 * together from the roster, the profiles, the counters and the marks. Found when a profile, a mark
 * or a roster entry exists, whatever the term: a student on the roster whose class has no
 * registers yet is a real student with zero days, not "no records".
 */
export async function getStudentRecord(
  db: Executor,
  viewer: User,
  pin: string,
  scope: RecordScope,
  page: HistoryPage = {},
): Promise<StudentRecord> {
  assertCanSeeStudent(viewer, pin);
  const limit = page.limit ?? HISTORY_PAGE_DEFAULT;
  const before = page.before === undefined ? undefined : decodeCursor(page.before);
  // The term is usually remembered (no query): the four reads then go out together.
  const range = await resolveTermRange(db, scope.term, todayIn(scope.timeZone, scope.now), scope.versions);
  const [profile, rosterStudent, rows, totals] = await Promise.all([
    findProfile(db, pin),
    findStudent(db, pin),
    // One row more than the page says whether there is a next page.
    listStudentMarks(db, pin, { limit: limit + 1, before, from: range.from, to: range.to }),
    summaryOf(db, pin, range, scope.versions),
  ]);
  // The roster is authoritative: anyone can register a profile for a PIN, so its name comes second.
  const name = rosterStudent?.name ?? profile?.name ?? rows[0]?.name ?? (await latestMarkOf(db, pin))?.name;
  if (name === undefined) throw notFound(STUDENT_NOT_FOUND_MESSAGE);

  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    pin,
    name,
    profile,
    ...totals,
    history: shown.map(toHistoryEntry),
    nextBefore: rows.length > limit && last ? encodeCursor(last) : null,
    term: range.term,
  };
}

/**
 * A student's days and months over the term (or the last twelve months): each day's marks by
 * status, and per month the marks that attend of those held. Reads the student's marks of that
 * range only, through the (pin, date) index.
 */
export async function getStudentDays(db: Executor, viewer: User, pin: string, scope: RecordScope): Promise<StudentDays> {
  assertCanSeeStudent(viewer, pin);
  const today = todayIn(scope.timeZone, scope.now);
  const range = await resolveTermRange(db, scope.term, today, scope.versions);
  const to = range.to ?? today;
  const from = range.from ?? addDays(to, -365);
  const days = await studentDayCounts(db, pin, from, to);
  const months = new Map<string, { attended: number; held: number }>();
  for (const day of days) {
    const month = day.date.slice(0, 7);
    const totals = months.get(month) ?? { attended: 0, held: 0 };
    totals.attended += day.present + day.late;
    totals.held += day.present + day.late + day.absent;
    months.set(month, totals);
  }
  return {
    from,
    to,
    days,
    months: [...months].map(([month, { attended, held }]) => ({ month, attended, held, percentage: percentage(attended, held) })),
  };
}

export interface StudentReport {
  filename: string;
  pdf: Buffer;
}

/** The PDF holds the whole history of the term, read page by page. */
const PDF_PAGE = 5000;

export async function getStudentReport(db: Executor, viewer: User, pin: string, scope: RecordScope): Promise<StudentReport> {
  const now = scope.now ?? new Date();
  const record = await getStudentRecord(db, viewer, pin, { ...scope, now }, { limit: PDF_PAGE });
  let next = record.nextBefore;
  while (next !== null) {
    const page = await getStudentRecord(db, viewer, pin, { ...scope, now }, { limit: PDF_PAGE, before: next });
    record.history.push(...page.history);
    next = page.nextBefore;
  }
  const pdf = await buildReportPdf(record, { generatedOn: todayIn(scope.timeZone, now), university: scope.university });
  return { filename: studentReportFilename(pin), pdf };
}

/** What the process knows of the data versions, as this module's routes hand it over. */
export type { DataVersions };
