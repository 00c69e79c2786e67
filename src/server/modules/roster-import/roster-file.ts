/**
 * Reading a roster file into students, each checked against the portal's classes, with every
 * problem by line or entry. Pure: nothing is read from the database or written.
 */
import { parseCsv, unguardFormula } from '../../../shared/csv';
import { EmailSchema } from '../../../shared/schemas/auth';
import { PinSchema } from '../../../shared/schemas/common';
import { UserInputError } from '../../input-error';
import { ROSTER_HEADER, type RosterStudentRow } from '../roster/service';

/** A CSV may add this column: each student with an e-mail gets a student account (made in the import's transaction, or by the CLI). */
export const EMAIL_COLUMN = 'email';
export const MAX_NAME_LENGTH = 200;

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

export function problemText(p: RosterProblem): string {
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

/**
 * Reads a roster file, CSV (pin,name,class) or a student.json object (class name -> students),
 * and checks every student against the portal's classes. Pure: nothing is written.
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
