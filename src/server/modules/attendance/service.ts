import { attends, countMarks, percentage, type MarkStatus } from '../../../shared/attendance-rules';
import {
  CHOOSE_PERIOD_MESSAGE,
  type AttendanceChange,
  type AttendanceRecord,
  type AttendanceRegister,
  type ClassSummary,
  type DayPeriod,
  type PreviousRegister,
  type SaveAttendanceRequest,
} from '../../../shared/schemas/attendance';
import type { Subject } from '../../../shared/schemas/subjects';
import { todayIn } from '../../../shared/dates';
import type { Database, Executor, Tx } from '../../db/client';
import { badRequest, conflict } from '../../http-error';
import { actorOf, recordAudit } from '../audit/service';
import { assertClassExists, assertClassOpen, listActiveClassNames, lockOpenClass } from '../classes/service';
import { countMarkChanges, termIdOn } from '../counters/service';
import { bumpDataVersion } from '../data-version/service';
import { countByClass, listClassRoster } from '../roster/service';
import { findSubject } from '../subjects/service';
import { periodsOn } from '../timetable/service';
import * as repo from './repository';
import type { ChangeRow, HistoryCursor, MarkRow, RegisterWithTaker, StudentMarkRow } from './repository';

export type { HistoryCursor, StudentMarkRow } from './repository';

/** Channel on which every server process hears that a register was saved. */
export const ATTENDANCE_CHANNEL = 'attendance';

const MAX_PINS_NAMED = 10;

/** PIN order as the database sorts `pin collate "C"`: by the bytes of the text. */
function byPin(a: { pin: string }, b: { pin: string }): number {
  return Buffer.compare(Buffer.from(a.pin), Buffer.from(b.pin));
}

function toRecord(mark: Pick<MarkRow, 'pin' | 'name' | 'className' | 'status'>, checkedInAt?: Date): AttendanceRecord {
  return {
    pin: mark.pin,
    name: mark.name,
    class: mark.className,
    status: mark.status,
    present: attends(mark.status),
    ...(checkedInAt ? { checkedInAt: checkedInAt.toISOString() } : {}),
  };
}

function subjectOf(register: Pick<RegisterWithTaker, 'subjectCode' | 'subjectName'>): Subject | null {
  return register.subjectCode === null ? null : { code: register.subjectCode, name: register.subjectName ?? register.subjectCode };
}

/** The register's counters, not a recount: reports read them, so the screen shows what reports will use. */
function statsOf(register: RegisterWithTaker): AttendanceRegister['stats'] {
  const { presentCount: present, absentCount: absent, lateCount: late, excusedCount: excused } = register;
  return { total: present + absent + late + excused, present, absent, late, excused };
}

function toRegister(
  register: RegisterWithTaker,
  marks: readonly Pick<MarkRow, 'pin' | 'name' | 'className' | 'status'>[],
  checkedIn: ReadonlyMap<string, Date> = new Map(),
): AttendanceRegister {
  return {
    class: register.className,
    date: register.date,
    period: register.period,
    subject: subjectOf(register),
    submitted: true,
    ...(register.takerName !== null ? { takenBy: register.takerName } : {}),
    takenAt: register.takenAt.toISOString(),
    updatedAt: register.updatedAt.toISOString(),
    records: marks.map((mark) => toRecord(mark, checkedIn.get(mark.pin))),
    stats: statsOf(register),
  };
}

function toChange(row: ChangeRow): AttendanceChange {
  return {
    pin: row.pin,
    name: row.name ?? '',
    oldStatus: row.oldStatus,
    newStatus: row.newStatus,
    oldValue: row.oldStatus === null ? null : attends(row.oldStatus),
    newValue: attends(row.newStatus),
    changedBy: row.changedBy,
    changedAt: row.changedAt.toISOString(),
    reason: row.reason,
    source: row.source,
  };
}

/** The subject the timetable gives a period on a date's weekday, if any. */
async function timetabledSubject(db: Executor, className: string, date: string, period: number): Promise<Subject | null> {
  if (period === 0) return null;
  const slot = (await periodsOn(db, className, date)).find((s) => s.period === period);
  return slot ? { code: slot.subjectCode, name: slot.subjectName } : null;
}

async function readRegister(db: Executor, className: string, date: string, period: number): Promise<AttendanceRegister> {
  const register = await repo.findRegister(db, className, date, period);
  if (register) {
    const [marks, checkedIn] = await Promise.all([repo.listMarks(db, register.id), repo.listSelfCheckIns(db, register.id)]);
    return toRegister(register, marks, checkedIn);
  }
  // Not taken yet: the roster with everyone absent, as the original app's register screen started.
  const [roster, subject] = await Promise.all([listClassRoster(db, className), timetabledSubject(db, className, date, period)]);
  const records = roster.map((s) => toRecord({ ...s, status: 'absent' }));
  return { class: className, date, period, subject, submitted: false, records, stats: countMarks(records) };
}

export async function getRegister(db: Executor, className: string, date: string, period = 0): Promise<AttendanceRegister> {
  await assertClassExists(db, className);
  return readRegister(db, className, date, period);
}

/** A student's marks per day between two dates, by status. */
export function studentDayCounts(db: Executor, pin: string, from: string, to: string) {
  return repo.dayCountsOf(db, pin, from, to);
}

/** A student's mark on a date and period, with its register: what a correction request is about. */
export function findStudentMark(db: Executor, pin: string, date: string, period: number) {
  return repo.findMarkOn(db, pin, date, period);
}

/** The register taken last before this one, for a new register that starts as its copy (decision 16). */
export async function getPreviousRegister(db: Executor, className: string, date: string, period = 0): Promise<PreviousRegister> {
  await assertClassExists(db, className);
  const previous = await repo.findRegisterBefore(db, className, date, period);
  if (!previous) return null;
  const marks = await repo.listMarks(db, previous.id);
  return { date: previous.date, period: previous.period, marks: marks.map((mark) => ({ pin: mark.pin, status: mark.status })) };
}

/**
 * The periods of one class on one date (decision 13): the timetable's for that weekday, and
 * every register taken that day (a whole-day one, or an extra lecture), in period order.
 */
export async function listDayPeriods(db: Executor, className: string, date: string): Promise<DayPeriod[]> {
  await assertClassExists(db, className);
  const [slots, taken] = await Promise.all([periodsOn(db, className, date), repo.listRegistersOn(db, className, date)]);
  const byPeriod = new Map<number, DayPeriod>();
  for (const slot of slots) {
    byPeriod.set(slot.period, {
      period: slot.period,
      subject: { code: slot.subjectCode, name: slot.subjectName },
      submitted: false,
      stats: null,
    });
  }
  // A register keeps the subject it was taken for, whatever the timetable says now.
  for (const register of taken) {
    byPeriod.set(register.period, { period: register.period, subject: subjectOf(register), submitted: true, stats: statsOf(register) });
  }
  return [...byPeriod.values()].sort((a, b) => a.period - b.period);
}

/** The dashboard's class cards: each active (not archived) class with its roster size and whether a register is taken today. */
export async function listClassSummaries(db: Executor, timeZone: string, now = new Date()): Promise<ClassSummary[]> {
  const [names, sizes, taken] = await Promise.all([listActiveClassNames(db), countByClass(db), repo.listTakenOn(db, todayIn(timeZone, now))]);
  const byClass = new Map(taken.map((row) => [row.className, row]));
  return names.map((name) => {
    const today = byClass.get(name);
    return {
      name,
      studentCount: sizes.get(name) ?? 0,
      todayTaken: today !== undefined,
      today: today
        ? {
            registers: today.registers,
            lastBy: today.lastBy,
            lastAt: today.lastAt.toISOString(),
            attended: today.attended,
            held: today.held,
            percentage: percentage(today.attended, today.held),
          }
        : null,
    };
  });
}

function namePins(pins: string[]): string {
  const shown = pins.slice(0, MAX_PINS_NAMED).join(', ');
  return pins.length > MAX_PINS_NAMED ? `${shown} and ${pins.length - MAX_PINS_NAMED} more` : shown;
}

export interface SaveRegisterInput {
  className: string;
  date: string;
  /** 0 (the default): the whole-day register. */
  period?: number | undefined;
  /** Who saves it: recorded as the register's taker and in the audit trail. */
  user: { id: string; email: string };
  body: SaveAttendanceRequest;
  timeZone: string;
  now?: Date;
  /** Called when the after-save notification fails; the save itself has succeeded. */
  onNotifyError?: (err: unknown) => void;
  /** More writes in the save's transaction, after the marks (a correction request's decision). */
  within?: (tx: Tx) => Promise<void>;
}

/**
 * The subject a new period register is taken for: the one named in the body (an extra lecture,
 * or a change on the day), else the timetable's.
 */
async function subjectForNewRegister(tx: Tx, input: SaveRegisterInput, period: number): Promise<string | null> {
  if (period === 0) return null;
  const named = input.body.subject;
  if (named !== undefined) {
    const subject = await findSubject(tx, named);
    if (!subject) throw badRequest(`There is no subject with the code ${named}`);
    return subject.code;
  }
  const subject = await timetabledSubject(tx, input.className, input.date, period);
  if (!subject) throw badRequest(`Period ${period} is not on the ${input.className} timetable for that day: choose its subject`);
  return subject.code;
}

/**
 * Creates or replaces one register: a class on a date, for one period (0: the whole day).
 *
 * The body describes the whole register: every student on the class roster gets a mark, absent
 * unless the body says otherwise, so a register always covers the class. Marks of students who
 * have left the class since the register was first taken are kept as they were (they are that
 * day's record) unless the body names them. Every mark whose status changes is appended to the
 * history with the saver and the optional reason, and counted into the student counters in the
 * same transaction. A date has either a whole-day register or period registers, never both (409).
 */
export async function saveRegister(database: Database, input: SaveRegisterInput): Promise<AttendanceRegister> {
  const { className, date, body } = input;
  const period = input.period ?? 0;
  const userId = input.user.id;
  const actor = actorOf(input.user);
  const today = todayIn(input.timeZone, input.now);
  if (date > today) throw badRequest(`Attendance cannot be taken for a future date (today is ${today})`);
  const wanted = new Map<string, MarkStatus>(body.records.map((r) => [r.pin, r.status]));
  const reason = body.reason ? body.reason : null;

  const register = await database.db.transaction(async (tx) => {
    // Saves of one class run one at a time, and an archived class takes no new registers (409).
    await lockOpenClass(tx, className);
    const sameDay = await repo.listRegistersOn(tx, className, date);
    if (sameDay.some((r) => (r.period === 0) !== (period === 0))) throw conflict(CHOOSE_PERIOD_MESSAGE);
    const isNew = !sameDay.some((r) => r.period === period);
    const subjectCode = isNew ? await subjectForNewRegister(tx, input, period) : null;
    // Looked up (and the terms locked against change) before the register row is read.
    const termId = await termIdOn(tx, date);
    const register = await repo.lockRegister(tx, { className, date, period }, { subjectCode, termId, takenBy: userId });
    // Read under the lock: a save that waited sees the marks of the save it waited for.
    const roster = await listClassRoster(tx, className);
    const existing = new Map((await repo.listMarks(tx, register.id)).map((m) => [m.pin, m]));
    // Marks that came from a self check-in (decision 45) stay so unless this save changes them.
    const checkedIn = existing.size > 0 ? await repo.listSelfCheckIns(tx, register.id) : new Map<string, Date>();

    const allowed = new Set([...roster.map((s) => s.pin), ...existing.keys()]);
    const unknown = [...wanted.keys()].filter((pin) => !allowed.has(pin));
    if (unknown.length === 1) throw badRequest(`PIN ${unknown[0]} is not on the ${className} roster`);
    if (unknown.length > 1) throw badRequest(`PINs ${namePins(unknown)} are not on the ${className} roster`);

    const marks = roster.map((s) => ({
      registerId: register.id,
      pin: s.pin,
      name: s.name,
      className: s.className,
      date,
      period,
      status: wanted.get(s.pin) ?? ('absent' as MarkStatus),
    }));
    const onRoster = new Set(roster.map((s) => s.pin));
    for (const old of existing.values()) {
      if (onRoster.has(old.pin)) continue;
      marks.push({ ...old, status: wanted.get(old.pin) ?? old.status });
    }
    if (marks.length === 0) throw badRequest(`Class ${className} has no students on its roster`);

    const changes = marks
      .map((m) => ({ pin: m.pin, oldStatus: existing.get(m.pin)?.status ?? null, newStatus: m.status }))
      .filter((c) => c.oldStatus !== c.newStatus);

    const stats = countMarks(marks);
    const saved = await repo.writeMarks(tx, register.id, marks, stats, changes, { changedBy: userId, reason });
    await countMarkChanges(
      tx,
      register,
      changes.map((c) => ({ pin: c.pin, from: c.oldStatus, to: c.newStatus })),
    );
    await bumpDataVersion(tx);
    // A register with marks before this save is replaced; otherwise it is new.
    const replaced = existing.size > 0;
    const target = period === 0 ? `${className} ${date}` : `${className} ${date} period ${period}`;
    await recordAudit(tx, actor, replaced ? 'register.replace' : 'register.save', target, {
      class: className,
      date,
      ...(period > 0 ? { period, subject: register.subjectCode } : {}),
      present: stats.present,
      absent: stats.absent,
      ...(stats.late > 0 ? { late: stats.late } : {}),
      ...(stats.excused > 0 ? { excused: stats.excused } : {}),
      changed: changes.length,
      ...(reason ? { reason } : {}),
    });
    if (input.within) {
      await input.within(tx);
      return readRegister(tx, className, date, period);
    }
    for (const change of changes) checkedIn.delete(change.pin);
    // The register's marks are exactly those just written, in the order listMarks gives.
    return toRegister(saved, [...marks].sort(byPin), checkedIn);
  });

  await notifyRegisterSaved(database, { className, date, period }, input.onNotifyError);
  return register;
}

/** Tells every server process that a register was written (live updates); after the commit. */
export async function notifyRegisterSaved(
  database: Pick<Database, 'notify'>,
  register: { className: string; date: string; period: number },
  onError?: (err: unknown) => void,
): Promise<void> {
  try {
    await database.notify(ATTENDANCE_CHANNEL, JSON.stringify({ class: register.className, date: register.date, period: register.period }));
  } catch (err) {
    onError?.(err);
  }
}

export async function getHistory(db: Executor, className: string, date: string, period = 0): Promise<AttendanceChange[]> {
  await assertClassExists(db, className);
  const register = await repo.findRegister(db, className, date, period);
  if (!register) return [];
  return (await repo.listChanges(db, register.id)).map(toChange);
}

/** How many registers each class has (a class with none is absent): the admin's class list. */
export function countRegistersByClass(db: Executor): Promise<Map<string, number>> {
  return repo.countRegistersByClass(db);
}

/** One page of a student's marks, newest first, with the name and class they had that day. */
export function listStudentMarks(
  db: Executor,
  pin: string,
  options: { limit: number; before?: HistoryCursor | undefined; from?: string | null; to?: string | null },
): Promise<StudentMarkRow[]> {
  return repo.listMarksByPin(db, pin, options);
}

/** The name and class of a student's latest mark, if any. */
export function latestMarkOf(db: Executor, pin: string): Promise<{ name: string; className: string } | undefined> {
  return repo.latestMarkOf(db, pin);
}

export interface PastRegister {
  className: string;
  date: string;
  period?: number;
  subjectCode?: string | null;
  takenBy: string | null;
  takenAt: Date;
  marks: { pin: string; name: string; className: string; status: MarkStatus }[];
}

/** Records a register taken in the past, with no change history but with its counters: how demo data is written. */
export async function recordPastRegister(tx: Tx, register: PastRegister): Promise<void> {
  const { marks, ...row } = register;
  const stats = countMarks(marks);
  const termId = await termIdOn(tx, row.date);
  const subjectCode = row.subjectCode ?? null;
  await repo.insertRegister(
    tx,
    {
      ...row,
      period: row.period ?? 0,
      subjectCode,
      termId,
      presentCount: stats.present,
      absentCount: stats.absent,
      lateCount: stats.late,
      excusedCount: stats.excused,
    },
    marks,
  );
  await countMarkChanges(tx, { subjectCode, termId }, marks.map((m) => ({ pin: m.pin, from: null, to: m.status })));
  await bumpDataVersion(tx);
}

export function portalToday(timeZone: string, now = new Date()): { date: string; timeZone: string } {
  return { date: todayIn(timeZone, now), timeZone };
}

/**
 * Synthetic history for benchmarks and trials (`portal demo-data --marks N`): registers of every
 * class on every date given (a whole-day one, or one per period with its timetabled subject), a
 * mark per roster student; the caller rebuilds the counters.
 */
export function recordSyntheticHistory(
  tx: Tx,
  input: { classNames: readonly string[]; dates: readonly string[]; periods: number; takenBy: string },
): Promise<number> {
  return repo.insertSyntheticHistory(tx, input);
}

/** The subject a register is (or, not taken yet, would be) taken for: its own, else the timetable's; null for period 0. */
export async function registerSubjectOf(db: Executor, className: string, date: string, period: number): Promise<Subject | null> {
  const register = await repo.findRegister(db, className, date, period);
  return register ? subjectOf(register) : timetabledSubject(db, className, date, period);
}

/**
 * Refuses a register that cannot take marks as a self check-in would write them (decision 45): an
 * unknown (404) or archived (409) class, a date that would mix a whole-day register with lectures
 * (409), a new lecture the timetable does not give that day (400: faculty choose its subject by
 * saving the register). Returns the register's subject.
 */
export async function assertSelfMarksPossible(db: Executor, className: string, date: string, period: number): Promise<Subject | null> {
  await assertClassOpen(db, className);
  const sameDay = await repo.listRegistersOn(db, className, date);
  if (sameDay.some((r) => (r.period === 0) !== (period === 0))) throw conflict(CHOOSE_PERIOD_MESSAGE);
  const taken = sameDay.find((r) => r.period === period);
  if (taken) return subjectOf(taken);
  const subject = await timetabledSubject(db, className, date, period);
  if (period > 0 && !subject) {
    throw badRequest(`Period ${period} is not on the ${className} timetable for that day: save the register with its subject first`);
  }
  return subject;
}

export interface SelfMarkInput {
  className: string;
  date: string;
  period: number;
  pin: string;
  /** The status the check-in gives: present, or late. */
  status: MarkStatus;
  /** The register's taker if the check-in makes it: the faculty member who opened the check-in. */
  takenBy: string | null;
  /** The student's account: the author of the change in the register's history. */
  changedBy: string;
}

/** What a self check-in did to the mark: wrote `status` over `previous` (null: no mark before), or kept faculty's. */
export type SelfMarkOutcome = { kept: false; status: MarkStatus; previous: MarkStatus | null } | { kept: true; status: MarkStatus };

/** Writes one student's mark into a register, with its counters and (when it changes) a history row. */
async function writeOneMark(
  tx: Tx,
  register: repo.RegisterRow,
  existing: ReadonlyMap<string, MarkRow>,
  mark: { pin: string; name: string; className: string; status: MarkStatus },
  roster: readonly { pin: string; name: string; className: string }[],
  by: { changedBy: string; reason: string | null; source: 'faculty' | 'self' },
): Promise<void> {
  const previous = existing.get(mark.pin)?.status ?? null;
  const { date, period } = register;
  // A register the check-in makes covers the class, as a save does: everyone else absent.
  const marks =
    existing.size === 0
      ? roster.map((s) => ({ registerId: register.id, pin: s.pin, name: s.name, className: s.className, date, period, status: s.pin === mark.pin ? mark.status : ('absent' as MarkStatus) }))
      : [{ registerId: register.id, ...mark, date, period }];
  if (!marks.some((m) => m.pin === mark.pin)) marks.push({ registerId: register.id, ...mark, date, period });
  const after = new Map<string, MarkStatus>([...existing.values()].map((m) => [m.pin, m.status]));
  for (const m of marks) after.set(m.pin, m.status);
  const counted = marks
    .map((m) => ({ pin: m.pin, from: existing.get(m.pin)?.status ?? null, to: m.status }))
    .filter((c) => c.from !== c.to);
  // Only the student's own mark goes into the history: the others' absent marks are the register's start.
  await repo.writeMarks(
    tx,
    register.id,
    marks,
    countMarks([...after.values()].map((status) => ({ status }))),
    [{ pin: mark.pin, oldStatus: previous, newStatus: mark.status }],
    by,
  );
  await countMarkChanges(tx, register, counted);
  await bumpDataVersion(tx);
}

/**
 * A self check-in's mark (decision 45), in the caller's transaction: the student's mark in the
 * register of (class, date, period) becomes `status`, unless faculty have set it (a change of
 * theirs in the register's history), which it never changes. A register the check-in makes has
 * the roster's other students absent, as a save would, and the opener as its taker. The change is
 * recorded with source `self`; counters and class totals follow as with a save.
 */
export async function writeSelfMark(tx: Tx, input: SelfMarkInput): Promise<SelfMarkOutcome> {
  const { className, date, period, pin } = input;
  await lockOpenClass(tx, className);
  const sameDay = await repo.listRegistersOn(tx, className, date);
  if (sameDay.some((r) => (r.period === 0) !== (period === 0))) throw conflict(CHOOSE_PERIOD_MESSAGE);
  const isNew = !sameDay.some((r) => r.period === period);
  let subjectCode: string | null = null;
  if (isNew && period > 0) {
    const subject = await timetabledSubject(tx, className, date, period);
    if (!subject) throw badRequest(`Period ${period} is not on the ${className} timetable for that day`);
    subjectCode = subject.code;
  }
  const termId = await termIdOn(tx, date);
  const register = await repo.lockRegister(tx, { className, date, period }, { subjectCode, termId, takenBy: input.takenBy });
  const existing = new Map((await repo.listMarks(tx, register.id)).map((m) => [m.pin, m]));
  const previous = existing.get(pin)?.status ?? null;
  if (previous !== null && (await repo.hasFacultyChange(tx, register.id, pin))) return { kept: true, status: previous };
  if (previous === input.status) return { kept: false, status: previous, previous };
  const roster = await listClassRoster(tx, className);
  const student = roster.find((s) => s.pin === pin) ?? existing.get(pin);
  if (!student) throw badRequest(`PIN ${pin} is not on the ${className} roster`);
  await writeOneMark(tx, register, existing, { pin, name: student.name, className: student.className, status: input.status }, roster, {
    changedBy: input.changedBy,
    reason: null,
    source: 'self',
  });
  return { kept: false, status: input.status, previous };
}

/**
 * Undoes a self check-in (faculty removed it): the student's mark becomes `status` again, with the
 * reason in the register's history, if the mark is still the check-in's (faculty have not changed
 * it since). Returns whether the mark was changed.
 */
export async function restoreSelfMark(
  tx: Tx,
  input: { className: string; date: string; period: number; pin: string; status: MarkStatus; changedBy: string; reason: string },
): Promise<boolean> {
  const { className, date, period, pin } = input;
  await lockOpenClass(tx, className);
  const found = await repo.findRegister(tx, className, date, period);
  if (!found) return false;
  const register = await repo.lockRegister(tx, { className, date, period }, { subjectCode: null, termId: null, takenBy: null });
  if (!(await repo.listSelfCheckIns(tx, register.id)).has(pin)) return false;
  const existing = new Map((await repo.listMarks(tx, register.id)).map((m) => [m.pin, m]));
  const current = existing.get(pin);
  if (!current || current.status === input.status) return false;
  await writeOneMark(tx, register, existing, { pin, name: current.name, className: current.className, status: input.status }, [], {
    changedBy: input.changedBy,
    reason: input.reason,
    source: 'faculty',
  });
  return true;
}
