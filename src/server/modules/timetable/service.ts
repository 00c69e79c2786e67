import type { Executor } from '../../db/client';
import * as repo from './repository';

export type { SlotRow } from './repository';

/** The ISO weekday of a `YYYY-MM-DD` date: 1 = Monday .. 7 = Sunday. */
export function weekdayOf(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

/** A class's timetabled periods on the weekday of `date`, in period order. */
export function periodsOn(db: Executor, className: string, date: string): Promise<repo.SlotRow[]> {
  return repo.slotsOn(db, className, weekdayOf(date));
}

export function timetableOf(db: Executor, className: string): Promise<repo.SlotRow[]> {
  return repo.slotsOf(db, className);
}
