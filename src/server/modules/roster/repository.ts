import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { preparedOn } from '../../db/prepared-queries';
import { classes, students } from '../../db/schema';

/** A student on the roster: the PIN, the name and the class they are in now. */
export type RosterStudentRow = Pick<typeof students.$inferSelect, 'pin' | 'name' | 'className'>;

/** The columns of a RosterStudentRow. */
const rosterColumns = { pin: students.pin, name: students.name, className: students.className };

/** On the roster: not withdrawn. A withdrawn student keeps their record but leaves the class's register. */
const current = isNull(students.withdrawnAt);

/** PINs sort byte-wise so that PGlite and PostgreSQL (whatever its locale) list them alike. */
const pinOrder = sql`${students.pin} collate "C"`;

export async function findStudent(db: Executor, pin: string): Promise<RosterStudentRow | undefined> {
  // Prepared once per executor (db/prepared-queries.ts); unnamed, so that the database layer decides whether it is kept.
  const query = preparedOn(db, 'roster.findStudent', (on) =>
    on.select(rosterColumns).from(students).where(eq(students.pin, sql.placeholder('pin'))).limit(1).prepare(''),
  );
  const [row] = await query.execute({ pin });
  return row;
}

/** Whether a student of this PIN is on the roster now: known and not withdrawn. */
export async function isCurrentStudent(db: Executor, pin: string): Promise<boolean> {
  const [row] = await db.select({ pin: students.pin }).from(students).where(and(eq(students.pin, pin), current)).limit(1);
  return row !== undefined;
}

export function findStudents(db: Executor, pins: string[]): Promise<RosterStudentRow[]> {
  if (pins.length === 0) return Promise.resolve([]);
  return db.select(rosterColumns).from(students).where(inArray(students.pin, pins));
}

export function listClassRoster(db: Executor, className: string): Promise<RosterStudentRow[]> {
  return db.select(rosterColumns).from(students).where(and(eq(students.className, className), current)).orderBy(pinOrder);
}

/** The whole roster (withdrawn students left out), class by class in dashboard order, each class by PIN. */
export function listRoster(db: Executor): Promise<RosterStudentRow[]> {
  return db
    .select(rosterColumns)
    .from(students)
    .innerJoin(classes, eq(classes.name, students.className))
    .where(current)
    .orderBy(asc(classes.position), pinOrder);
}

/** Every student the portal knows, withdrawn ones included (with when they were withdrawn). */
export function listAllStudents(db: Executor): Promise<Array<RosterStudentRow & { withdrawnAt: Date | null }>> {
  return db
    .select({ ...rosterColumns, withdrawnAt: students.withdrawnAt })
    .from(students)
    .innerJoin(classes, eq(classes.name, students.className))
    .orderBy(asc(classes.position), pinOrder);
}

/** Withdraws these students (those already withdrawn keep their date); returns how many were withdrawn now. */
export async function withdrawStudents(db: Executor, pins: string[]): Promise<number> {
  if (pins.length === 0) return 0;
  const rows = await db
    .update(students)
    .set({ withdrawnAt: sql`now()` })
    .where(and(inArray(students.pin, pins), current))
    .returning({ pin: students.pin });
  return rows.length;
}

export async function countByClass(db: Executor): Promise<Map<string, number>> {
  const rows = await db
    .select({ className: students.className, count: sql<number>`count(*)::int` })
    .from(students)
    .where(current)
    .groupBy(students.className);
  return new Map(rows.map((row) => [row.className, row.count]));
}

export async function countStudents(db: Executor): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(students);
  return row?.count ?? 0;
}

/**
 * Locks, in name order, the classes these students are in and those they go to: a register's
 * save of such a class (which locks its class first) then either ends before the change or
 * starts after it, and so never writes a moved student's mark as one of its own roster's
 * (decision 52: the save renews the records of its class's students only).
 */
export async function lockClassesOf(db: Executor, pins: readonly string[], destinations: readonly string[]): Promise<void> {
  await db.execute(sql`select ${classes.name} from ${classes}
    where ${classes.name} in (select ${students.className} from ${students} where ${students.pin} = any(${sql.param([...pins])}::text[]))
       or ${classes.name} = any(${sql.param([...destinations])}::text[])
    order by ${classes.name} for no key update`);
}

/** Adds new students and updates the name and class of known PINs; a withdrawn student is back. */
export async function upsertStudents(db: Executor, rows: RosterStudentRow[]): Promise<void> {
  if (rows.length === 0) return;
  await lockClassesOf(
    db,
    rows.map((row) => row.pin),
    [...new Set(rows.map((row) => row.className))],
  );
  await db
    .insert(students)
    .values(rows)
    .onConflictDoUpdate({
      target: students.pin,
      set: { name: sql`excluded.name`, className: sql`excluded.class_name`, withdrawnAt: null },
    });
}

/** Brings the planner's statistics of the roster (and of the accounts, with `accounts`) up to date. */
export async function analyzeStudents(db: Executor, options: { accounts: boolean }): Promise<void> {
  await db.execute(options.accounts ? sql`analyze students, users` : sql`analyze students`);
}
