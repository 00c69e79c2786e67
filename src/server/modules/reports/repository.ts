import { and, asc, desc, eq, gte, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { attendanceMarks, registers, classes, students } from '../../db/schema';

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
 * range, in class order.
 */
export function classCounts(db: Executor, className?: string, range: DateRange = EVERY_DATE): Promise<ClassCountsRow[]> {
  const conditions = registerDates(range);
  if (className !== undefined) conditions.push(eq(registers.className, className));
  const totals = db
    .select({
      className: registers.className,
      present: sql<number>`sum(${registers.presentCount})`.as('present'),
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

/** Present and absent per date from `from` to `to` (inclusive), every class merged, oldest first. */
export function dayCounts(db: Executor, from: string, to: string, className?: string): Promise<DayCountsRow[]> {
  const conditions: SQL[] = [gte(registers.date, from), lte(registers.date, to)];
  if (className !== undefined) conditions.push(eq(registers.className, className));
  return db
    .select({
      date: registers.date,
      present: sql<number>`sum(${registers.presentCount})::int`,
      absent: sql<number>`sum(${registers.absentCount})::int`,
    })
    .from(registers)
    .where(and(...conditions))
    .groupBy(registers.date)
    .orderBy(asc(registers.date));
}

export interface StudentCountsRow {
  pin: string;
  name: string;
  className: string;
  presentDays: number;
  absentDays: number;
}

/**
 * Present and absent days of every student who has a mark, lowest percentage first (then by PIN).
 * A student's name and class are the roster's; for someone no longer on the roster, those of
 * their latest mark. `below` keeps only percentages strictly under it.
 *
 * The marks are counted per PIN first (one pass, no join), and only students missing from the
 * roster look up their latest mark. With a class, only that class's possible students are counted:
 * its roster, and whoever has a mark in one of its registers. With a range (a term), only the marks
 * of registers on those dates count, and a student with none is not listed.
 */
export function studentCounts(
  db: Executor,
  options: { className?: string | undefined; below?: number | undefined; range?: DateRange },
): Promise<StudentCountsRow[]> {
  const { className, below, range = EVERY_DATE } = options;
  const candidates =
    className === undefined
      ? undefined
      : sql`${attendanceMarks.pin} in (
          select r.pin from students r where r.class_name = ${className}
          union
          select m2.pin from attendance_marks m2 join attendance_sessions s2 on s2.id = m2.session_id
          where s2.class_name = ${className})`;
  // Only the marks of registers in the range: a term's figures.
  const dates = registerDates(range);
  const inRange =
    dates.length === 0
      ? undefined
      : sql`${attendanceMarks.registerId} in (select ${registers.id} from ${registers} where ${and(...dates)})`;
  const counts = db.$with('counts').as(
    db
      .select({
        pin: attendanceMarks.pin,
        presentDays: sql<number>`count(*) filter (where ${attendanceMarks.present})::int`.as('present_days'),
        days: sql<number>`count(*)::int`.as('days'),
      })
      .from(attendanceMarks)
      .where(and(candidates, inRange))
      .groupBy(attendanceMarks.pin),
  );
  const latest = db
    .select({ name: attendanceMarks.name, className: attendanceMarks.className })
    .from(attendanceMarks)
    .innerJoin(registers, eq(registers.id, attendanceMarks.registerId))
    .where(and(sql`${attendanceMarks.pin} = ${counts.pin}`, isNull(students.pin)))
    .orderBy(desc(registers.date))
    .limit(1)
    .as('latest');

  const studentClass = sql<string>`coalesce(${students.className}, ${latest.className})`;
  const conditions: SQL[] = [];
  if (className !== undefined) conditions.push(sql`${studentClass} = ${className}`);
  // Compared in whole numbers: 3 of 4 days is exactly 75 and is not below 75.
  if (below !== undefined) conditions.push(sql`${counts.presentDays} * 100 < ${below}::numeric * ${counts.days}`);

  return db
    .with(counts)
    .select({
      pin: counts.pin,
      name: sql<string>`coalesce(${students.name}, ${latest.name})`,
      className: studentClass,
      presentDays: counts.presentDays,
      absentDays: sql<number>`${counts.days} - ${counts.presentDays}`,
    })
    .from(counts)
    .leftJoin(students, eq(students.pin, counts.pin))
    .leftJoinLateral(latest, sql`true`)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(sql`${counts.presentDays}::numeric / ${counts.days}`, sql`${counts.pin} collate "C"`);
}
