import { and, asc, eq } from 'drizzle-orm';
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
