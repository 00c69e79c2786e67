import type { ClassSummary, RosterStudent } from '../../../shared/schemas/attendance';
import { todayIn } from '../../../shared/dates';
import type { Executor } from '../../db/client';
import { notFound } from '../../http-error';
import * as repo from './repository';
import type { StudentRow } from './repository';

export function toRosterStudent(row: StudentRow): RosterStudent {
  return { pin: row.pin, name: row.name, class: row.className };
}

export function listClasses(db: Executor, timeZone: string, now = new Date()): Promise<ClassSummary[]> {
  return repo.listClassesWithCounts(db, todayIn(timeZone, now));
}

/** Throws the API's 404 when the class is not one of the portal's classes. */
export async function assertClassExists(db: Executor, className: string): Promise<void> {
  if (!(await repo.classExists(db, className))) throw notFound(`Class ${className} does not exist`);
}

export async function getRoster(db: Executor, className: string): Promise<RosterStudent[]> {
  await assertClassExists(db, className);
  const rows = await repo.listClassRoster(db, className);
  return rows.map(toRosterStudent);
}
