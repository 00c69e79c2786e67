import type { RosterStudent } from '../../../shared/schemas/attendance';
import { PinSchema } from '../../../shared/schemas/common';
import type { Db, Executor } from '../../db/client';
import { EmailSchema } from '../../../shared/schemas/auth';
import { UserInputError } from '../../input-error';
import { assertClassExists, listClassNames } from '../classes/service';
import { formatCsv, parseCsv } from './csv';
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

export interface ParsedRoster {
  students: RosterStudentRow[];
  accounts: RosterAccount[];
  /** Every problem, each starting with where it is; empty when the file can be imported. */
  errors: string[];
}

export interface ImportSummary {
  added: number;
  updated: number;
  unchanged: number;
  /** The students the file gives an e-mail for: their accounts are the accounts module's to make. */
  accounts: RosterAccount[];
}

export class RosterFileError extends UserInputError {
  constructor(readonly errors: string[]) {
    const noun = errors.length === 1 ? 'problem' : 'problems';
    super(`Nothing was imported: the file has ${errors.length} ${noun}.\n${errors.map((e) => `  ${e}`).join('\n')}`);
    this.name = 'RosterFileError';
  }
}

function csvEntries(text: string, errors: string[]): RawEntry[] {
  const records = parseCsv(text).filter((r) => r.error || r.fields.some((f) => f.trim() !== ''));
  const [header, ...rows] = records;
  if (!header) {
    errors.push('The file is empty: expected a header line pin,name,class and one line per student');
    return [];
  }
  const columns = header.fields.map((f) => f.trim().toLowerCase());
  const index = ROSTER_HEADER.map((name) => columns.indexOf(name));
  const emailIndex = columns.indexOf(EMAIL_COLUMN);
  const known: readonly string[] = [...ROSTER_HEADER, EMAIL_COLUMN];
  const extra = columns.filter((c) => !known.includes(c));
  if (header.error || index.some((i) => i < 0) || extra.length > 0 || new Set(columns).size !== columns.length) {
    errors.push(`line ${header.line}: the header must name the columns pin,name,class and may add email (found "${header.fields.join(',')}")`);
    return [];
  }
  const entries: RawEntry[] = [];
  for (const row of rows) {
    const where = `line ${row.line}`;
    if (row.error) {
      entries.push({ where, pin: undefined, name: undefined, className: undefined, problem: row.error });
    } else if (row.fields.length !== columns.length) {
      const problem = `expected ${columns.length} fields (${columns.join(',')}), found ${row.fields.length}`;
      entries.push({ where, pin: undefined, name: undefined, className: undefined, problem });
    } else {
      const [pin, name, className] = index.map((i) => row.fields[i]);
      entries.push({ where, pin, name, className, email: emailIndex >= 0 ? row.fields[emailIndex] : undefined });
    }
  }
  return entries;
}

const JSON_SHAPE = '{ "CSE1": [{ "pin": "...", "name": "..." }], ... }';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonEntries(text: string, errors: string[]): RawEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    errors.push(`The file is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
    return [];
  }
  if (!isObject(data)) {
    errors.push(`The JSON must be an object keyed by class name: ${JSON_SHAPE}`);
    return [];
  }
  const entries: RawEntry[] = [];
  for (const [className, list] of Object.entries(data)) {
    if (!Array.isArray(list)) {
      const problem = 'must be a list of students, each { "pin": "...", "name": "..." }';
      entries.push({ where: className, pin: undefined, name: undefined, className, problem });
      continue;
    }
    list.forEach((item: unknown, i) => {
      const where = `${className} entry ${i + 1}`;
      if (!isObject(item)) {
        entries.push({ where, pin: undefined, name: undefined, className, problem: 'must be an object with pin and name' });
        return;
      }
      const unknownKeys = Object.keys(item).filter((k) => k !== 'pin' && k !== 'name');
      if (unknownKeys.length > 0) {
        const problem = `unexpected field ${unknownKeys.map((k) => `"${k}"`).join(', ')} (only pin and name)`;
        entries.push({ where, pin: undefined, name: undefined, className, problem });
        return;
      }
      entries.push({ where, pin: item.pin, name: item.name, className });
    });
  }
  return entries;
}

/**
 * Reads a roster file, CSV (pin,name,class) or SPEC's student.json object, and checks every
 * student against the portal's classes. Pure: nothing is written.
 */
export function parseRosterFile(text: string, knownClasses: readonly string[]): ParsedRoster {
  const errors: string[] = [];
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
      errors.push(`${entry.where}: ${entry.problem}`);
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
    if (problems.length > 0) errors.push(`${entry.where}: ${problems.join('; ')}`);
    else {
      result.push({ pin, name, className: className! });
      if (email) accounts.push({ pin, name, email });
    }
  }
  if (errors.length === 0 && result.length === 0) errors.push('The file lists no students');
  return { students: result, accounts, errors };
}

/**
 * Imports a roster file: all of it or, if any student is bad, none of it. Known PINs are updated
 * (a student who changed class moves), so importing the same file twice changes nothing.
 * Students missing from the file are left alone.
 */
export async function importRoster(db: Executor, text: string): Promise<ImportSummary> {
  const { students, accounts, errors } = parseRosterFile(text, await listClassNames(db));
  if (errors.length > 0) throw new RosterFileError(errors);
  return db.transaction(async (tx) => {
    const summary: ImportSummary = { added: 0, updated: 0, unchanged: 0, accounts };
    for (let start = 0; start < students.length; start += UPSERT_CHUNK) {
      const chunk = students.slice(start, start + UPSERT_CHUNK);
      const before = new Map((await repo.findStudents(tx, chunk.map((s) => s.pin))).map((s) => [s.pin, s]));
      for (const s of chunk) {
        const old = before.get(s.pin);
        if (!old) summary.added += 1;
        else if (old.name !== s.name || old.className !== s.className) summary.updated += 1;
        else summary.unchanged += 1;
      }
      await repo.upsertStudents(tx, chunk);
    }
    return summary;
  });
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
export function putStudents(db: Executor, rows: RosterStudentRow[]): Promise<void> {
  return repo.upsertStudents(db, rows);
}

/** The whole roster as CSV with a header line, in the format that importRoster reads. */
export async function exportRoster(db: Db): Promise<{ csv: string; count: number }> {
  const rows = await repo.listRoster(db);
  return {
    csv: formatCsv([[...ROSTER_HEADER], ...rows.map((s) => [s.pin, s.name, s.className])]),
    count: rows.length,
  };
}
