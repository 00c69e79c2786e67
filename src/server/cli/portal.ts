import { readFile, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { migrateDatabase, openDatabase, type Database } from '../db/client';
import { mergeDuplicatePins } from '../db/pin-repair';
import { DataFolderLockedError } from '../db/data-folder-lock';
import { UserInputError } from '../input-error';
import { addUser, disableUser, listUsers, setPassword, upsertStudentAccounts } from '../modules/accounts/service';
import { CLI } from '../modules/audit/service';
import { afterPasswordChange, endAllSignIns, revokeSignIns, unlockAccount } from '../modules/auth/service';
import { alertContextOf, evaluateTerm } from '../modules/alerts/service';
import { listTerms } from '../modules/terms/service';
import { sendBackForReview } from '../modules/profiles/service';
import { exportRoster } from '../modules/roster/service';
import { importRoster } from '../modules/roster-import/service';
import { importFirestore } from '../modules/firestore-import/service';
import { firestoreImportSummary, type FirestoreNoteList } from '../../shared/schemas/firestore-import';
import { findCounterDifferences, rebuildCounters } from '../modules/counters/service';
import { importTimetable, TimetableFileInvalid } from '../modules/timetable/service';
import { HttpError } from '../http-error';
import { NOT_EMPTY_MESSAGE, seedSynthetic } from '../seed/synthetic';
import { backupCommands } from './backup-commands';

const USAGE = `Usage: npm run portal -- <command>

Accounts:
  user add --email E --name N --role faculty|student|admin [--pin P] [--password P]
  user list
  user set-password --email E [--password P]
  user disable --email E
  user unlock EMAIL      clear the account's failed sign-ins, so that it can sign in again at once

Sign-ins:
  sessions revoke --all | --user EMAIL
                         end every sign-in (or one account's) at once; each signs in again

Roster:
  roster import FILE     a CSV with the header pin,name,class (and optionally email: each student with
                         one gets a student account without a password), or student.json:
                         { "CSE1": [{ "pin": ..., "name": ... }] }
  roster export [FILE]   the roster as CSV (pin,name,class), to FILE or to standard output

Moving from the Firebase app:
  import firestore FILE [--apply] [--create-classes]
                         read an export of its Firestore collections (attendance, registrations, cards) and
                         say what importing it adds and skips; --apply imports it, all in one transaction;
                         --create-classes adds the classes it names that the portal lacks (else an error).
                         Importing the same file again adds nothing
Timetables:
  timetable import FILE  a CSV with the header class,weekday,period,subject (weekday 1 to 7 or Mon to Sun,
                         period 1 to 12, subject a code that exists), and optionally a fifth column
                         teacher (the e-mail of an enabled faculty or admin account; blank: none):
                         each class in the file gets exactly the file's week; classes not in it keep
                         theirs. All of it, or nothing
Demo data:
  demo-data --marks N [--classes C] [--students S] [--periods P]
                         fill an EMPTY database with a synthetic university of about N marks: a term of
                         90 past week days (fewer for a small N), P lectures a day (8; 0: one whole-day
                         register) with a timetable, classes of S students (60), as many as N needs
                         (36000000: some 50,000 students) or C of them over as many days; the demo accounts
Alerts:
  alerts evaluate [--term NAME]
                         evaluate the student alerts of every current student in the current term (or the
                         named one), opening the episodes its saves would have opened, with their notices:
                         for data that came without them (an import from the Firebase app, demo data)
Counters:
  verify                 recompute every counter (per register, and per student, subject and term)
                         from the marks, and the class totals (per term and per date) from the
                         registers, and list any that disagree; exits 1 if one does
  counters rebuild       recompute every counter from the marks
Backups:
  backup [--out FILE]    write a backup of the whole database (one gzip-compressed file) to FILE, by default
                         into PORTAL_BACKUP_DIR (embedded database: <data folder>/backups; else the current
                         folder); on the embedded database while the portal is stopped, on PostgreSQL beside
                         running servers
  restore FILE [--replace]
                         load a backup into an EMPTY database of either engine, apply the migrations that
                         came after it and check it as verify does; --replace first backs up the data there
PINs:
  pins fix               merge the students, profiles and marks whose PINs differ only in case or
                         spaces (an upgrade that stops on them says so), then finish the upgrade

Without --password the password is asked for (or read from standard input).
A roster import checks every row first and imports nothing if any row is bad; importing the
same file again changes nothing, and a student whose class changed is moved.
To export to standard output use npm run --silent portal -- roster export, so that npm's banner stays out of the CSV.
The database is the one the server uses: DATABASE_URL, or the embedded one in PORTAL_DATA_DIR.`;

/** Reads a password from the terminal without echoing it, or one line from piped input. */
async function readPassword(prompt: string): Promise<string> {
  const input = process.stdin;
  if (!input.isTTY) {
    const rl = createInterface({ input });
    for await (const line of rl) {
      rl.close();
      return line;
    }
    return '';
  }
  process.stdout.write(prompt);
  input.setRawMode(true);
  input.resume();
  input.setEncoding('utf8');
  return new Promise((resolve) => {
    let value = '';
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') {
          input.setRawMode(false);
          input.pause();
          input.off('data', onData);
          process.stdout.write('\n');
          resolve(value);
          return;
        }
        if (ch === '\u0003') process.exit(130);
        if (ch === '\u007f') value = value.slice(0, -1);
        else value += ch;
      }
    };
    input.on('data', onData);
  });
}

type Handler = (database: Database, args: string[]) => Promise<void>;

function options(args: string[], names: string[]) {
  const spec = Object.fromEntries(names.map((n) => [n, { type: 'string' as const }]));
  try {
    return parseArgs({ args, options: spec, strict: true, allowPositionals: false }).values as Record<string, string | undefined>;
  } catch (err) {
    throw new UserInputError(err instanceof Error ? err.message : String(err));
  }
}

function positionals(args: string[], usage: string, min: number, max: number): string[] {
  try {
    const { positionals: values } = parseArgs({ args, options: {}, strict: true, allowPositionals: true });
    if (values.length < min || values.length > max) throw new UserInputError(`Usage: npm run portal -- ${usage}`);
    return values;
  } catch (err) {
    if (err instanceof UserInputError) throw err;
    throw new UserInputError(err instanceof Error ? err.message : String(err));
  }
}

function required(values: Record<string, string | undefined>, name: string): string {
  const value = values[name];
  if (!value) throw new UserInputError(`--${name} is required`);
  return value;
}

/** A list of the import's notes, at most 20 lines of it. */
function printNotes(title: string, list: FirestoreNoteList): void {
  if (list.count === 0) return;
  console.log(`${title} (${list.count}):`);
  for (const note of list.rows.slice(0, 20)) console.log(`  ${note.collection}/${note.id}: ${note.reason}`);
  if (list.count > 20) console.log(`  … and ${list.count - 20} more`);
}

export const commands: Record<string, Handler> = {
  async 'user add'(database, args) {
    const values = options(args, ['email', 'name', 'role', 'pin', 'password']);
    const email = required(values, 'email');
    const name = required(values, 'name');
    const role = required(values, 'role');
    const password = values.password ?? (await readPassword(`Password for ${email}: `));
    const user = await addUser(database.db, { email, name, role, pin: values.pin, password }, CLI);
    console.log(`Added ${user.role} ${user.email}${user.pin ? ` (PIN ${user.pin})` : ''}`);
  },
  async 'user list'(database, args) {
    options(args, []);
    const rows = await listUsers(database.db);
    if (rows.length === 0) {
      console.log('No accounts yet.');
      return;
    }
    for (const u of rows) {
      const state = u.disabledAt ? 'disabled' : u.passwordHash ? 'active' : 'no password yet';
      console.log([u.role.padEnd(8), u.email.padEnd(36), u.name.padEnd(28), (u.pin ?? '').padEnd(14), state].join(' '));
    }
  },
  async 'user set-password'(database, args) {
    const values = options(args, ['email', 'password']);
    const email = required(values, 'email');
    const password = values.password ?? (await readPassword(`New password for ${email}: `));
    await database.db.transaction(async (tx) => {
      const user = await setPassword(tx, email, password, CLI);
      await afterPasswordChange(tx, user.id);
    });
    console.log(`Password changed for ${email}; their sign-in sessions have ended`);
  },
  async 'user disable'(database, args) {
    const values = options(args, ['email']);
    const user = await database.db.transaction(async (tx) => {
      const disabled = await disableUser(tx, required(values, 'email'), CLI);
      await endAllSignIns(tx, disabled.id);
      return disabled;
    });
    console.log(`Disabled ${user.email}; their sign-in sessions have ended`);
  },
  async 'user unlock'(database, args) {
    const [email] = positionals(args, 'user unlock EMAIL', 1, 1) as [string];
    const { email: account, failures } = await unlockAccount(database.db, CLI, email);
    console.log(
      failures === 0
        ? `${account} has no sign-in failures to clear`
        : `Cleared the sign-in failures of ${account} (${failures} attempt${failures === 1 ? '' : 's'} in the last 15 minutes); it can sign in again at once`,
    );
  },
  async 'sessions revoke'(database, args) {
    let parsed: { values: { all?: boolean; user?: string } };
    try {
      parsed = parseArgs({ args, options: { all: { type: 'boolean' }, user: { type: 'string' } }, strict: true, allowPositionals: false });
    } catch (err) {
      throw new UserInputError(err instanceof Error ? err.message : String(err));
    }
    const { all, user } = parsed.values;
    if (Boolean(all) === (user !== undefined)) throw new UserInputError('Say whose sign-ins to end: --all, or --user EMAIL');
    const ended = await revokeSignIns(database.db, CLI, user === undefined ? { all: true } : { email: user });
    const sessions = `${ended.sessions} sign-in session${ended.sessions === 1 ? '' : 's'}`;
    console.log(`Ended ${sessions} of ${ended.email ?? 'every account'}`);
  },
  async 'pins fix'(database, args) {
    positionals(args, 'pins fix', 0, 0);
    const merged = await mergeDuplicatePins(database.db);
    await migrateDatabase(database);
    // A profile that absorbed another is reviewed again: the one kept may not be the student's own.
    await sendBackForReview(database.db, merged.filter((m) => m.profilesMerged).map((m) => m.pin));
    if (merged.length === 0) {
      console.log('No PINs differ only in case or spaces; the database is up to date.');
      return;
    }
    for (const { pin, spellings, removed, profilesMerged } of merged) {
      console.log(`Merged ${spellings.join(', ')} into ${pin}${profilesMerged ? ' (its profile is back in faculty review)' : ''}`);
      for (const what of removed) console.log(`  removed ${what}`);
    }
    console.log(`Merged ${merged.length} PIN${merged.length === 1 ? '' : 's'}; the database is up to date.`);
  },
  async 'roster import'(database, args) {
    const [file] = positionals(args, 'roster import FILE', 1, 1) as [string];
    const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      throw new UserInputError(`Cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
    });
    // The roster and the accounts its email column asks for: all of it, or nothing.
    const { summary, accounts } = await database.db.transaction(async (tx) => {
      const imported = await importRoster(tx, text, CLI);
      return { summary: imported, accounts: await upsertStudentAccounts(tx, imported.accounts) };
    });
    console.log(`Roster imported: ${summary.added} added, ${summary.updated} updated, ${summary.moved} moved, ${summary.unchanged} unchanged`);
    if (summary.accounts.length > 0) {
      console.log(
        `Student accounts: ${accounts.created} created, ${accounts.updated} updated, ${accounts.unchanged} unchanged (no password: they sign in through single sign-on or a set-password link)`,
      );
    }
  },
  async 'import firestore'(database, args) {
    let parsed: { values: { apply?: boolean; 'create-classes'?: boolean }; positionals: string[] };
    try {
      parsed = parseArgs({ args, options: { apply: { type: 'boolean' }, 'create-classes': { type: 'boolean' } }, strict: true, allowPositionals: true });
    } catch (err) {
      throw new UserInputError(err instanceof Error ? err.message : String(err));
    }
    const [file, ...extra] = parsed.positionals;
    if (!file || extra.length > 0) throw new UserInputError('Usage: npm run portal -- import firestore FILE [--apply] [--create-classes]');
    const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      throw new UserInputError(`Cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
    });
    const apply = parsed.values.apply ?? false;
    const createClasses = parsed.values['create-classes'] ?? false;
    const result = await importFirestore(database, text, CLI, { apply, createClasses, timeZone: loadConfig().timeZone }).catch((err: unknown) => {
      throw err instanceof HttpError ? new UserInputError(err.message) : err;
    });
    const { documents } = result;
    console.log(
      `The export holds ${documents.attendance} attendance, ${documents.registrations} registration and ${documents.cards} card documents` +
        (documents.other > 0 ? `, and ${documents.other} of other collections (left)` : '') +
        (result.alreadyImported > 0 ? `; ${result.alreadyImported} were imported before` : ''),
    );
    console.log(`${result.applied ? 'Imported' : 'It would add'}: ${firestoreImportSummary(result)}`);
    const many = (n: number, one: string, more: string) => `${n} ${n === 1 ? one : more}`;
    if (result.merged > 0) console.log(`${many(result.merged, 'attendance document', 'attendance documents')} merged into another of the same class and date`);
    if (result.cards > 0) console.log(`${many(result.cards, 'card', 'cards')} counted and left: the portal has no cards`);
    printNotes('Skipped', result.skipped);
    printNotes('Errors', result.errors);
    if (!result.applied) {
      console.log(
        result.errors.count > 0
          ? 'Nothing was changed. Add the missing classes (or use --create-classes), then run again with --apply.'
          : 'Nothing was changed: run again with --apply to import.',
      );
    }
  },
  async 'counters verify'(database, args) {
    positionals(args, 'verify', 0, 0);
    const differences = await findCounterDifferences(database.db);
    if (differences.length === 0) {
      console.log('Counters agree with the marks: every register and student counter, every register\'s term, and the class totals.');
      return;
    }
    console.log('Counters that disagree with the marks (present/late/absent/excused, stored then recomputed):');
    for (const d of differences) console.log(`  ${d.kind} ${d.key}: ${d.stored} stored, ${d.recomputed} recomputed`);
    console.log('Run npm run portal -- counters rebuild to recompute them from the marks.');
    const count = `${differences.length}${differences.length >= 100 ? ' or more' : ''}`;
    throw new UserInputError(`${count} ${differences.length === 1 ? 'counter disagrees' : 'counters disagree'} with the marks`);
  },
  async 'counters rebuild'(database, args) {
    positionals(args, 'counters rebuild', 0, 0);
    await database.db.transaction((tx) => rebuildCounters(tx));
    console.log('Counters recomputed from the marks.');
  },
  async 'timetable import'(database, args) {
    const [file] = positionals(args, 'timetable import FILE', 1, 1) as [string];
    const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      throw new UserInputError(`Cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
    });
    let imported: Map<string, number>;
    try {
      imported = await importTimetable(database.db, CLI, text);
    } catch (err) {
      if (err instanceof TimetableFileInvalid) {
        for (const { line, message } of err.errors) console.error(`Line ${line}: ${message}`);
        throw new UserInputError(`${err.message}; nothing was imported`);
      }
      if (err instanceof HttpError) throw new UserInputError(`${err.message}; nothing was imported`);
      throw err;
    }
    for (const [className, slots] of imported) console.log(`${className}: ${slots} ${slots === 1 ? 'period' : 'periods'} a week`);
    console.log(`Timetable imported for ${imported.size} ${imported.size === 1 ? 'class' : 'classes'}`);
  },
  async 'alerts evaluate'(database, args) {
    const values = options(args, ['term']);
    const config = loadConfig();
    const terms = await listTerms(database.db, config.timeZone);
    const term = values.term === undefined ? terms.find((t) => t.current) : terms.find((t) => t.name.toLowerCase() === values.term!.toLowerCase());
    if (!term) throw new UserInputError(values.term === undefined ? 'No term holds today: name one with --term NAME' : `There is no term named ${values.term}`);
    const started = Date.now();
    let shown = 0;
    const result = await evaluateTerm(database, await alertContextOf(database.db, config)(), term.id, (done, total) => {
      // A line every ten seconds or so, and the last.
      if (done === total || Date.now() - shown > 10_000) {
        shown = Date.now();
        console.log(`  ${done} of ${total} classes evaluated`);
      }
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `Evaluated ${result.students} students in ${term.name} in ${seconds} s: ${result.fired} alert${result.fired === 1 ? '' : 's'} opened, ${result.rearmed} closed`,
    );
  },
  async 'demo data'(database, args) {
    const values = options(args, ['marks', 'classes', 'students', 'periods']);
    const count = (name: string, least = 1): number | undefined => {
      const text = values[name];
      if (text === undefined) return undefined;
      const value = Number(text);
      if (!Number.isInteger(value) || value < least) throw new UserInputError(`--${name} must be a whole number of at least ${least}`);
      return value;
    };
    const periods = count('periods', 0);
    if (periods !== undefined && periods > 12) throw new UserInputError('--periods must be at most 12 (the periods of a day)');
    const marks = count('marks');
    if (marks === undefined) throw new UserInputError('--marks is required');
    const started = Date.now();
    const summary = await seedSynthetic(database.db, {
      marks,
      classes: count('classes'),
      students: count('students'),
      periods,
      timeZone: loadConfig().timeZone,
    }).catch((err: unknown) => {
      if (err instanceof Error && err.message === NOT_EMPTY_MESSAGE) throw new UserInputError(err.message);
      throw err;
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `Wrote ${summary.marks} marks: ${summary.classes} classes of ${summary.students / summary.classes} students, ` +
        `${summary.periods === 0 ? 'a whole-day register' : `${summary.periods} lectures`} a day on ${summary.days} week days ` +
        `from ${summary.from} to ${summary.to}, in ${seconds} s; counters rebuilt.`,
    );
  },
  ...backupCommands,
  async 'roster export'(database, args) {
    const [file] = positionals(args, 'roster export [FILE]', 0, 1);
    const { csv, count } = await exportRoster(database.db);
    if (file) {
      await writeFile(file, csv, 'utf8');
      console.log(`Wrote ${count} students to ${file}`);
    } else {
      process.stdout.write(csv);
    }
  },
};

export async function run(argv: string[]): Promise<number> {
  // `verify` is short for `counters verify`; `demo-data` is one word.
  // `backup` and `restore` are one word each.
  const spelled = argv[0] === 'backup' || argv[0] === 'restore' ? ['backup', argv[0] === 'backup' ? 'write' : 'restore', ...argv.slice(1)] : argv;
  const words = argv[0] === 'verify' ? ['counters', ...argv] : argv[0] === 'demo-data' ? ['demo', 'data', ...argv.slice(1)] : spelled;
  const [group, action, ...rest] = words;
  const key = `${group ?? ''} ${action ?? ''}`;
  const handler = commands[key];
  if (!handler) {
    console.error(group === undefined || group === 'help' || group === '--help' ? USAGE : `Unknown command "${argv.join(' ')}"\n\n${USAGE}`);
    return group === undefined || group === 'help' || group === '--help' ? 0 : 2;
  }
  const config = loadConfig();
  let database: Database;
  try {
    // On the embedded database a running portal holds the folder: refused before anything changes.
    // `pins fix` repairs what the PIN migration refuses, so it opens the database before migrating.
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      preparedStatements: config.preparedStatements,
      dataDir: config.dataDir,
      backupDir: config.backup.dir,
      // A backup is of the database as it is; a restore makes the schema of the backup itself.
      migrate: key !== 'pins fix' && key !== 'backup write' && key !== 'backup restore',
    });
  } catch (err) {
    if (err instanceof DataFolderLockedError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
  try {
    await handler(database, rest);
    return 0;
  } catch (err) {
    if (err instanceof UserInputError) {
      console.error(`Error: ${err.message}`);
      return 1;
    }
    throw err;
  } finally {
    await database.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
