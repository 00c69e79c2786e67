import { parseCsv } from '../../../shared/csv';
import type { SlotInput, Timetable } from '../../../shared/schemas/timetable';
import { WEEKDAYS } from '../../../shared/schemas/timetable';
import { MAX_PERIOD } from '../../../shared/schemas/attendance';
import type { Executor } from '../../db/client';
import { badRequest } from '../../http-error';
import { actorOf, recordAudit, type Actor } from '../audit/service';
import { assertClassExists, lockOpenClass } from '../classes/service';
import { bumpDataVersion } from '../data-version/service';
import { subjectsByCode } from '../subjects/service';
import * as repo from './repository';

export type { SlotRow } from './repository';

/** Who changes a timetable: a signed-in admin, or an actor such as the CLI. */
export type TimetableEditor = Actor | { id: string; email: string };

function actorFor(editor: TimetableEditor): Actor {
  return 'email' in editor ? actorOf(editor) : editor;
}

/** The ISO weekday of a `YYYY-MM-DD` date: 1 = Monday .. 7 = Sunday. */
export function weekdayOf(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

/** A class's timetabled periods on the weekday of `date`, in period order. */
export function periodsOn(db: Executor, className: string, date: string): Promise<repo.SlotRow[]> {
  return repo.slotsOn(db, className, weekdayOf(date));
}

function toTimetable(className: string, rows: repo.SlotRow[]): Timetable {
  return {
    class: className,
    slots: rows.map((row) => ({ weekday: row.weekday, period: row.period, subject: { code: row.subjectCode, name: row.subjectName } })),
  };
}

/** GET /api/classes/:class/timetable: the class's week, by weekday and period (404 for an unknown class). */
export async function getTimetable(db: Executor, className: string): Promise<Timetable> {
  await assertClassExists(db, className);
  return toTimetable(className, await repo.slotsOf(db, className));
}

async function assertSubjectsExist(db: Executor, slots: readonly SlotInput[]): Promise<void> {
  const codes = [...new Set(slots.map((slot) => slot.subject))];
  const known = await subjectsByCode(db, codes);
  const unknown = codes.filter((code) => !known.has(code));
  if (unknown.length === 1) throw badRequest(`There is no subject with the code ${unknown[0]}`);
  if (unknown.length > 1) throw badRequest(`There are no subjects with the codes ${unknown.join(', ')}`);
}

/** Replaces one class's week inside the caller's transaction: the class is locked, so register saves wait. */
async function replaceTimetable(tx: Executor, editor: TimetableEditor, className: string, slots: readonly SlotInput[]): Promise<void> {
  await lockOpenClass(tx, className);
  await assertSubjectsExist(tx, slots);
  await repo.replaceSlots(
    tx,
    className,
    slots.map((slot) => ({ weekday: slot.weekday, period: slot.period, subjectCode: slot.subject })),
  );
  await recordAudit(tx, actorFor(editor), 'timetable.update', className, { slots: slots.length });
}

/**
 * PUT /api/admin/classes/:class/timetable: the class's whole week, in one transaction. Registers
 * already taken keep the subject they were taken for.
 */
export async function putTimetable(db: Executor, editor: TimetableEditor, className: string, slots: readonly SlotInput[]): Promise<Timetable> {
  return db.transaction(async (tx) => {
    await replaceTimetable(tx, editor, className, slots);
    await bumpDataVersion(tx);
    return toTimetable(className, await repo.slotsOf(tx, className));
  });
}

/** A problem of a timetable file, by line (the header is line 1). */
export interface TimetableFileError {
  line: number;
  message: string;
}

export class TimetableFileInvalid extends Error {
  constructor(readonly errors: TimetableFileError[]) {
    super(`The timetable file has ${errors.length} ${errors.length === 1 ? 'error' : 'errors'}`);
    this.name = 'TimetableFileInvalid';
  }
}

export const TIMETABLE_HEADER = ['class', 'weekday', 'period', 'subject'] as const;

const WEEKDAY_NAMES = new Map<string, number>(
  WEEKDAYS.flatMap((name, index) => [
    [name.toLowerCase(), index + 1],
    [name.slice(0, 3).toLowerCase(), index + 1],
  ]),
);

function parseWeekday(text: string): number | undefined {
  if (/^[1-7]$/.test(text)) return Number(text);
  return WEEKDAY_NAMES.get(text.toLowerCase());
}

/**
 * `portal timetable import FILE`: a CSV `class,weekday,period,subject` (weekday 1..7 or Mon..Sun,
 * subject a code that exists). Every line is checked first; then each class named in the file gets
 * exactly the file's week, all in one transaction, or nothing changes. Classes not in the file keep
 * theirs. Returns the slots per class.
 */
export async function importTimetable(db: Executor, editor: TimetableEditor, text: string): Promise<Map<string, number>> {
  const [header, ...records] = parseCsv(text).filter((record) => record.fields.some((field) => field.trim() !== ''));
  const errors: TimetableFileError[] = [];
  const headerFields = header?.fields.map((field) => field.trim().toLowerCase()) ?? [];
  if (headerFields.join(',') !== TIMETABLE_HEADER.join(',')) {
    throw new TimetableFileInvalid([{ line: header?.line ?? 1, message: `The first line must be ${TIMETABLE_HEADER.join(',')}` }]);
  }
  const byClass = new Map<string, SlotInput[]>();
  const seen = new Map<string, number>();
  for (const record of records) {
    if (record.error) {
      errors.push({ line: record.line, message: record.error });
      continue;
    }
    const [className = '', weekdayText = '', periodText = '', subjectText = ''] = record.fields.map((field) => field.trim());
    const problems: string[] = [];
    if (record.fields.length !== 4) problems.push('expected 4 fields: class,weekday,period,subject');
    const weekday = parseWeekday(weekdayText);
    if (weekday === undefined) problems.push(`weekday "${weekdayText}" is not 1 to 7 or a day's name`);
    const period = /^\d{1,2}$/.test(periodText) ? Number(periodText) : NaN;
    if (!(period >= 1 && period <= MAX_PERIOD)) problems.push(`period "${periodText}" is not 1 to ${MAX_PERIOD}`);
    if (className === '') problems.push('the class is missing');
    if (subjectText === '') problems.push('the subject is missing');
    if (problems.length > 0) {
      errors.push({ line: record.line, message: problems.join('; ') });
      continue;
    }
    const key = `${className}/${weekday}/${period}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      errors.push({ line: record.line, message: `${className} ${WEEKDAYS[weekday! - 1]} period ${period} is already on line ${earlier}` });
      continue;
    }
    seen.set(key, record.line);
    const slots = byClass.get(className) ?? [];
    slots.push({ weekday: weekday!, period, subject: subjectText.toUpperCase() });
    byClass.set(className, slots);
  }
  if (errors.length > 0) throw new TimetableFileInvalid(errors);

  await db.transaction(async (tx) => {
    // Classes locked in name order: two imports at once wait for each other instead of deadlocking.
    const ordered = [...byClass].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [className, slots] of ordered) await replaceTimetable(tx, editor, className, slots);
    await bumpDataVersion(tx);
  });
  return new Map([...byClass].map(([className, slots]) => [className, slots.length]));
}

/** The synthetic timetable of `portal demo-data` (see repository.insertSyntheticWeek); no audit, as for the rest of that data. */
export function recordSyntheticTimetable(db: Executor, input: { classNames: readonly string[]; subjectCodes: readonly string[] }): Promise<void> {
  return repo.insertSyntheticWeek(db, input.classNames, input.subjectCodes);
}
