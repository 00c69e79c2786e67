import { countMarks } from '../../../shared/attendance-rules';
import type {
  AttendanceChange,
  AttendanceRecord,
  AttendanceRegister,
  ClassSummary,
  SaveAttendanceRequest,
} from '../../../shared/schemas/attendance';
import { todayIn } from '../../../shared/dates';
import type { Database, Executor, Tx } from '../../db/client';
import { badRequest } from '../../http-error';
import { actorOf, recordAudit } from '../audit/service';
import { assertClassExists, assertClassOpen, listActiveClassNames } from '../classes/service';
import { countByClass, listClassRoster } from '../roster/service';
import * as repo from './repository';
import type { ChangeRow, MarkRow, RegisterWithTaker, StudentMarkRow } from './repository';

export type { StudentMarkRow } from './repository';

/** Channel on which every server process hears that a register was saved. */
export const ATTENDANCE_CHANNEL = 'attendance';

const MAX_PINS_NAMED = 10;

function toRecord(mark: MarkRow): AttendanceRecord {
  return { pin: mark.pin, name: mark.name, class: mark.className, present: mark.present };
}

function toRegister(className: string, date: string, register: RegisterWithTaker, marks: MarkRow[]): AttendanceRegister {
  return {
    class: className,
    date,
    submitted: true,
    ...(register.takerName !== null ? { takenBy: register.takerName } : {}),
    takenAt: register.takenAt.toISOString(),
    updatedAt: register.updatedAt.toISOString(),
    records: marks.map(toRecord),
    // The counters, not a recount: reports read them, so the screen shows what reports will use.
    stats: {
      total: register.presentCount + register.absentCount,
      present: register.presentCount,
      absent: register.absentCount,
    },
  };
}

function toChange(row: ChangeRow): AttendanceChange {
  return {
    pin: row.pin,
    name: row.name ?? '',
    oldValue: row.oldValue,
    newValue: row.newValue,
    changedBy: row.changedBy,
    changedAt: row.changedAt.toISOString(),
    reason: row.reason,
  };
}

async function readRegister(db: Executor, className: string, date: string): Promise<AttendanceRegister> {
  const register = await repo.findRegister(db, className, date);
  if (register) return toRegister(className, date, register, await repo.listMarks(db, register.id));
  // Not taken yet: the roster with everyone absent, as the register screen starts (SPEC.md section 4).
  const roster = await listClassRoster(db, className);
  const records = roster.map((s) => ({ pin: s.pin, name: s.name, class: s.className, present: false }));
  return { class: className, date, submitted: false, records, stats: countMarks(records) };
}

export async function getRegister(db: Executor, className: string, date: string): Promise<AttendanceRegister> {
  await assertClassExists(db, className);
  return readRegister(db, className, date);
}

/** The dashboard's class cards: each active (not archived) class with its roster size and whether today's register is taken. */
export async function listClassSummaries(db: Executor, timeZone: string, now = new Date()): Promise<ClassSummary[]> {
  const [names, sizes, taken] = await Promise.all([
    listActiveClassNames(db),
    countByClass(db),
    repo.listClassesTakenOn(db, todayIn(timeZone, now)),
  ]);
  return names.map((name) => ({ name, studentCount: sizes.get(name) ?? 0, todayTaken: taken.has(name) }));
}

function namePins(pins: string[]): string {
  const shown = pins.slice(0, MAX_PINS_NAMED).join(', ');
  return pins.length > MAX_PINS_NAMED ? `${shown} and ${pins.length - MAX_PINS_NAMED} more` : shown;
}

export interface SaveRegisterInput {
  className: string;
  date: string;
  /** Who saves it: recorded as the register's taker and in the audit trail. */
  user: { id: string; email: string };
  body: SaveAttendanceRequest;
  timeZone: string;
  now?: Date;
  /** Called when the after-save notification fails; the save itself has succeeded. */
  onNotifyError?: (err: unknown) => void;
}

/**
 * Creates or replaces the register of one class on one date.
 *
 * The body describes the whole register: every student on the class roster gets a mark, absent
 * unless the body says present, so a register always covers the class. Marks of students who
 * have left the class since the register was first taken are kept as they were (they are that
 * day's record) unless the body names them. Every mark whose value changes is appended to the
 * history with the saver and the optional reason.
 */
export async function saveRegister(database: Database, input: SaveRegisterInput): Promise<AttendanceRegister> {
  const { className, date, body } = input;
  const userId = input.user.id;
  const actor = actorOf(input.user);
  // An archived class keeps its registers but takes no new ones (409).
  await assertClassOpen(database.db, className);
  const today = todayIn(input.timeZone, input.now);
  if (date > today) throw badRequest(`Attendance cannot be taken for a future date (today is ${today})`);
  const wanted = new Map(body.records.map((r) => [r.pin, r.present]));
  const reason = body.reason ? body.reason : null;

  const register = await database.db.transaction(async (tx) => {
    const register = await repo.lockRegister(tx, className, date, userId);
    // Read under the lock: a save that waited sees the marks of the save it waited for.
    const roster = await listClassRoster(tx, className);
    const existing = new Map((await repo.listMarks(tx, register.id)).map((m) => [m.pin, m]));

    const allowed = new Set([...roster.map((s) => s.pin), ...existing.keys()]);
    const unknown = [...wanted.keys()].filter((pin) => !allowed.has(pin));
    if (unknown.length === 1) throw badRequest(`PIN ${unknown[0]} is not on the ${className} roster`);
    if (unknown.length > 1) throw badRequest(`PINs ${namePins(unknown)} are not on the ${className} roster`);

    const marks = roster.map((s) => ({
      registerId: register.id,
      pin: s.pin,
      name: s.name,
      className: s.className,
      present: wanted.get(s.pin) ?? false,
    }));
    const onRoster = new Set(roster.map((s) => s.pin));
    for (const old of existing.values()) {
      if (onRoster.has(old.pin)) continue;
      marks.push({ ...old, present: wanted.get(old.pin) ?? old.present });
    }
    if (marks.length === 0) throw badRequest(`Class ${className} has no students on its roster`);

    const changes = marks
      .map((m) => ({ pin: m.pin, oldValue: existing.get(m.pin)?.present ?? null, newValue: m.present }))
      .filter((c) => c.oldValue !== c.newValue);

    await repo.upsertMarks(tx, marks);
    await repo.refreshCounters(tx, register.id);
    await repo.insertChanges(tx, register.id, changes, userId, reason);
    // A register with marks before this save is replaced; otherwise it is new.
    const replaced = existing.size > 0;
    const stats = countMarks(marks);
    await recordAudit(tx, actor, replaced ? 'register.replace' : 'register.save', `${className} ${date}`, {
      class: className,
      date,
      present: stats.present,
      absent: stats.absent,
      changed: changes.length,
      ...(reason ? { reason } : {}),
    });
    return readRegister(tx, className, date);
  });

  try {
    await database.notify(ATTENDANCE_CHANNEL, JSON.stringify({ class: className, date }));
  } catch (err) {
    input.onNotifyError?.(err);
  }
  return register;
}

export async function getHistory(db: Executor, className: string, date: string): Promise<AttendanceChange[]> {
  await assertClassExists(db, className);
  const register = await repo.findRegister(db, className, date);
  if (!register) return [];
  return (await repo.listChanges(db, register.id)).map(toChange);
}

/** How many registers each class has (a class with none is absent): the admin's class list. */
export function countRegistersByClass(db: Executor): Promise<Map<string, number>> {
  return repo.countRegistersByClass(db);
}

/** Every mark of one student, newest day first, with the name and class they had that day. */
export function listStudentMarks(db: Executor, pin: string): Promise<StudentMarkRow[]> {
  return repo.listMarksByPin(db, pin);
}

export interface PastRegister {
  className: string;
  date: string;
  takenBy: string;
  takenAt: Date;
  marks: { pin: string; name: string; className: string; present: boolean }[];
}

/** Records a register taken in the past, with no change history: how demo data is written. */
export async function recordPastRegister(tx: Tx, register: PastRegister): Promise<void> {
  const { marks, ...row } = register;
  const stats = countMarks(marks);
  await repo.insertRegister(tx, { ...row, presentCount: stats.present, absentCount: stats.absent }, marks);
}

export function portalToday(timeZone: string, now = new Date()): { date: string; timeZone: string } {
  return { date: todayIn(timeZone, now), timeZone };
}
