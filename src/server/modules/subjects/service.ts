import type { Subject } from '../../../shared/schemas/subjects';
import type { Executor } from '../../db/client';
import * as repo from './repository';

export function toSubject(row: repo.SubjectRow): Subject {
  return { code: row.code, name: row.name };
}

export async function findSubject(db: Executor, code: string): Promise<Subject | undefined> {
  const row = await repo.findSubject(db, code);
  return row ? toSubject(row) : undefined;
}

/** The subjects with these codes, by code (codes with no subject are left out). */
export async function subjectsByCode(db: Executor, codes: readonly string[]): Promise<Map<string, Subject>> {
  const rows = await repo.subjectsByCode(db, codes);
  return new Map([...rows].map(([code, row]) => [code, toSubject(row)]));
}

export async function listSubjects(db: Executor): Promise<Subject[]> {
  return (await repo.listSubjects(db)).map(toSubject);
}
