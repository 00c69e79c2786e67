import type { RosterStudent } from '../../../shared/schemas/attendance';
import { toCsv } from '../../../shared/csv';
import type { Db, Executor } from '../../db/client';
import { assertClassExists } from '../classes/service';
import { bumpDataVersion, type DataVersions, REPORTS } from '../data-version/service';
import * as repo from './repository';
import type { RosterStudentRow } from './repository';

export type { RosterStudentRow } from './repository';

/** The columns of a roster file, as the export writes them and the import reads them. */
export const ROSTER_HEADER = ['pin', 'name', 'class'] as const;

export function toRosterStudent(row: RosterStudentRow): RosterStudent {
  return { pin: row.pin, name: row.name, class: row.className };
}

/** The roster entry of one PIN, withdrawn or not (a withdrawn student keeps their record). */
export function findStudent(db: Executor, pin: string): Promise<RosterStudentRow | undefined> {
  return repo.findStudent(db, pin);
}

/** Whether the PIN is on the roster now: a withdrawn student is not (no new profile, no new account). */
export function isOnRoster(db: Executor, pin: string): Promise<boolean> {
  return repo.isCurrentStudent(db, pin);
}

/** The students of one class, by PIN, as they are now; the class must exist. */
export async function listClassRoster(db: Executor, className: string): Promise<RosterStudentRow[]> {
  await assertClassExists(db, className);
  return repo.listClassRoster(db, className);
}

export async function getClassRoster(db: Executor, className: string): Promise<RosterStudent[]> {
  return (await listClassRoster(db, className)).map(toRosterStudent);
}

/**
 * Roster sizes by class name; a class with nobody on its roster is absent from the map. With
 * `versions`, read once per reports data version (every roster change bumps it): a register's save
 * does not, so the dashboard of a morning's saves counts 50,000 students once, not at every read.
 * The map is shared: read it, never change it.
 */
export function countByClass(db: Executor, versions?: Pick<DataVersions, 'remember'>): Promise<ReadonlyMap<string, number>> {
  return versions ? versions.remember(REPORTS, 'roster sizes', () => repo.countByClass(db)) : repo.countByClass(db);
}

export async function isRosterEmpty(db: Executor): Promise<boolean> {
  return (await repo.countStudents(db)) === 0;
}

/** Everyone the portal knows, withdrawn students too: what a roster file is compared with. */
export function listAllStudents(db: Executor): Promise<(RosterStudentRow & { withdrawnAt: Date | null })[]> {
  return repo.listAllStudents(db);
}

/**
 * Locks, in name order and in one statement, the classes these students are in and the classes
 * given, inside the caller's transaction: a write of students in several statements takes every
 * class it will touch at once, so that two such writes wait for each other instead of each
 * holding a class the other's next statement needs.
 */
export function lockClassesOf(tx: Executor, pins: readonly string[], destinations: readonly string[]): Promise<void> {
  return repo.lockClassesOf(tx, pins, destinations);
}

/** Adds or updates students checked by the caller, inside its transaction (a roster import). */
export function upsertStudents(tx: Executor, rows: RosterStudentRow[]): Promise<void> {
  return repo.upsertStudents(tx, rows);
}

/**
 * After a write of many students (a roster import's first file, a class moved whole): the
 * planner's statistics of the roster, which the embedded database has no autovacuum to renew.
 */
export function analyzeStudents(db: Executor, options: { accounts: boolean }): Promise<void> {
  return repo.analyzeStudents(db, options);
}

/** Withdraws the students of these PINs, inside the caller's transaction; answers how many were withdrawn now. */
export function withdrawStudents(tx: Executor, pins: string[]): Promise<number> {
  return repo.withdrawStudents(tx, pins);
}

/** Adds or updates students already checked by the caller (demo data, tests of other modules). */
export async function putStudents(db: Executor, rows: RosterStudentRow[]): Promise<void> {
  await db.transaction(async (tx) => {
    await repo.upsertStudents(tx, rows);
    await bumpDataVersion(tx);
  });
}

/**
 * The whole roster as CSV with a header line, in the format that importRoster reads. A name that a
 * spreadsheet would run as a formula is written with a leading apostrophe, which the import drops.
 */
export async function exportRoster(db: Db): Promise<{ csv: string; count: number }> {
  const rows = await repo.listRoster(db);
  return {
    csv: toCsv([...ROSTER_HEADER], rows.map((s) => [s.pin, s.name, s.className]), '\n'),
    count: rows.length,
  };
}
