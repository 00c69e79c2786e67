import { asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { subjects } from '../../db/schema';

export type SubjectRow = typeof subjects.$inferSelect;

export async function findSubject(db: Executor, code: string): Promise<SubjectRow | undefined> {
  const [row] = await db.select().from(subjects).where(eq(subjects.code, code));
  return row;
}

/** The subjects with these codes, by code. */
export async function subjectsByCode(db: Executor, codes: readonly string[]): Promise<Map<string, SubjectRow>> {
  if (codes.length === 0) return new Map();
  const rows = await db.select().from(subjects).where(inArray(subjects.code, [...codes]));
  return new Map(rows.map((row) => [row.code, row]));
}

export function listSubjects(db: Executor): Promise<SubjectRow[]> {
  return db.select().from(subjects).orderBy(asc(subjects.code));
}
