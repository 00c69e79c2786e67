import type { RosterStudent } from '../../../shared/schemas/attendance';
import { PinSchema } from '../../../shared/schemas/common';
import { parseCsv, toCsv, unguardFormula } from '../../../shared/csv';
import type { Db, Executor } from '../../db/client';
import { EmailSchema } from '../../../shared/schemas/auth';
import { UserInputError } from '../../input-error';
import type {
  RosterChangeList,
  RosterChangeRow,
  RosterImportResult,
  RosterLineError,
  RosterPreview,
} from '../../../shared/schemas/roster';
import { ROSTER_PREVIEW_LIST_MAX } from '../../../shared/schemas/roster';
// The accounts module asks the roster whether a PIN is on it; the roster asks it for the accounts
// of the email column. Functions only, called long after both modules are loaded.
import { upsertStudentAccounts } from '../accounts/service';
import { actorOf, CLI, recordAudit, type Actor } from '../audit/service';
import { assertClassExists, listAllClasses } from '../classes/service';
import { bumpDataVersion } from '../data-version/service';
import * as repo from './repository';
import type { RosterStudentRow } from './repository';

export type { RosterStudentRow } from './repository';

export const ROSTER_HEADER = ['pin', 'name', 'class'] as const;
/** A CSV may add this column: each student with an e-mail gets a student account (DESIGN.md 7.1). */
export const EMAIL_COLUMN = 'email';
export const MAX_NAME_LENGTH = 200;
/** Keeps each statement well under PostgreSQL's limit of 65535 parameters. */
const UPSERT_CHUNK = 1000;

/** One student as found in a file, with where it was found ("line 4", "CSE2 entry 3"). */
interface RawEntry {
  where: string;
  line: number | null;
  pin: unknown;
  name: unknown;
  className: unknown;
  email?: unknown;
  /** Set when the row could not even be read; reported in file order with the others. */
  problem?: string;
}

/** A student of the file who is to have an account with this e-mail. */
export interface RosterAccount {
  pin: string;
  name: string;
  email: string;
}

/** One problem of a file: on a line of a CSV, at an entry of a JSON file, or of the whole file. */
export interface RosterProblem {
  /** The CSV line (the header is line 1); null for JSON entries and problems of the whole file. */
  line: number | null;
  /** Where, as the CLI prints it ("line 4", "CSE2 entry 3"); null for the whole file. */
  where: string | null;
  message: string;
}

export interface ParsedRoster {
  students: RosterStudentRow[];
  accounts: RosterAccount[];
  /** Every problem, each starting with where it is; empty when the file can be imported. */
  errors: string[];
  /** The same problems, with their line apart (the API's `errors`). */
  problems: RosterProblem[];
}

function problemText(p: RosterProblem): string {
  return p.where ? `${p.where}: ${p.message}` : p.message;
}

export class RosterFileError extends UserInputError {
  readonly errors: string[];
  constructor(readonly problems: RosterProblem[]) {
    const errors = problems.map(problemText);
    super(`Nothing was imported: ${rosterProblemsSummary(problems.length)}.\n${errors.map((e) => `  ${e}`).join('\n')}`);
    this.errors = errors;
    this.name = 'RosterFileError';
  }
}

/** "the file has 2 problems": how the CLI and the API say why nothing was imported. */
export function rosterProblemsSummary(count: number): string {
  return `the file has ${count} ${count === 1 ? 'problem' : 'problems'}`;
}

function csvEntries(text: string, errors: RosterProblem[]): RawEntry[] {
  const records = parseCsv(text).filter((r) => r.error || r.fields.some((f) => f.trim() !== ''));
  const [header, ...rows] = records;
  if (!header) {
    errors.push({ line: null, where: null, message: 'The file is empty: expected a header line pin,name,class and one line per student' });
    return [];
  }
  const columns = header.fields.map((f) => f.trim().toLowerCase());
  const index = ROSTER_HEADER.map((name) => columns.indexOf(name));
  const emailIndex = columns.indexOf(EMAIL_COLUMN);
  const known: readonly string[] = [...ROSTER_HEADER, EMAIL_COLUMN];
  const extra = columns.filter((c) => !known.includes(c));
  if (header.error || index.some((i) => i < 0) || extra.length > 0 || new Set(columns).size !== columns.length) {
    const message = `the header must name the columns pin,name,class and may add email (found "${header.fields.join(',')}")`;
    errors.push({ line: header.line, where: `line ${header.line}`, message });
    return [];
  }
  const entries: RawEntry[] = [];
  for (const row of rows) {
    const where = `line ${row.line}`;
    const line = row.line;
    if (row.error) {
      entries.push({ where, line, pin: undefined, name: undefined, className: undefined, problem: row.error });
    } else if (row.fields.length !== columns.length) {
      const problem = `expected ${columns.length} fields (${columns.join(',')}), found ${row.fields.length}`;
      entries.push({ where, line, pin: undefined, name: undefined, className: undefined, problem });
    } else {
      // The export guards fields against spreadsheet formulas; its own guard is undone here.
      const field = (i: number) => (i >= 0 && row.fields[i] !== undefined ? unguardFormula(row.fields[i]) : undefined);
      const [pin, name, className] = index.map(field);
      entries.push({ where, line, pin, name, className, email: field(emailIndex) });
    }
  }
  return entries;
}

const JSON_SHAPE = '{ "CSE1": [{ "pin": "...", "name": "..." }], ... }';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonEntries(text: string, errors: RosterProblem[]): RawEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    errors.push({ line: null, where: null, message: `The file is not valid JSON: ${err instanceof Error ? err.message : String(err)}` });
    return [];
  }
  if (!isObject(data)) {
    errors.push({ line: null, where: null, message: `The JSON must be an object keyed by class name: ${JSON_SHAPE}` });
    return [];
  }
  const entries: RawEntry[] = [];
  for (const [className, list] of Object.entries(data)) {
    if (!Array.isArray(list)) {
      const problem = 'must be a list of students, each { "pin": "...", "name": "..." }';
      entries.push({ where: className, line: null, pin: undefined, name: undefined, className, problem });
      continue;
    }
    list.forEach((item: unknown, i) => {
      const where = `${className} entry ${i + 1}`;
      if (!isObject(item)) {
        entries.push({ where, line: null, pin: undefined, name: undefined, className, problem: 'must be an object with pin and name' });
        return;
      }
      const unknownKeys = Object.keys(item).filter((k) => k !== 'pin' && k !== 'name');
      if (unknownKeys.length > 0) {
        const problem = `unexpected field ${unknownKeys.map((k) => `"${k}"`).join(', ')} (only pin and name)`;
        entries.push({ where, line: null, pin: undefined, name: undefined, className, problem });
        return;
      }
      entries.push({ where, line: null, pin: item.pin, name: item.name, className });
    });
  }
  return entries;
}

/** The archived classes, and the class each roster student is in now: who may stay where. */
export interface ClosedClasses {
  archived: ReadonlySet<string>;
  classOf: ReadonlyMap<string, string>;
}

/** The classes a file may name, and which of them take no new students. */
async function classesForFile(db: Executor): Promise<{ known: string[]; closed: ClosedClasses }> {
  const all = await listAllClasses(db);
  const archived = new Set(all.filter((c) => c.archived).map((c) => c.name));
  const classOf = archived.size === 0 ? new Map<string, string>() : new Map((await repo.listAllStudents(db)).map((s) => [s.pin, s.className]));
  return { known: all.map((c) => c.name), closed: { archived, classOf } };
}

/**
 * Reads a roster file, CSV (pin,name,class) or SPEC's student.json object, and checks every
 * student against the portal's classes. Pure: nothing is written.
 */
export function parseRosterFile(
  text: string,
  knownClasses: readonly string[],
  closed: ClosedClasses = { archived: new Set(), classOf: new Map() },
): ParsedRoster {
  const errors: RosterProblem[] = [];
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  const entries = trimmed.startsWith('{') || trimmed.startsWith('[') ? jsonEntries(text.replace(/^\uFEFF/, ''), errors) : csvEntries(text, errors);
  // Class names in files are matched without regard to case and stored as the portal spells them.
  const classByKey = new Map(knownClasses.map((c) => [c.toLowerCase(), c]));
  const seen = new Map<string, string>();
  const seenEmails = new Map<string, string>();
  const result: RosterStudentRow[] = [];
  const accounts: RosterAccount[] = [];

  for (const entry of entries) {
    if (entry.problem) {
      errors.push({ line: entry.line, where: entry.where, message: entry.problem });
      continue;
    }
    const problems: string[] = [];
    let pin = '';
    if (typeof entry.pin !== 'string') {
      problems.push(entry.pin === undefined ? 'pin is missing' : 'pin must be text (in quotes), so that leading zeros are kept');
    } else {
      const parsed = PinSchema.safeParse(entry.pin);
      if (parsed.success) pin = parsed.data;
      else problems.push(`PIN "${entry.pin}": ${parsed.error.issues[0]?.message ?? 'not a valid PIN'}`);
    }
    const name = typeof entry.name === 'string' ? entry.name.trim().replace(/\s+/g, ' ') : '';
    if (!name) problems.push('name is missing');
    else if (name.length > MAX_NAME_LENGTH) problems.push(`name has more than ${MAX_NAME_LENGTH} characters`);
    const rawClass = typeof entry.className === 'string' ? entry.className.trim() : '';
    const className = classByKey.get(rawClass.toLowerCase());
    if (!rawClass) problems.push('class is missing');
    else if (!className) problems.push(`class "${rawClass}" does not exist (the classes are ${knownClasses.join(', ')})`);
    // An archived class keeps the students it has, and takes no new ones.
    else if (closed.archived.has(className) && closed.classOf.get(pin) !== className) {
      problems.push(`class ${className} is archived: it takes no new students`);
    }
    if (pin) {
      const first = seen.get(pin);
      if (first) problems.push(`PIN ${pin} is already at ${first}`);
      else seen.set(pin, entry.where);
    }
    let email = '';
    if (typeof entry.email === 'string' && entry.email.trim() !== '') {
      const parsed = EmailSchema.safeParse(entry.email);
      if (!parsed.success) problems.push(`email "${entry.email.trim()}" is not a valid e-mail address`);
      else {
        email = parsed.data;
        const first = seenEmails.get(email.toLowerCase());
        if (first) problems.push(`email ${email} is already at ${first}`);
        else seenEmails.set(email.toLowerCase(), entry.where);
      }
    }
    if (problems.length > 0) errors.push({ line: entry.line, where: entry.where, message: problems.join('; ') });
    else {
      result.push({ pin, name, className: className! });
      if (email) accounts.push({ pin, name, email });
    }
  }
  if (errors.length === 0 && result.length === 0) errors.push({ line: null, where: null, message: 'The file lists no students' });
  return { students: result, accounts, errors: errors.map(problemText), problems: errors };
}

/** A student on the roster or in a file, as the preview names them. */
type ChangeRow = RosterChangeRow;

/** How a file differs from the roster; every list is whole (the API caps them). */
export interface RosterDiff {
  added: ChangeRow[];
  updated: ChangeRow[];
  moved: ChangeRow[];
  unchanged: number;
  notInFile: ChangeRow[];
  /** The rows to write: added (returning included), updated and moved. */
  changed: RosterStudentRow[];
}

/**
 * Compares a file's students with everyone the portal knows. A PIN not known is added; a
 * withdrawn student in the file is added back (returning); a class change is a move (even with a
 * new name, shown as fromName); a name change alone is an update. notInFile lists the students on
 * the roster (withdrawn ones are not) whom the file leaves out.
 */
export function diffRoster(known: ReadonlyArray<RosterStudentRow & { withdrawnAt: Date | null }>, file: readonly RosterStudentRow[]): RosterDiff {
  const byPin = new Map(known.map((s) => [s.pin, s]));
  const diff: RosterDiff = { added: [], updated: [], moved: [], unchanged: 0, notInFile: [], changed: [] };
  const inFile = new Set<string>();
  for (const s of file) {
    inFile.add(s.pin);
    const old = byPin.get(s.pin);
    const row: ChangeRow = { pin: s.pin, name: s.name, className: s.className };
    if (old && old.name !== s.name) row.fromName = old.name;
    if (old && old.className !== s.className) row.fromClass = old.className;
    if (!old || old.withdrawnAt) {
      if (old) row.returning = true;
      diff.added.push(row);
    } else if (row.fromClass !== undefined) diff.moved.push(row);
    else if (row.fromName !== undefined) diff.updated.push(row);
    else {
      diff.unchanged += 1;
      continue;
    }
    diff.changed.push(s);
  }
  for (const s of known) {
    if (!s.withdrawnAt && !inFile.has(s.pin)) diff.notInFile.push({ pin: s.pin, name: s.name, className: s.className });
  }
  return diff;
}

function capped(rows: ChangeRow[]): RosterChangeList {
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
  const diff = diffRoster(await repo.listAllStudents(db), parsed.students);
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
  return db.transaction(async (tx) => {
    const diff = diffRoster(await repo.listAllStudents(tx), students);
    for (let start = 0; start < diff.changed.length; start += UPSERT_CHUNK) {
      await repo.upsertStudents(tx, diff.changed.slice(start, start + UPSERT_CHUNK));
    }
    let withdrawn = 0;
    if (options.withdraw) {
      const pins = diff.notInFile.map((s) => s.pin);
      for (let start = 0; start < pins.length; start += UPSERT_CHUNK) {
        withdrawn += await repo.withdrawStudents(tx, pins.slice(start, start + UPSERT_CHUNK));
      }
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
}

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

export function toRosterStudent(row: RosterStudentRow): RosterStudent {
  return { pin: row.pin, name: row.name, class: row.className };
}

/** The roster entry of one PIN, if the student is on the roster. */
export function findStudent(db: Executor, pin: string): Promise<RosterStudentRow | undefined> {
  return repo.findStudent(db, pin);
}

export async function isOnRoster(db: Executor, pin: string): Promise<boolean> {
  return (await repo.findStudent(db, pin)) !== undefined;
}

/** The students of one class, by PIN, as they are now; the class must exist. */
export async function listClassRoster(db: Executor, className: string): Promise<RosterStudentRow[]> {
  await assertClassExists(db, className);
  return repo.listClassRoster(db, className);
}

export async function getClassRoster(db: Executor, className: string): Promise<RosterStudent[]> {
  return (await listClassRoster(db, className)).map(toRosterStudent);
}

/** Roster sizes by class name; a class with nobody on its roster is absent from the map. */
export function countByClass(db: Executor): Promise<Map<string, number>> {
  return repo.countByClass(db);
}

export async function isRosterEmpty(db: Executor): Promise<boolean> {
  return (await repo.countStudents(db)) === 0;
}

/** Adds or updates students already checked by the caller (demo data, tests of other modules). */
export async function putStudents(db: Executor, rows: RosterStudentRow[]): Promise<void> {
  await db.transaction(async (tx) => {
    await repo.upsertStudents(tx, rows);
    await bumpDataVersion(tx);
  });
}

/**
 * The whole roster as CSV with a header line, in the format that importRoster reads. A name that a
 * spreadsheet would run as a formula is written with a leading apostrophe, which the import drops.
 */
export async function exportRoster(db: Db): Promise<{ csv: string; count: number }> {
  const rows = await repo.listRoster(db);
  return {
    csv: toCsv([...ROSTER_HEADER], rows.map((s) => [s.pin, s.name, s.className]), '\n'),
    count: rows.length,
  };
}
