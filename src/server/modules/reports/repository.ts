import { and, asc, eq, gte, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { registers, classes, students, subjects } from '../../db/schema';

/** The dates a figure covers, both ends included; null on a side: no limit (all time). */
export interface DateRange {
  from: string | null;
  to: string | null;
}

const EVERY_DATE: DateRange = { from: null, to: null };

function registerDates(range: DateRange): SQL[] {
  const conditions: SQL[] = [];
  if (range.from !== null) conditions.push(gte(registers.date, range.from));
  if (range.to !== null) conditions.push(lte(registers.date, range.to));
  return conditions;
}

/**
 * Dashboard figures come from the per-register counters in attendance_sessions, so a dashboard
 * costs classes x days, whatever the number of marks (DESIGN.md section 4).
 */

export interface ClassCountsRow {
  className: string;
  totalStudents: number;
  present: number;
  absent: number;
}

/**
 * Every class (or one) with its roster size and the sums of the counters of its registers in the
 * range, in class order: `present` counts present and late marks.
 */
export function classCounts(db: Executor, className?: string, range: DateRange = EVERY_DATE): Promise<ClassCountsRow[]> {
  const conditions = registerDates(range);
  if (className !== undefined) conditions.push(eq(registers.className, className));
  const totals = db
    .select({
      className: registers.className,
      // Present and late attend (DESIGN.md 7.6); excused marks count in neither.
      present: sql<number>`sum(${registers.presentCount} + ${registers.lateCount})`.as('present'),
      absent: sql<number>`sum(${registers.absentCount})`.as('absent'),
    })
    .from(registers)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .groupBy(registers.className)
    .as('totals');
  const roster = db
    .select({
      className: students.className,
      size: sql<number>`count(*)`.as('size'),
    })
    .from(students)
    // Withdrawn students are off their class's register: not part of its size.
    .where(and(isNull(students.withdrawnAt), className === undefined ? undefined : eq(students.className, className)))
    .groupBy(students.className)
    .as('roster');
  return db
    .select({
      className: classes.name,
      totalStudents: sql<number>`coalesce(${roster.size}, 0)::int`,
      present: sql<number>`coalesce(${totals.present}, 0)::int`,
      absent: sql<number>`coalesce(${totals.absent}, 0)::int`,
    })
    .from(classes)
    .leftJoin(totals, eq(totals.className, classes.name))
    .leftJoin(roster, eq(roster.className, classes.name))
    .where(
      and(
        className === undefined ? undefined : eq(classes.name, className),
        // An archived class is reported only while it has registers in the range: its history stays.
        or(isNull(classes.archivedAt), isNotNull(totals.className)),
      ),
    )
    .orderBy(asc(classes.position), asc(classes.name));
}

export interface DayCountsRow {
  date: string;
  present: number;
  absent: number;
}

/** Attended (present and late) and absent marks per date from `from` to `to` (inclusive), every class merged, oldest first. */
export function dayCounts(db: Executor, from: string, to: string, className?: string): Promise<DayCountsRow[]> {
  const conditions: SQL[] = [gte(registers.date, from), lte(registers.date, to)];
  if (className !== undefined) conditions.push(eq(registers.className, className));
  return db
    .select({
      date: registers.date,
      present: sql<number>`sum(${registers.presentCount} + ${registers.lateCount})::int`,
      absent: sql<number>`sum(${registers.absentCount})::int`,
    })
    .from(registers)
    .where(and(...conditions))
    .groupBy(registers.date)
    .orderBy(asc(registers.date));
}

export interface SubjectCountsRow {
  code: string;
  name: string;
  lectures: number;
  held: number;
  attended: number;
}

/**
 * Per subject, the registers taken for it and their held (present, late, absent) and attended
 * (present, late) marks, from the register counters: one class's, or every class's; one term's
 * (`termId`), or every date's (undefined). Subjects with no register are left out; by code.
 */
export function subjectCounts(db: Executor, options: { className?: string | undefined; termId?: string | undefined }): Promise<SubjectCountsRow[]> {
  const conditions: SQL[] = [isNotNull(registers.subjectCode)];
  if (options.className !== undefined) conditions.push(eq(registers.className, options.className));
  if (options.termId !== undefined) conditions.push(eq(registers.termId, options.termId));
  return db
    .select({
      code: subjects.code,
      name: subjects.name,
      lectures: sql<number>`count(*)::int`,
      held: sql<number>`sum(${registers.presentCount} + ${registers.lateCount} + ${registers.absentCount})::int`,
      attended: sql<number>`sum(${registers.presentCount} + ${registers.lateCount})::int`,
    })
    .from(registers)
    .innerJoin(subjects, eq(subjects.code, registers.subjectCode))
    .where(and(...conditions))
    .groupBy(subjects.code, subjects.name)
    .orderBy(asc(subjects.code));
}
