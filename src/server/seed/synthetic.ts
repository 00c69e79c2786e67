import { sql } from 'drizzle-orm';
import { addDays, todayIn } from '../../shared/dates';
import type { Db } from '../db/client';
import { addUser } from '../modules/accounts/service';
import { recordSyntheticHistory } from '../modules/attendance/service';
import { CLI } from '../modules/audit/service';
import { createClass, listClassNames } from '../modules/classes/service';
import { rebuildCounters } from '../modules/counters/service';
import { bumpDataVersion } from '../modules/data-version/service';
import { putStudents } from '../modules/roster/service';
import { createSubject } from '../modules/subjects/service';
import { createTerm } from '../modules/terms/service';
import { recordSyntheticTimetable } from '../modules/timetable/service';
import { DEMO_ADMIN, DEMO_FACULTY, DEMO_STUDENT, demoTerm, isEmptyDatabase, STUDENTS_PER_CLASS } from './demo';

export interface SyntheticOptions {
  /**
   * About how many marks to write. Unless `classes` is given, a term of TERM_DAYS week days with
   * as many classes as the marks need (a shorter history when they fill less than one class's
   * term); with `classes`, as many past week days as the marks need.
   */
  marks: number;
  /** Classes, named CSE1, CSE2, ... (default: as many as the marks need). */
  classes?: number;
  /** Students per class (default 60). */
  students?: number;
  /** Lectures a day, each a register of its own with its timetabled subject (default 8); 0: one whole-day register a day. */
  periods?: number;
  timeZone: string;
  now?: Date;
}

export interface SyntheticSummary {
  classes: number;
  students: number;
  /** Registers a day per class: 0 for one whole-day register. */
  periods: number;
  days: number;
  marks: number;
  from: string;
  to: string;
}

/** Week days of teaching in a term. */
export const TERM_DAYS = 90;

export const NOT_EMPTY_MESSAGE = 'demo-data fills an empty database only: this one already has accounts or a roster';

/** The past week days, newest first, starting yesterday. */
function pastWeekDays(today: string, count: number): string[] {
  const dates: string[] = [];
  for (let back = 1; dates.length < count; back += 1) {
    const date = addDays(today, -back);
    const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6) dates.push(date);
  }
  return dates;
}

/** Subject codes of the synthetic timetable: one per period of the day. */
export function syntheticSubjectCode(index: number): string {
  return `SYN${String(index + 1).padStart(2, '0')}`;
}

/** The subject a synthetic timetable gives a class (by its index) on a weekday (1 = Monday) and period (1 on). */
export function syntheticSubjectIndex(classIndex: number, weekday: number, period: number, periods: number): number {
  return (classIndex + weekday + period) % periods;
}

/**
 * `portal demo-data --marks N`: an empty database filled with a consistent synthetic
 * university of about N marks. By default one term's worth: TERM_DAYS past week days (fewer when
 * the marks fill less than one class's term), eight lectures a day, each a register with the
 * subject of the class's timetable, and as many classes of 60 students as the marks need
 * (36,000,000 marks: some 50,000 students). With `classes`, that many classes and as many past
 * week days as the marks need. Each student attends at their own rate (some fall below 75%, a few
 * marks late or excused); a current term (holding every date of a term's worth); the demo accounts; every counter
 * rebuilt from the marks. Set-based SQL: about a million marks a minute on PostgreSQL.
 */
export async function seedSynthetic(db: Db, options: SyntheticOptions): Promise<SyntheticSummary> {
  if (!(await isEmptyDatabase(db))) throw new Error(NOT_EMPTY_MESSAGE);
  const perClass = options.students ?? STUDENTS_PER_CLASS;
  const periods = options.periods ?? 8;
  const perDay = perClass * Math.max(1, periods);
  let classCount: number;
  let days: number;
  if (options.classes !== undefined) {
    classCount = options.classes;
    days = Math.max(1, Math.ceil(options.marks / (classCount * perDay)));
  } else {
    days = Math.max(1, Math.min(TERM_DAYS, Math.ceil(options.marks / perDay)));
    classCount = Math.max(1, Math.round(options.marks / (perDay * days)));
  }
  const classNames = Array.from({ length: classCount }, (_, index) => `CSE${index + 1}`);
  const today = todayIn(options.timeZone, options.now);
  const dates = pastWeekDays(today, days);
  const firstDate = dates[dates.length - 1]!;

  const existing = new Set(await listClassNames(db));
  for (const name of classNames) if (!existing.has(name)) await createClass(db, CLI, { name });

  const roster = classNames.flatMap((className, classIndex) =>
    Array.from({ length: perClass }, (_, serial) => ({
      pin: `24S${String(classIndex + 1).padStart(3, '0')}${String(serial + 1).padStart(4, '0')}`,
      name: `Student ${classIndex + 1}-${serial + 1}`,
      className,
    })),
  );
  // In parts: one statement's parameters are limited (65,535), and tens of thousands of students exceed them.
  for (let from = 0; from < roster.length; from += 5000) await putStudents(db, roster.slice(from, from + 5000));
  const faculty = await addUser(db, { ...DEMO_FACULTY, role: 'faculty' });
  await addUser(db, { ...DEMO_ADMIN, role: 'admin' });
  await addUser(db, { ...DEMO_STUDENT, name: roster[0]!.name, role: 'student', pin: roster[0]!.pin });
  // The demo's term; a term's worth of history (no `classes` given) begins it, so that every
  // register falls in it. A history of given classes reaching further back stays mostly outside.
  const term = demoTerm(today);
  const termShaped = options.classes === undefined;
  await createTerm(db, CLI, termShaped && firstDate < term.startsOn ? { ...term, startsOn: firstDate } : term, options.timeZone);

  if (periods > 0) {
    const subjectCodes = Array.from({ length: periods }, (_, index) => syntheticSubjectCode(index));
    for (const [index, code] of subjectCodes.entries()) await createSubject(db, CLI, { code, name: `Subject ${index + 1}` });
    await recordSyntheticTimetable(db, { classNames, subjectCodes });
  }

  const marks = await db.transaction(async (tx) => {
    const written = await recordSyntheticHistory(tx, { classNames, dates, periods, takenBy: faculty.id });
    await rebuildCounters(tx);
    await bumpDataVersion(tx);
    return written;
  });
  // The planner's statistics of what was just written, before anything reads it: without them a
  // large term's first reads (`portal alerts evaluate`, say) chose plans that read every mark.
  await db.execute(sql`analyze`);
  return {
    classes: classCount,
    students: roster.length,
    periods,
    days: dates.length,
    marks,
    from: firstDate,
    to: dates[0]!,
  };
}
