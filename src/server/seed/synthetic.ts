import { addDays, todayIn } from '../../shared/dates';
import { CLASS_NAMES } from '../../shared/constants';
import type { Db } from '../db/client';
import { addUser } from '../modules/accounts/service';
import { recordSyntheticHistory } from '../modules/attendance/service';
import { CLI } from '../modules/audit/service';
import { createClass, listClassNames } from '../modules/classes/service';
import { rebuildCounters } from '../modules/counters/service';
import { bumpDataVersion } from '../modules/data-version/service';
import { putStudents } from '../modules/roster/service';
import { createTerm } from '../modules/terms/service';
import { DEMO_ADMIN, DEMO_FACULTY, DEMO_STUDENT, demoTerm, isEmptyDatabase, STUDENTS_PER_CLASS } from './demo';

export interface SyntheticOptions {
  /** About how many marks to write: more marks means more past week days. */
  marks: number;
  /** Classes (default eight, CSE1 to CSE8); more are named CSE9, CSE10, ... */
  classes?: number;
  /** Students per class (default 60). */
  students?: number;
  timeZone: string;
  now?: Date;
}

export interface SyntheticSummary {
  classes: number;
  students: number;
  days: number;
  marks: number;
  from: string;
  to: string;
}

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

/**
 * `portal demo-data --marks N`: an empty database filled with a consistent synthetic
 * university of about N marks: C classes of S students (8 x 60 unless told), a whole-day register of
 * every class on each of enough past week days, each student attending at their own rate (some fall
 * below 75%, a few marks late or excused), a current term, the demo accounts, and every counter
 * rebuilt from the marks. Set-based SQL: about a million marks a minute on PostgreSQL.
 */
export async function seedSynthetic(db: Db, options: SyntheticOptions): Promise<SyntheticSummary> {
  if (!(await isEmptyDatabase(db))) throw new Error(NOT_EMPTY_MESSAGE);
  const classCount = options.classes ?? CLASS_NAMES.length;
  const perClass = options.students ?? STUDENTS_PER_CLASS;
  const classNames = Array.from({ length: classCount }, (_, index) => `CSE${index + 1}`);
  const days = Math.max(1, Math.ceil(options.marks / (classCount * perClass)));
  const today = todayIn(options.timeZone, options.now);
  const dates = pastWeekDays(today, days);

  const existing = new Set(await listClassNames(db));
  for (const name of classNames) if (!existing.has(name)) await createClass(db, CLI, { name });

  const roster = classNames.flatMap((className, classIndex) =>
    Array.from({ length: perClass }, (_, serial) => ({
      pin: `24S${String(classIndex + 1).padStart(3, '0')}${String(serial + 1).padStart(4, '0')}`,
      name: `Student ${classIndex + 1}-${serial + 1}`,
      className,
    })),
  );
  await putStudents(db, roster);
  const faculty = await addUser(db, { ...DEMO_FACULTY, role: 'faculty' });
  await addUser(db, { ...DEMO_ADMIN, role: 'admin' });
  await addUser(db, { ...DEMO_STUDENT, name: roster[0]!.name, role: 'student', pin: roster[0]!.pin });
  await createTerm(db, CLI, demoTerm(today), options.timeZone);

  const marks = await db.transaction(async (tx) => {
    const written = await recordSyntheticHistory(tx, { classNames, dates, takenBy: faculty.id });
    await rebuildCounters(tx);
    await bumpDataVersion(tx);
    return written;
  });
  return {
    classes: classCount,
    students: roster.length,
    days: dates.length,
    marks,
    from: dates[dates.length - 1]!,
    to: dates[0]!,
  };
}
