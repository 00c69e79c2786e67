import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client';
import { attendanceMarks, importedDocuments, profiles, registers } from '../../db/schema';

/** Keeps each statement well under PostgreSQL's limit of 65535 parameters. */
const CHUNK = 1000;

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < rows.length; start += CHUNK) out.push(rows.slice(start, start + CHUNK));
  return out;
}

/** Which of these keys earlier imports remembered. */
export async function findImportedKeys(db: Executor, keys: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunks(keys)) {
    const rows = await db.select({ key: importedDocuments.key }).from(importedDocuments).where(inArray(importedDocuments.key, part));
    for (const row of rows) found.add(row.key);
  }
  return found;
}

export async function rememberKeys(tx: Tx, keys: readonly string[]): Promise<void> {
  for (const part of chunks(keys)) {
    await tx
      .insert(importedDocuments)
      .values(part.map((key) => ({ key })))
      .onConflictDoNothing();
  }
}

/** The classes and dates among these dates that have a register of any period. */
export function listTakenDays(db: Executor, dates: readonly string[]): Promise<{ className: string; date: string }[]> {
  if (dates.length === 0) return Promise.resolve([]);
  return db
    .selectDistinct({ className: registers.className, date: registers.date })
    .from(registers)
    .where(sql`${registers.date} = any(${sql.param([...dates])}::date[])`);
}

/** The whole-day marks of these students on these dates. */
export async function listMarkedDays(db: Executor, pins: readonly string[], dates: readonly string[]): Promise<{ pin: string; date: string }[]> {
  if (pins.length === 0 || dates.length === 0) return [];
  return db
    .select({ pin: attendanceMarks.pin, date: attendanceMarks.date })
    .from(attendanceMarks)
    .where(
      and(
        eq(attendanceMarks.period, 0),
        sql`${attendanceMarks.date} = any(${sql.param([...dates])}::date[])`,
        sql`${attendanceMarks.pin} = any(${sql.param([...pins])}::text[])`,
      ),
    );
}

export async function listProfilePins(db: Executor): Promise<string[]> {
  return (await db.select({ pin: profiles.pin }).from(profiles)).map((row) => row.pin);
}

export async function insertProfiles(tx: Tx, rows: readonly (typeof profiles.$inferInsert)[]): Promise<void> {
  for (const part of chunks(rows)) await tx.insert(profiles).values(part);
}

/** The planner's statistics of the tables an import fills, taken again once it has committed. */
export async function analyzeImported(db: Executor): Promise<void> {
  await db.execute(sql`analyze attendance_marks, attendance_sessions, student_counters, students, profiles`);
}
