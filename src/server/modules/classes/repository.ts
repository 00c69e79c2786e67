import { asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { classes, students } from '../../db/schema';

export type StudentRow = typeof students.$inferSelect;

/** PINs sort byte-wise so that PGlite and PostgreSQL (whatever its locale) list them alike. */
export const pinOrder = sql`${students.pin} collate "C"`;

export async function listClassesWithCounts(
  db: Executor,
  today: string,
): Promise<{ name: string; studentCount: number; todayTaken: boolean }[]> {
  // Written out in SQL: from a single table drizzle prints columns unqualified, which inside these
  // subqueries would name the inner table's column.
  return db
    .select({
      name: classes.name,
      studentCount: sql<number>`(select count(*) from students s where s.class_name = classes.name)::int`,
      todayTaken: sql<boolean>`exists (select 1 from attendance_sessions a where a.class_name = classes.name and a.date = ${today})`,
    })
    .from(classes)
    .orderBy(asc(classes.position), asc(classes.name));
}

export async function classExists(db: Executor, name: string): Promise<boolean> {
  const [row] = await db.select({ name: classes.name }).from(classes).where(eq(classes.name, name)).limit(1);
  return row !== undefined;
}

export function listClassRoster(db: Executor, className: string): Promise<StudentRow[]> {
  return db.select().from(students).where(eq(students.className, className)).orderBy(pinOrder);
}
