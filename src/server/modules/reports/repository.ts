import { and, asc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { attendanceMarks, attendanceSessions, classes, students } from '../../db/schema';

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

/** Every class (or one) with its roster size and the sums of its registers' counters, in class order. */
export function classCounts(db: Executor, className?: string): Promise<ClassCountsRow[]> {
  const totals = db
    .select({
      className: attendanceSessions.className,
      present: sql<number>`sum(${attendanceSessions.presentCount})`.as('present'),
      absent: sql<number>`sum(${attendanceSessions.absentCount})`.as('absent'),
    })
    .from(attendanceSessions)
    .where(className === undefined ? undefined : eq(attendanceSessions.className, className))
    .groupBy(attendanceSessions.className)
    .as('totals');
  const roster = db
    .select({
      className: students.className,
      size: sql<number>`count(*)`.as('size'),
    })
    .from(students)
    .where(className === undefined ? undefined : eq(students.className, className))
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
    .where(className === undefined ? undefined : eq(classes.name, className))
    .orderBy(asc(classes.position), asc(classes.name));
}

export interface DayCountsRow {
  date: string;
  present: number;
  absent: number;
}

/** Present and absent per date from `from` to `to` (inclusive), every class merged, oldest first. */
export function dayCounts(db: Executor, from: string, to: string, className?: string): Promise<DayCountsRow[]> {
  const conditions: SQL[] = [gte(attendanceSessions.date, from), lte(attendanceSessions.date, to)];
  if (className !== undefined) conditions.push(eq(attendanceSessions.className, className));
  return db
    .select({
      date: attendanceSessions.date,
      present: sql<number>`sum(${attendanceSessions.presentCount})::int`,
      absent: sql<number>`sum(${attendanceSessions.absentCount})::int`,
    })
    .from(attendanceSessions)
    .where(and(...conditions))
    .groupBy(attendanceSessions.date)
    .orderBy(asc(attendanceSessions.date));
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
 */
export function studentCounts(
  db: Executor,
  options: { className?: string | undefined; below?: number | undefined },
): Promise<StudentCountsRow[]> {
  const presentDays = sql<number>`count(*) filter (where ${attendanceMarks.present})`;
  const days = sql<number>`count(*)`;
  const name = sql<string>`coalesce(max(${students.name}), (array_agg(${attendanceMarks.name} order by ${attendanceSessions.date} desc))[1])`;
  const className = sql<string>`coalesce(max(${students.className}), (array_agg(${attendanceMarks.className} order by ${attendanceSessions.date} desc))[1])`;

  const having: SQL[] = [];
  if (options.className !== undefined) having.push(sql`${className} = ${options.className}`);
  // Compared in whole numbers: 3 of 4 days is exactly 75 and is not below 75.
  if (options.below !== undefined) having.push(sql`${presentDays} * 100 < ${options.below}::numeric * ${days}`);

  return db
    .select({
      pin: attendanceMarks.pin,
      name,
      className,
      presentDays: sql<number>`${presentDays}::int`,
      absentDays: sql<number>`(${days} - ${presentDays})::int`,
    })
    .from(attendanceMarks)
    .innerJoin(attendanceSessions, eq(attendanceSessions.id, attendanceMarks.sessionId))
    .leftJoin(students, eq(students.pin, attendanceMarks.pin))
    .groupBy(attendanceMarks.pin)
    .having(having.length > 0 ? and(...having) : undefined)
    .orderBy(sql`${presentDays}::numeric / ${days}`, sql`${attendanceMarks.pin} collate "C"`);
}
