import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { subjects, timetableSlots } from '../../db/schema';

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

/** A class's periods on one weekday (1 = Monday), in period order. */
export function slotsOn(db: Executor, className: string, weekday: number): Promise<SlotRow[]> {
  return db
    .select(slotColumns)
    .from(timetableSlots)
    .innerJoin(subjects, eq(subjects.code, timetableSlots.subjectCode))
    .where(and(eq(timetableSlots.className, className), eq(timetableSlots.weekday, weekday)))
    .orderBy(asc(timetableSlots.period));
}

/** A class's whole week, by weekday and period. */
export function slotsOf(db: Executor, className: string): Promise<SlotRow[]> {
  return db
    .select(slotColumns)
    .from(timetableSlots)
    .innerJoin(subjects, eq(subjects.code, timetableSlots.subjectCode))
    .where(eq(timetableSlots.className, className))
    .orderBy(asc(timetableSlots.weekday), asc(timetableSlots.period));
}

/** Replaces a class's whole week with these slots. */
export async function replaceSlots(
  db: Executor,
  className: string,
  slots: readonly { weekday: number; period: number; subjectCode: string }[],
): Promise<void> {
  await db.delete(timetableSlots).where(eq(timetableSlots.className, className));
  if (slots.length > 0) await db.insert(timetableSlots).values(slots.map((slot) => ({ className, ...slot })));
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
