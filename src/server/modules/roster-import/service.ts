/**
 * A roster import: a file's students written to the roster in one transaction, with the student
 * accounts its email column asks for. It combines the roster, accounts and classes, so it sits
 * above them; reading the file is roster-file.ts, comparing it with the roster roster-diff.ts.
 */
import type {
  RosterChangeList,
  RosterChangeRow,
  RosterImportResult,
  RosterLineError,
  RosterPreview,
} from '../../../shared/schemas/roster';
import { ROSTER_PREVIEW_LIST_MAX } from '../../../shared/schemas/roster';
import type { Executor } from '../../db/client';
import { upsertStudentAccounts } from '../accounts/service';
import { actorOf, CLI, recordAudit, type Actor } from '../audit/service';
import { listAllClasses } from '../classes/service';
import { bumpDataVersion } from '../data-version/service';
import * as roster from '../roster/service';
import { diffRoster } from './roster-diff';
import { parseRosterFile, problemText, RosterFileError, type ClosedClasses, type RosterAccount, type RosterProblem } from './roster-file';

/** Keeps each statement well under PostgreSQL's limit of 65535 parameters. */
const UPSERT_CHUNK = 1000;

/** The classes a file may name, and which of them take no new students. */
async function classesForFile(db: Executor): Promise<{ known: string[]; closed: ClosedClasses }> {
  const all = await listAllClasses(db);
  const archived = new Set(all.filter((c) => c.archived).map((c) => c.name));
  const classOf = archived.size === 0 ? new Map<string, string>() : new Map((await roster.listAllStudents(db)).map((s) => [s.pin, s.className]));
  return { known: all.map((c) => c.name), closed: { archived, classOf } };
}

function capped(rows: RosterChangeRow[]): RosterChangeList {
  return { count: rows.length, rows: rows.slice(0, ROSTER_PREVIEW_LIST_MAX) };
}

/** A problem as the API sends it: the line apart, the JSON entry (no line) named in the message. */
function toLineError(p: RosterProblem): RosterLineError {
  return { line: p.line, message: p.line === null ? problemText(p) : p.message };
}

/** What importing a file would do, with its problems; nothing is written. */
export async function previewRoster(db: Executor, text: string): Promise<RosterPreview> {
  const { known, closed } = await classesForFile(db);
  const parsed = parseRosterFile(text, known, closed);
  const diff = diffRoster(await roster.listAllStudents(db), parsed.students);
  return {
    added: capped(diff.added),
    updated: capped(diff.updated),
    moved: capped(diff.moved),
    unchanged: { count: diff.unchanged },
    notInFile: capped(diff.notInFile),
    accounts: parsed.accounts.length,
    errors: lineErrors(parsed.problems),
  };
}

/** Problems as the API's `errors`: the first 1000, then one line saying how many more. */
function lineErrors(problems: readonly RosterProblem[]): RosterLineError[] {
  const errors = problems.slice(0, ROSTER_PREVIEW_LIST_MAX).map(toLineError);
  const more = problems.length - errors.length;
  if (more > 0) errors.push({ line: null, message: `… and ${more} more ${more === 1 ? 'problem' : 'problems'}` });
  return errors;
}

/** The problems of a RosterFileError as the API's `errors`. */
export function rosterFileErrors(err: RosterFileError): RosterLineError[] {
  return lineErrors(err.problems);
}

export interface ImportOptions {
  /** Withdraw the students on the roster whom the file leaves out (their history is kept). */
  withdraw?: boolean;
  /**
   * Make the accounts the email column asks for, in the import's transaction (the web import).
   * The CLI makes them itself, to print their counts.
   */
  createAccounts?: boolean;
}

export interface ImportSummary extends Omit<RosterImportResult, 'accounts'> {
  /** The students the file gives an e-mail for. */
  accounts: RosterAccount[];
  /** What became of their accounts, when the import made them (createAccounts). */
  accountsSummary?: RosterImportResult['accounts'];
}

/**
 * Imports a roster file: all of it or, if any student is bad, none of it (RosterFileError).
 * Known PINs are updated (a student who changed class moves; their past marks keep the class of
 * their day), so importing the same file twice changes nothing. Students missing from the file
 * are left alone unless `withdraw` is asked; a withdrawn student in the file is back. One
 * `roster.import` audit entry with the counts is written in the same transaction.
 */
// The actor defaults to the CLI only for older callers (tests of other modules); pass it.
export async function importRoster(db: Executor, text: string, actor: Actor = CLI, options: ImportOptions = {}): Promise<ImportSummary> {
  const { known, closed } = await classesForFile(db);
  const { students, accounts, problems } = parseRosterFile(text, known, closed);
  if (problems.length > 0) throw new RosterFileError(problems);
  let before = 0;
  const imported = await db.transaction(async (tx) => {
    const current = await roster.listAllStudents(tx);
    before = current.length;
    const diff = diffRoster(current, students);
    // Each upsert below locks the classes of its own students, and a withdrawal locks its students'
    // rows. An import of several statements first locks every class it touches, in one statement,
    // so that two imports at once wait for each other instead of deadlocking.
    const withdrawing = options.withdraw ? diff.notInFile.map((s) => s.pin) : [];
    const statements = Math.ceil(diff.changed.length / UPSERT_CHUNK) + Math.ceil(withdrawing.length / UPSERT_CHUNK);
    if (statements > 1) {
      await roster.lockClassesOf(tx, [...diff.changed.map((s) => s.pin), ...withdrawing], [...new Set(diff.changed.map((s) => s.className))]);
    }
    for (let start = 0; start < diff.changed.length; start += UPSERT_CHUNK) {
      await roster.upsertStudents(tx, diff.changed.slice(start, start + UPSERT_CHUNK));
    }
    let withdrawn = 0;
    for (let start = 0; start < withdrawing.length; start += UPSERT_CHUNK) {
      withdrawn += await roster.withdrawStudents(tx, withdrawing.slice(start, start + UPSERT_CHUNK));
    }
    const summary: ImportSummary = {
      added: diff.added.length,
      updated: diff.updated.length,
      moved: diff.moved.length,
      unchanged: diff.unchanged,
      notInFile: diff.notInFile.length,
      withdrawn,
      returned: diff.added.filter((s) => s.returning).length,
      accounts,
    };
    if (options.createAccounts) summary.accountsSummary = await upsertStudentAccounts(tx, accounts);
    const { accounts: _emails, accountsSummary, ...counts } = summary;
    await bumpDataVersion(tx);
    await recordAudit(tx, actor, 'roster.import', 'roster', {
      ...counts,
      emails: accounts.length,
      ...(accountsSummary ? { accounts: accountsSummary } : {}),
    });
    return summary;
  });
  // Once committed, as autovacuum would analyze a table a tenth of whose rows changed: the
  // planner otherwise plans the next reads for the roster as it was (an empty one, after a first file).
  const changed = imported.added + imported.moved + imported.withdrawn;
  if (changed >= ANALYZE_AFTER_MIN_STUDENTS && changed * 10 >= before) await roster.analyzeStudents(db, { accounts: options.createAccounts === true });
  return imported;
}

/** The fewest students added, moved or withdrawn by one import after which the roster is analyzed. */
const ANALYZE_AFTER_MIN_STUDENTS = 100;

/** The web import: a signed-in admin's file, with the accounts of its email column made in the same transaction. */
export async function importRosterAs(
  db: Executor,
  user: { id: string; email: string },
  text: string,
  options: { withdraw: boolean },
): Promise<RosterImportResult> {
  const summary = await importRoster(db, text, actorOf(user), { withdraw: options.withdraw, createAccounts: true });
  const { accounts: _emails, accountsSummary, ...counts } = summary;
  return { ...counts, accounts: accountsSummary ?? { created: 0, updated: 0, unchanged: 0 } };
}
