import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { periods, subjects, timetableSlots, users } from '../../db/schema';

export interface SlotRow {
  weekday: number;
  period: number;
  subjectCode: string;
  subjectName: string;
}

const slotColumns = {
  weekday: timetableSlots.weekday,
  period: timetableSlots.period,
  subjectCode: timetableSlots.subjectCode,
  subjectName: subjects.name,
};

export interface WeekSlotRow extends SlotRow {
  teacherId: string | null;
  teacherName: string | null;
  teacherEmail: string | null;
}

/** A class's periods on one weekday (1 = Monday), in period order. */
export function slotsOn(db: Executor, className: string, weekday: number): Promise<SlotRow[]> {
  return db
    .select(slotColumns)
    .from(timetableSlots)
    .innerJoin(subjects, eq(subjects.code, timetableSlots.subjectCode))
    .where(and(eq(timetableSlots.className, className), eq(timetableSlots.weekday, weekday)))
    .orderBy(asc(timetableSlots.period));
}

/** A class's whole week, by weekday and period, with each slot's teacher (their name and e-mail joined for display). */
export function slotsOf(db: Executor, className: string): Promise<WeekSlotRow[]> {
  return db
    .select({ ...slotColumns, teacherId: timetableSlots.teacherId, teacherName: users.name, teacherEmail: users.email })
    .from(timetableSlots)
    .innerJoin(subjects, eq(subjects.code, timetableSlots.subjectCode))
    .leftJoin(users, eq(users.id, timetableSlots.teacherId))
    .where(eq(timetableSlots.className, className))
    .orderBy(asc(timetableSlots.weekday), asc(timetableSlots.period));
}

/** The slots of these classes on one weekday with their teacher's id, by class and period. */
export function slotsOnWeekday(
  db: Executor,
  weekday: number,
  classNames: readonly string[],
): Promise<{ className: string; period: number; subjectCode: string; teacherId: string | null }[]> {
  if (classNames.length === 0) return Promise.resolve([]);
  return db
    .select({ className: timetableSlots.className, period: timetableSlots.period, subjectCode: timetableSlots.subjectCode, teacherId: timetableSlots.teacherId })
    .from(timetableSlots)
    // One array parameter: the statement's text is the same for any number of classes (decision 20).
    .where(and(eq(timetableSlots.weekday, weekday), sql`${timetableSlots.className} = any(${sql.param(classNames)}::text[])`))
    .orderBy(asc(timetableSlots.className), asc(timetableSlots.period));
}

/** Replaces a class's whole week with these slots. */
export async function replaceSlots(
  db: Executor,
  className: string,
  slots: readonly { weekday: number; period: number; subjectCode: string; teacherId: string | null }[],
): Promise<void> {
  await db.delete(timetableSlots).where(eq(timetableSlots.className, className));
  if (slots.length > 0) await db.insert(timetableSlots).values(slots.map((slot) => ({ className, ...slot })));
}

export interface PeriodRow {
  period: number;
  startsAt: string;
  endsAt: string;
}

/** The day's period times, by period. */
export function listPeriods(db: Executor): Promise<PeriodRow[]> {
  return db.select({ period: periods.period, startsAt: periods.startsAt, endsAt: periods.endsAt }).from(periods).orderBy(asc(periods.period));
}

/** Replaces every period's times with these (a period left out has none); returns the times it had. */
export async function replacePeriods(db: Executor, rows: readonly PeriodRow[]): Promise<PeriodRow[]> {
  // Two replacements at once run one after the other: the second would otherwise insert beside
  // the first's rows, which its delete did not see, and fail on the period's key.
  await db.execute(sql`lock table periods in exclusive mode`);
  const before = await db.delete(periods).returning({ period: periods.period, startsAt: periods.startsAt, endsAt: periods.endsAt });
  if (rows.length > 0) await db.insert(periods).values(rows.map((row) => ({ period: row.period, startsAt: row.startsAt, endsAt: row.endsAt })));
  return before.sort((a, b) => a.period - b.period);
}

/**
 * A synthetic week for benchmarks (`portal demo-data`): every class, Monday to Friday, periods 1 to
 * `codes.length`, the subject of class i (from 0), weekday w and period p being codes[(i + w + p) mod n].
 */
export async function insertSyntheticWeek(db: Executor, classNames: readonly string[], codes: readonly string[]): Promise<void> {
  await db.execute(sql`
    insert into timetable_slots (class_name, weekday, period, subject_code)
    select c.name, w.day, p.period, (${sql.param(codes)}::text[])[((c.position - 1 + w.day + p.period) % ${codes.length}) + 1]
    from unnest(${sql.param(classNames)}::text[]) with ordinality as c(name, position)
    cross join generate_series(1, 5) as w(day)
    cross join generate_series(1, ${codes.length}::int) as p(period)`);
}
