import type { CreateClassInput, UpdateClassInput } from '../../../shared/schemas/classes';
import type { Executor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { conflict, notFound } from '../../http-error';
import { actorOf, recordAudit, type Actor } from '../audit/service';
import { bumpDataVersion } from '../data-version/service';
import * as repo from './repository';

/** A class as other modules see it: its name, its place in the order, and whether it is archived. */
export interface ClassInfo {
  name: string;
  position: number;
  archived: boolean;
}

/** Who changes a class: a signed-in account, or an actor such as the CLI. */
export type ClassEditor = Actor | { id: string; email: string };

function actorFor(editor: ClassEditor): Actor {
  return 'email' in editor ? actorOf(editor) : editor;
}

function toInfo(row: repo.ClassRow): ClassInfo {
  return { name: row.name, position: row.position, archived: row.archivedAt !== null };
}

export const classNotFoundMessage = (name: string) => `Class ${name} does not exist`;
const takenMessage = (name: string) => `A class named ${name} already exists`;

/** Every class, archived ones included, in dashboard order. */
export function listClassNames(db: Executor): Promise<string[]> {
  return repo.listClassNames(db);
}

/** The classes on the dashboard (not archived), in order: the ones that take new registers and students. */
export function listActiveClassNames(db: Executor): Promise<string[]> {
  return repo.listActiveClassNames(db);
}

/** Every class, archived ones included, in dashboard order, each saying whether it is archived. */
export async function listAllClasses(db: Executor): Promise<ClassInfo[]> {
  return (await repo.listClasses(db)).map(toInfo);
}

/** One class, archived or not; undefined when the portal has no class of that name. */
export async function findClass(db: Executor, name: string): Promise<ClassInfo | undefined> {
  const row = await repo.findClass(db, name);
  return row ? toInfo(row) : undefined;
}

/** Throws the API's 404 when the class is not one of the portal's classes (archived ones included). */
export async function assertClassExists(db: Executor, className: string): Promise<void> {
  if (!(await repo.classExists(db, className))) throw notFound(classNotFoundMessage(className));
}

/** The refusal for a new register or a new student in an archived class. */
export function archivedMessage(className: string): string {
  return `Class ${className} is archived: its history can be read, but it takes no new registers or students`;
}

/**
 * Throws 404 for an unknown class and 409 for an archived one: what may get a new register (or
 * new students) must be on the dashboard.
 */
export async function assertClassOpen(db: Executor, className: string): Promise<void> {
  const row = await repo.findClass(db, className);
  if (!row) throw notFound(classNotFoundMessage(className));
  if (row.archivedAt !== null) throw conflict(archivedMessage(className));
}

/**
 * Inside a register save: locks the class (see repository `lockClass`) and refuses an unknown
 * (404) or archived (409) one, so that an archive cannot slip in between the check and the save.
 */
export async function lockOpenClass(tx: Executor, className: string): Promise<void> {
  const row = await repo.lockClass(tx, className);
  if (!row) throw notFound(classNotFoundMessage(className));
  if (row.archivedAt !== null) throw conflict(archivedMessage(className));
}

/** Refuses a name another class has, ignoring case (the class being renamed may change its own case). */
async function assertNameFree(tx: Executor, name: string, except?: string): Promise<void> {
  const same = await repo.findClassNamedLike(tx, name);
  if (same && same.name !== except) throw conflict(takenMessage(same.name));
}

/** The primary key is the last word should a name slip past the check. */
function duplicateName(error: unknown, name: string): unknown {
  return isUniqueViolation(error, 'classes_pkey') ? conflict(takenMessage(name)) : error;
}

/** Adds a class at the end of the order; answers its name. */
export async function createClass(db: Executor, editor: ClassEditor, input: CreateClassInput): Promise<string> {
  try {
    await db.transaction(async (tx) => {
      await repo.lockClassesForChange(tx);
      await assertNameFree(tx, input.name);
      const rows = await repo.listClasses(tx);
      const position = rows.reduce((max, row) => Math.max(max, row.position), 0) + 1;
      await repo.insertClass(tx, input.name, position);
      await recordAudit(tx, actorFor(editor), 'class.create', input.name, { position: rows.length + 1 });
      await bumpDataVersion(tx);
    });
  } catch (error) {
    throw duplicateName(error, input.name);
  }
  return input.name;
}

/**
 * Adds classes at the end of the order inside the caller's transaction, which audits them (an
 * import of old data, whose one entry names them).
 */
export async function appendClasses(tx: Executor, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  await repo.lockClassesForChange(tx);
  for (const name of names) await assertNameFree(tx, name);
  const rows = await repo.listClasses(tx);
  let position = rows.reduce((max, row) => Math.max(max, row.position), 0);
  for (const name of names) await repo.insertClass(tx, name, ++position);
}

/**
 * Moves a class to a place in the order (1-based; past the end means last), renumbering every
 * class 1..n. Returns the class's place before and after.
 */
async function moveClass(tx: Executor, name: string, position: number): Promise<{ from: number; to: number }> {
  const rows = await repo.listClasses(tx);
  const names = rows.map((row) => row.name);
  const from = names.indexOf(name) + 1;
  const to = Math.min(position, names.length);
  const order = names.filter((other) => other !== name);
  order.splice(to - 1, 0, name);
  const current = new Map(rows.map((row) => [row.name, row.position]));
  for (const [index, other] of order.entries()) {
    if (current.get(other) !== index + 1) await repo.setPosition(tx, other, index + 1);
  }
  return { from, to };
}

/**
 * Renames, moves, archives or restores a class, in one transaction with its audit entry. A rename
 * is a correction: the registers, marks and roster that name the class follow it (foreign keys
 * with ON UPDATE CASCADE; nothing else stores a class name but the audit trail, which keeps what
 * was true when it was written). Answers the class's name after the change.
 */
export async function updateClass(db: Executor, editor: ClassEditor, name: string, changes: UpdateClassInput): Promise<string> {
  let finalName = name;
  try {
    await db.transaction(async (tx) => {
      await repo.lockClassesForChange(tx);
      const before = await repo.findClass(tx, name);
      if (!before) throw notFound(classNotFoundMessage(name));
      const detail: Record<string, { from: unknown; to: unknown }> = {};

      if (changes.name !== undefined && changes.name !== before.name) {
        await assertNameFree(tx, changes.name, before.name);
        await repo.renameClass(tx, before.name, changes.name);
        detail.name = { from: before.name, to: changes.name };
        finalName = changes.name;
      }
      if (changes.archived !== undefined && changes.archived !== (before.archivedAt !== null)) {
        await repo.setArchived(tx, finalName, changes.archived ? new Date() : null);
        detail.archived = { from: !changes.archived, to: changes.archived };
      }
      if (changes.position !== undefined) {
        const moved = await moveClass(tx, finalName, changes.position);
        if (moved.from !== moved.to) detail.position = moved;
      }

      if (Object.keys(detail).length > 0) {
        await recordAudit(tx, actorFor(editor), 'class.update', finalName, detail);
        await bumpDataVersion(tx);
      }
    });
  } catch (error) {
    throw duplicateName(error, changes.name ?? name);
  }
  return finalName;
}
