/**
 * The admin's table of classes: each class with its roster size and how many registers it has. It
 * combines three owners (classes, the roster, registers), so it sits above them all.
 */
import type { AdminClass, CreateClassInput, UpdateClassInput } from '../../../shared/schemas/classes';
import type { Executor } from '../../db/client';
import { notFound } from '../../http-error';
import { countRegistersByClass } from '../attendance/service';
import * as classes from '../classes/service';
import { countByClass } from '../roster/service';

/** GET /api/admin/classes: every class in order, with its roster size and how many registers it has. */
export async function listClassesForAdmin(db: Executor): Promise<AdminClass[]> {
  const [rows, students, registers] = await Promise.all([classes.listAllClasses(db), countByClass(db), countRegistersByClass(db)]);
  return rows.map((row, index) => ({
    name: row.name,
    position: index + 1,
    archived: row.archived,
    students: students.get(row.name) ?? 0,
    registers: registers.get(row.name) ?? 0,
  }));
}

async function adminClass(db: Executor, name: string): Promise<AdminClass> {
  const found = (await listClassesForAdmin(db)).find((row) => row.name === name);
  if (!found) throw notFound(classes.classNotFoundMessage(name));
  return found;
}

/** Adds a class at the end of the order (the classes module's rules) and answers its row of the table. */
export async function createClass(db: Executor, editor: classes.ClassEditor, input: CreateClassInput): Promise<AdminClass> {
  return adminClass(db, await classes.createClass(db, editor, input));
}

/** Renames, moves, archives or restores a class (the classes module's rules) and answers its row of the table. */
export async function updateClass(db: Executor, editor: classes.ClassEditor, name: string, changes: UpdateClassInput): Promise<AdminClass> {
  return adminClass(db, await classes.updateClass(db, editor, name, changes));
}
