import { subjectNotFoundMessage, type CreateSubjectInput, type Subject } from '../../../shared/schemas/subjects';
import type { Executor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { conflict, notFound } from '../../http-error';
import { actorOf, recordAudit, type Actor } from '../audit/service';
import { bumpDataVersion, type DataVersions, REPORTS } from '../data-version/service';
import * as repo from './repository';

/** Who changes subjects: a signed-in admin, or an actor such as the CLI. */
export type SubjectEditor = Actor | { id: string; email: string };

function actorFor(editor: SubjectEditor): Actor {
  return 'email' in editor ? actorOf(editor) : editor;
}

export function toSubject(row: repo.SubjectRow): Subject {
  return { code: row.code, name: row.name };
}

export async function findSubject(db: Executor, code: string): Promise<Subject | undefined> {
  const row = await repo.findSubject(db, code.trim().toUpperCase());
  return row ? toSubject(row) : undefined;
}

/**
 * The subjects with these codes, by code (codes with no subject are left out). With `versions`,
 * every subject is read once per reports data version (every change of a subject bumps it) and
 * the codes are looked up in memory: what reports and records do for each student they show.
 */
export async function subjectsByCode(
  db: Executor,
  codes: readonly string[],
  versions?: Pick<DataVersions, 'remember'>,
): Promise<Map<string, Subject>> {
  if (codes.length === 0) return new Map();
  if (versions) {
    const every = await versions.remember(REPORTS, 'subjects', () => listSubjects(db));
    const wanted = new Set(codes);
    return new Map(every.filter((subject) => wanted.has(subject.code)).map((subject) => [subject.code, subject]));
  }
  const rows = await repo.subjectsByCode(db, codes);
  return new Map([...rows].map(([code, row]) => [code, toSubject(row)]));
}

/** Every subject, by code. */
export async function listSubjects(db: Executor): Promise<Subject[]> {
  return (await repo.listSubjects(db)).map(toSubject);
}

const duplicate = (code: string) => conflict(`There is already a subject with the code ${code}`);

/** POST /api/admin/subjects: 409 when the code is taken. */
export async function createSubject(db: Executor, editor: SubjectEditor, input: CreateSubjectInput): Promise<Subject> {
  try {
    return await db.transaction(async (tx) => {
      if (await repo.findSubject(tx, input.code)) throw duplicate(input.code);
      const row = await repo.insertSubject(tx, input);
      await recordAudit(tx, actorFor(editor), 'subject.create', row.code, { name: row.name });
      await bumpDataVersion(tx);
      return toSubject(row);
    });
  } catch (error) {
    throw isUniqueViolation(error, repo.SUBJECT_CODE_CONSTRAINT) ? duplicate(input.code) : error;
  }
}

/** PATCH /api/admin/subjects/:code: a new name; the code never changes (registers and counters keep it). */
export async function renameSubject(db: Executor, editor: SubjectEditor, code: string, name: string): Promise<Subject> {
  const key = code.trim().toUpperCase();
  return db.transaction(async (tx) => {
    const before = await repo.findSubject(tx, key);
    if (!before) throw notFound(subjectNotFoundMessage(key));
    if (before.name === name) return toSubject(before);
    const row = await repo.renameSubject(tx, key, name);
    if (!row) throw notFound(subjectNotFoundMessage(key));
    await recordAudit(tx, actorFor(editor), 'subject.update', key, { name: { from: before.name, to: name } });
    await bumpDataVersion(tx);
    return toSubject(row);
  });
}
