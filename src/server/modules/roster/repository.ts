import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { classes, students } from '../../db/schema';

/** A student on the roster: the PIN, the name and the class they are in now. */
export type RosterStudentRow = Pick<typeof students.$inferSelect, 'pin' | 'name' | 'className'>;

/** The columns of a RosterStudentRow. */
const rosterColumns = { pin: students.pin, name: students.name, className: students.className };

/** PINs sort byte-wise so that PGlite and PostgreSQL (whatever its locale) list them alike. */
const pinOrder = sql`${students.pin} collate "C"`;

export async function findStudent(db: Executor, pin: string): Promise<RosterStudentRow | undefined> {
  const [row] = await db.select(rosterColumns).from(students).where(eq(students.pin, pin)).limit(1);
  return row;
}

export function findStudents(db: Executor, pins: string[]): Promise<RosterStudentRow[]> {
  if (pins.length === 0) return Promise.resolve([]);
  return db.select(rosterColumns).from(students).where(inArray(students.pin, pins));
}

export function listClassRoster(db: Executor, className: string): Promise<RosterStudentRow[]> {
  return db.select(rosterColumns).from(students).where(eq(students.className, className)).orderBy(pinOrder);
}

/** The whole roster, class by class in dashboard order, each class by PIN. */
export function listRoster(db: Executor): Promise<RosterStudentRow[]> {
  return db
    .select(rosterColumns)
    .from(students)
    .innerJoin(classes, eq(classes.name, students.className))
    .orderBy(asc(classes.position), pinOrder);
}

export async function countByClass(db: Executor): Promise<Map<string, number>> {
  const rows = await db
    .select({ className: students.className, count: sql<number>`count(*)::int` })
    .from(students)
    .groupBy(students.className);
  return new Map(rows.map((row) => [row.className, row.count]));
}

export async function countStudents(db: Executor): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(students);
  return row?.count ?? 0;
}

/** Adds new students and updates the name and class of known PINs. */
export async function upsertStudents(db: Executor, rows: RosterStudentRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(students)
    .values(rows)
    .onConflictDoUpdate({
      target: students.pin,
      set: { name: sql`excluded.name`, className: sql`excluded.class_name` },
    });
}
