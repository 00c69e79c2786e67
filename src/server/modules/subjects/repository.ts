import { asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { subjects } from '../../db/schema';

export type SubjectRow = typeof subjects.$inferSelect;

export const SUBJECT_CODE_CONSTRAINT = 'subjects_pkey';

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

export async function insertSubject(db: Executor, row: { code: string; name: string }): Promise<SubjectRow> {
  const [created] = await db.insert(subjects).values(row).returning();
  if (!created) throw new Error('insert returned no subject');
  return created;
}

export async function renameSubject(db: Executor, code: string, name: string): Promise<SubjectRow | undefined> {
  const [updated] = await db.update(subjects).set({ name }).where(eq(subjects.code, code)).returning();
  return updated;
}
