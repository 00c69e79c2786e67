import { parseCsv } from '../../../shared/csv';
import type { PeriodTime, PeriodTimes } from '../../../shared/schemas/alerts';
import type { SlotInput, Timetable } from '../../../shared/schemas/timetable';
import { TEACHER_MESSAGE, WEEKDAYS } from '../../../shared/schemas/timetable';
import { MAX_PERIOD } from '../../../shared/schemas/attendance';
import type { Executor } from '../../db/client';
import { badRequest } from '../../http-error';
import { findUserByEmail, lockActiveStaff } from '../accounts/service';
import { actorOf, recordAudit, type Actor } from '../audit/service';
import { assertClassExists, listActiveClassNames, lockOpenClass } from '../classes/service';
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

function toTimetable(className: string, rows: repo.WeekSlotRow[]): Timetable {
  return {
    class: className,
    slots: rows.map((row) => ({
      weekday: row.weekday,
      period: row.period,
      subject: { code: row.subjectCode, name: row.subjectName },
      teacher: row.teacherId === null ? null : { id: row.teacherId, name: row.teacherName ?? '', email: row.teacherEmail ?? '' },
    })),
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

/** A slot's teacher must be an enabled faculty or admin account, and stays one until the transaction ends. */
async function assertTeachersActive(tx: Executor, slots: readonly SlotInput[]): Promise<void> {
  const ids = [...new Set(slots.flatMap((slot) => (slot.teacherId ? [slot.teacherId] : [])))];
  const active = await lockActiveStaff(tx, ids);
  if (ids.some((id) => !active.has(id))) throw badRequest(TEACHER_MESSAGE);
}

/**
 * Replaces one class's week inside the caller's transaction: the class is locked, so register saves
 * wait. A slot without a teacher has none afterwards, whatever it had: the slots are the whole week.
 */
async function replaceTimetable(tx: Executor, editor: TimetableEditor, className: string, slots: readonly SlotInput[]): Promise<void> {
  await lockOpenClass(tx, className);
  await assertSubjectsExist(tx, slots);
  await assertTeachersActive(tx, slots);
  await repo.replaceSlots(
    tx,
    className,
    slots.map((slot) => ({ weekday: slot.weekday, period: slot.period, subjectCode: slot.subject, teacherId: slot.teacherId ?? null })),
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
/** The optional fifth column: the e-mail of the slot's teacher (blank: none). */
export const TIMETABLE_TEACHER_COLUMN = 'teacher';

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

/** A slot read from a timetable file, with its teacher's e-mail and line until the e-mail is looked up. */
interface FileSlot extends SlotInput {
  teacherEmail: string;
  line: number;
}

/** The id of each e-mail's account, for those that are enabled faculty or admin accounts. */
async function staffIdsByEmail(db: Executor, emails: readonly string[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const email of emails) {
    const user = await findUserByEmail(db, email);
    if (user && user.role !== 'student' && !user.disabledAt) ids.set(email, user.id);
  }
  return ids;
}

/**
 * `portal timetable import FILE`: a CSV `class,weekday,period,subject` (weekday 1..7 or Mon..Sun,
 * subject a code that exists), with an optional fifth column `teacher`, the e-mail of an enabled
 * faculty or admin account (blank: no teacher). Every line is checked first; then each class named
 * in the file gets exactly the file's week, all in one transaction, or nothing changes. Classes not
 * in the file keep theirs. Returns the slots per class.
 */
export async function importTimetable(db: Executor, editor: TimetableEditor, text: string): Promise<Map<string, number>> {
  const [header, ...records] = parseCsv(text).filter((record) => record.fields.some((field) => field.trim() !== ''));
  const errors: TimetableFileError[] = [];
  const headerFields = header?.fields.map((field) => field.trim().toLowerCase()) ?? [];
  const withTeacher = headerFields.join(',') === [...TIMETABLE_HEADER, TIMETABLE_TEACHER_COLUMN].join(',');
  if (!withTeacher && headerFields.join(',') !== TIMETABLE_HEADER.join(',')) {
    throw new TimetableFileInvalid([
      { line: header?.line ?? 1, message: `The first line must be ${TIMETABLE_HEADER.join(',')} (and ,${TIMETABLE_TEACHER_COLUMN} if the file names teachers)` },
    ]);
  }
  const columns = headerFields.length;
  const byClass = new Map<string, FileSlot[]>();
  const seen = new Map<string, number>();
  for (const record of records) {
    if (record.error) {
      errors.push({ line: record.line, message: record.error });
      continue;
    }
    const [className = '', weekdayText = '', periodText = '', subjectText = '', teacherEmail = ''] = record.fields.map((field) => field.trim());
    const problems: string[] = [];
    if (record.fields.length !== columns) problems.push(`expected ${columns} fields: ${headerFields.join(',')}`);
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
    slots.push({ weekday: weekday!, period, subject: subjectText.toUpperCase(), teacherEmail: teacherEmail.toLowerCase(), line: record.line });
    byClass.set(className, slots);
  }
  const fileSlots = [...byClass.values()].flat();
  const teachers = await staffIdsByEmail(db, [...new Set(fileSlots.flatMap((slot) => (slot.teacherEmail ? [slot.teacherEmail] : [])))]);
  for (const slot of fileSlots) {
    if (slot.teacherEmail && !teachers.has(slot.teacherEmail)) {
      errors.push({ line: slot.line, message: `teacher "${slot.teacherEmail}" is not an active faculty account` });
    }
  }
  if (errors.length > 0) throw new TimetableFileInvalid(errors.sort((a, b) => a.line - b.line));

  await db.transaction(async (tx) => {
    // Classes locked in name order: two imports at once wait for each other instead of deadlocking.
    const ordered = [...byClass].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [className, slots] of ordered) {
      const inputs = slots.map(({ weekday, period, subject, teacherEmail }) => ({
        weekday,
        period,
        subject,
        teacherId: teachers.get(teacherEmail) ?? null,
      }));
      await replaceTimetable(tx, editor, className, inputs);
    }
    await bumpDataVersion(tx);
  });
  return new Map([...byClass].map(([className, slots]) => [className, slots.length]));
}

/** GET /api/periods: the day's period times, by period (periods without times are left out). */
export function periodTimes(db: Executor): Promise<PeriodTime[]> {
  return repo.listPeriods(db);
}

/**
 * PUT /api/admin/periods: the whole day's period times, in one audited transaction; a period left
 * out has no times afterwards. Reports do not read them, so no data version changes.
 */
export async function putPeriodTimes(db: Executor, editor: TimetableEditor, times: PeriodTimes): Promise<PeriodTime[]> {
  const written = (rows: readonly PeriodTime[]) => rows.map((row) => `${row.period} ${row.startsAt}-${row.endsAt}`);
  return db.transaction(async (tx) => {
    const before = await repo.replacePeriods(tx, times);
    const saved = await repo.listPeriods(tx);
    await recordAudit(tx, actorFor(editor), 'periods.update', 'period times', { from: written(before), to: written(saved) });
    return saved;
  });
}

/** One timetabled lecture of a weekday: its class, period, subject and teacher (null: none named). */
export interface WeekdaySlot {
  className: string;
  period: number;
  subjectCode: string;
  teacherId: string | null;
}

/** The timetabled lectures of the active classes on an ISO weekday (1 = Monday), in class order, then by period. */
export async function slotsWithTeachers(db: Executor, weekday: number): Promise<WeekdaySlot[]> {
  const classNames = await listActiveClassNames(db);
  const rows = await repo.slotsOnWeekday(db, weekday, classNames);
  const order = new Map(classNames.map((name, index) => [name, index]));
  return rows.sort((a, b) => order.get(a.className)! - order.get(b.className)! || a.period - b.period);
}

/** The synthetic timetable of `portal demo-data` (see repository.insertSyntheticWeek); no audit, as for the rest of that data. */
export function recordSyntheticTimetable(db: Executor, input: { classNames: readonly string[]; subjectCodes: readonly string[] }): Promise<void> {
  return repo.insertSyntheticWeek(db, input.classNames, input.subjectCodes);
}
