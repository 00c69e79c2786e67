/**
 * The move from the Firebase app: an export read (export-file.ts), planned against the portal
 * (plan.ts), and, when asked, applied in one transaction audited once. It writes registers,
 * students, classes and profiles, so it sits above those modules.
 */
import type { FirestoreImportResult } from '../../../shared/schemas/firestore-import';
import type { Database, Executor, Tx } from '../../db/client';
import { badRequest } from '../../http-error';
import { recordPastRegister } from '../attendance/service';
import { actorOf, recordAudit, type Actor } from '../audit/service';
import { appendClasses, listAllClasses } from '../classes/service';
import { bumpDataVersion } from '../data-version/service';
import * as roster from '../roster/service';
import { readExportFile, type SourceDocument } from './export-file';
import { dayKey, documentDate, importKey, planImport, type ImportPlan, type PortalState } from './plan';
import * as repo from './repository';

/** The advisory lock an import holds on PostgreSQL, so that two imports of one file do not both add it. */
const IMPORT_LOCK = [0x706f7274, 42] as const;

export interface ImportOptions {
  /** Import, rather than only say what an import would do. */
  apply: boolean;
  /** Add the classes the export names that the portal does not have. */
  createClasses: boolean;
  timeZone: string;
  now?: Date;
}

/** The PINs the attendance records name, as the portal writes them. */
function recordPins(documents: readonly SourceDocument[]): string[] {
  const pins = new Set<string>();
  for (const { data } of documents) {
    if (!Array.isArray(data.records)) continue;
    for (const record of data.records) {
      const pin = record && typeof record === 'object' ? (record as Record<string, unknown>).pin : undefined;
      if (typeof pin === 'string' || typeof pin === 'number') pins.add(String(pin).trim().toUpperCase());
    }
  }
  return [...pins];
}

/** What the plan needs of the portal, for the documents of this export only where that is much. */
async function readState(db: Executor, documents: readonly SourceDocument[], timeZone: string): Promise<PortalState> {
  const attendance = documents.filter((d) => d.collection === 'attendance');
  const dates = [...new Set(attendance.map((d) => documentDate(d.data, timeZone)).filter((d): d is string => d !== null))];
  // One after another: `db` may be a transaction, one connection that takes one statement at a time.
  const classes = await listAllClasses(db);
  const students = await roster.listAllStudents(db);
  const profilePins = await repo.listProfilePins(db);
  const importedKeys = await repo.findImportedKeys(db, documents.map(importKey));
  const takenDays = await repo.listTakenDays(db, dates);
  const markedDays = await repo.listMarkedDays(db, recordPins(attendance), dates);
  return {
    classes: classes.map((c) => c.name),
    students: new Map(students.map((s) => [s.pin, { name: s.name, className: s.className }])),
    profilePins: new Set(profilePins),
    importedKeys,
    takenDays: new Set(takenDays.map((d) => dayKey(d.className, d.date))),
    markedDays: new Set(markedDays.map((d) => dayKey(d.pin, d.date))),
  };
}

/** Why an apply is refused: the documents that name a class the portal does not have. */
function refusal(plan: ImportPlan): string {
  const count = plan.counts.errors.count;
  return `Nothing was imported: ${count} ${count === 1 ? 'document names a class' : 'documents name classes'} not in the portal. Add the classes, or import with the missing classes created.`;
}

async function write(tx: Tx, plan: ImportPlan, actor: Actor): Promise<void> {
  await appendClasses(tx, plan.newClasses);
  for (let start = 0; start < plan.newStudents.length; start += 1000) {
    await roster.upsertStudents(tx, plan.newStudents.slice(start, start + 1000));
  }
  for (const register of plan.registers) {
    await recordPastRegister(tx, {
      className: register.className,
      date: register.date,
      takenBy: null,
      takenAt: register.takenAt ?? new Date(),
      marks: register.marks,
    });
  }
  await repo.insertProfiles(
    tx,
    plan.profiles.map(({ key: _key, createdAt, ...row }) => ({ ...row, ...(createdAt ? { createdAt, updatedAt: createdAt } : {}) })),
  );
  await repo.rememberKeys(tx, [...plan.registers.flatMap((r) => r.keys), ...plan.profiles.map((p) => p.key)]);
  await bumpDataVersion(tx);
  const { counts } = plan;
  // Counts only: the entry outlives any student it would name.
  await recordAudit(tx, actor, 'import.firestore', 'firestore', {
    registers: counts.registers,
    marks: counts.marks.total,
    students: counts.students,
    classes: counts.classes.length,
    profiles: counts.profiles.approved + counts.profiles.pending,
    skipped: counts.skipped.count,
    alreadyImported: counts.alreadyImported,
  });
}

/**
 * Reads an export and says what importing it does; with `apply`, imports it in one transaction
 * (refused with 400, nothing written, while a document names a class the portal lacks). The plan
 * applied is made again inside the transaction, under a lock, so it is the one the data allows.
 */
export async function importFirestore(
  database: Pick<Database, 'db' | 'kind'>,
  text: string,
  actor: Actor,
  options: ImportOptions,
): Promise<FirestoreImportResult> {
  const file = readExportFile(text);
  const planOn = async (db: Executor) => planImport(file.documents, await readState(db, file.documents, options.timeZone), options);
  if (!options.apply) return { applied: false, shape: file.shape, ...(await planOn(database.db)).counts };
  const plan = await database.db.transaction(async (tx) => {
    if (database.kind === 'postgres') await tx.execute(`select pg_advisory_xact_lock(${IMPORT_LOCK[0]}, ${IMPORT_LOCK[1]})`);
    const made = await planOn(tx);
    if (made.counts.errors.count > 0) throw badRequest(refusal(made));
    await write(tx, made, actor);
    return made;
  });
  // A first import fills the tables from nothing: their first reads plan with what is there.
  if (plan.counts.marks.total > 0) await repo.analyzeImported(database.db);
  return { applied: true, shape: file.shape, ...plan.counts };
}

/** The web import: a signed-in admin's upload. */
export function importFirestoreAs(
  database: Pick<Database, 'db' | 'kind'>,
  user: { id: string; email: string },
  text: string,
  options: ImportOptions,
): Promise<FirestoreImportResult> {
  return importFirestore(database, text, actorOf(user), options);
}
