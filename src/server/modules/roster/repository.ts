import { asc, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { classes, students } from '../../db/schema';

export type StudentRow = typeof students.$inferSelect;

export async function listClassNames(db: Executor): Promise<string[]> {
  const rows = await db.select({ name: classes.name }).from(classes).orderBy(asc(classes.position), asc(classes.name));
  return rows.map((r) => r.name);
}

export function findStudents(db: Executor, pins: string[]): Promise<StudentRow[]> {
  if (pins.length === 0) return Promise.resolve([]);
  return db.select().from(students).where(inArray(students.pin, pins));
}

/** Adds new students and updates the name and class of known PINs. */
export async function upsertStudents(db: Executor, rows: StudentRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(students)
    .values(rows)
    .onConflictDoUpdate({
      target: students.pin,
      set: { name: sql`excluded.name`, className: sql`excluded.class_name` },
    });
}

/** The whole roster, class by class, each by PIN. */
export function listRoster(db: Executor): Promise<StudentRow[]> {
  return db
    .select({ pin: students.pin, name: students.name, className: students.className })
    .from(students)
    .innerJoin(classes, sql`${classes.name} = ${students.className}`)
    .orderBy(asc(classes.position), sql`${students.pin} collate "C"`);
}
