import { attends, countMarks, percentage, type MarkStatus } from '../../../shared/attendance-rules';
import {
  CHOOSE_PERIOD_MESSAGE,
  IDEMPOTENCY_KEY_REUSED_MESSAGE,
  MARKED_AT_MAX_AGE_DAYS,
  MARKED_AT_MAX_AHEAD_MINUTES,
  REGISTER_CONFLICT_MESSAGE,
  REGISTER_NOT_TAKEN_TAG,
  type AttendanceChange,
  type AttendanceRecord,
  type AttendanceRegister,
  type ClassSummary,
  type DayPeriod,
  type MarkConflict,
  type PreviousRegister,
  type RegisterConflict,
  type SaveAttendanceRequest,
} from '../../../shared/schemas/attendance';
import type { Subject } from '../../../shared/schemas/subjects';
import { todayIn } from '../../../shared/dates';
import type { Database, Executor, Tx } from '../../db/client';
import { badRequest, conflict, HttpError } from '../../http-error';
import { actorOf, recordAudit } from '../audit/service';
import { assertClassExists, assertClassOpen, listActiveClassNames, lockOpenClass } from '../classes/service';
import { countMarkChanges, termIdOn } from '../counters/service';
import { bumpDataVersion, bumpMarkVersions, type DataVersions } from '../data-version/service';
import { countByClass, listClassRoster } from '../roster/service';
import { findSubject } from '../subjects/service';
import { periodsOn } from '../timetable/service';
import * as repo from './repository';
import type { ChangeRow, HistoryCursor, MarkRow, RegisterRow, RegisterWithTaker, StoredAnswer, StudentMarkRow } from './repository';

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
    ...(row.markedAt !== null ? { markedAt: row.markedAt.toISOString() } : {}),
    source: row.source,
  };
}

/**
 * A register's revision as its ETag (decision 46): its id and revision count, strong, so that a
 * register taken again after it was removed never matches an old one; "none" before it is taken.
 */
export function registerTag(register: Pick<RegisterRow, 'id' | 'revision'> | undefined): string {
  return register ? `"${register.id}.${register.revision}"` : REGISTER_NOT_TAKEN_TAG;
}

/** What an If-Match asks of the register: any revision (`*`), not taken yet, or one revision. */
type Precondition = { kind: 'any' } | { kind: 'none' } | { kind: 'revision'; registerId: string; revision: number };

function parseIfMatch(value: string): Precondition {
  const text = value.trim();
  if (text === '*') return { kind: 'any' };
  if (text === REGISTER_NOT_TAKEN_TAG) return { kind: 'none' };
  const match = /^"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(\d{1,9})"$/i.exec(text);
  if (!match) throw badRequest('If-Match is one revision of this register, as its ETag gave it');
  return { kind: 'revision', registerId: match[1]!.toLowerCase(), revision: Number(match[2]) };
}

function satisfies(precondition: Precondition, register: Pick<RegisterRow, 'id' | 'revision'> | undefined): boolean {
  switch (precondition.kind) {
    case 'any':
      return register !== undefined;
    case 'none':
      return register === undefined;
    case 'revision':
      return register !== undefined && register.id === precondition.registerId && register.revision === precondition.revision;
  }
}

/** The subject the timetable gives a period on a date's weekday, if any. */
async function timetabledSubject(db: Executor, className: string, date: string, period: number): Promise<Subject | null> {
  if (period === 0) return null;
  const slot = (await periodsOn(db, className, date)).find((s) => s.period === period);
  return slot ? { code: slot.subjectCode, name: slot.subjectName } : null;
}

/** A register with its revision, as its ETag. */
export interface TaggedRegister {
  register: AttendanceRegister;
  etag: string;
}

async function readRegister(db: Executor, className: string, date: string, period: number): Promise<TaggedRegister> {
  const register = await repo.findRegister(db, className, date, period);
  if (register) {
    // One after another: `db` may be a transaction (a correction's acceptance), one connection.
    const marks = await repo.listMarks(db, register.id);
    const checkedIn = await repo.listSelfCheckIns(db, register.id);
    return { register: toRegister(register, marks, checkedIn), etag: registerTag(register) };
  }
  // Not taken yet: the roster with everyone absent, as the original app's register screen started.
  const [roster, subject] = await Promise.all([listClassRoster(db, className), timetabledSubject(db, className, date, period)]);
  const records = roster.map((s) => toRecord({ ...s, status: 'absent' }));
  return {
    register: { class: className, date, period, subject, submitted: false, records, stats: countMarks(records) },
    etag: REGISTER_NOT_TAKEN_TAG,
  };
}

export async function getRegister(db: Executor, className: string, date: string, period = 0): Promise<AttendanceRegister> {
  return (await getTaggedRegister(db, className, date, period)).register;
}

/** The register with its revision (decision 46): what a save may send back as If-Match. */
export async function getTaggedRegister(db: Executor, className: string, date: string, period = 0): Promise<TaggedRegister> {
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

/**
 * The dashboard's class cards: each active (not archived) class with its roster size and whether a
 * register is taken today. With `versions`, the roster sizes are read once per reports version.
 */
export async function listClassSummaries(db: Executor, timeZone: string, now = new Date(), versions?: DataVersions): Promise<ClassSummary[]> {
  const [names, sizes, taken] = await Promise.all([listActiveClassNames(db), countByClass(db, versions), repo.listTakenOn(db, todayIn(timeZone, now))]);
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

/** The refusal of PINs not on a class's roster, naming at most MAX_PINS_NAMED of them. */
function pinsNotOnRosterMessage(pins: string[], className: string): string {
  const shown = pins.slice(0, MAX_PINS_NAMED).join(', ');
  return pins.length > MAX_PINS_NAMED
    ? `PINs ${shown} and ${pins.length - MAX_PINS_NAMED} more are not on the ${className} roster`
    : `PINs ${shown} are not on the ${className} roster`;
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
  return (await writeRegister(database, input, {})).register;
}

/** How long the answer of a save sent with an Idempotency-Key is kept (decision 46). */
export const IDEMPOTENCY_KEY_HOURS = 72;

/** What makes a save safe to repeat and honest about conflicts (decision 46); each part optional. */
export interface SaveSync {
  /** The Idempotency-Key header: a UUID the client chose for this save. */
  idempotencyKey?: string | undefined;
  /** With a key: the SHA-256 of the canonical request (method, path, body). */
  requestHash?: string | undefined;
  /** The If-Match header: the revision (ETag) the save started from, `"none"`, or `*`. */
  ifMatch?: string | undefined;
}

export type SaveOutcome =
  | { status: 200; body: AttendanceRegister; etag: string | null; replayed: boolean }
  | { status: 412; body: RegisterConflict; etag: string; replayed: false };

/** A save refused as its If-Match revision is no longer the register's: thrown to roll back. */
class RegisterChanged extends Error {
  constructor(readonly conflict: RegisterConflict) {
    super(conflict.message);
  }
}

/** Another save holds the Idempotency-Key: thrown to roll back, then answered from the key. */
class KeyInUse extends Error {}

/**
 * A register save with its sync headers (decision 46). With an Idempotency-Key seen before, the
 * answer kept for it (the same request) or 422 (another request), without saving. With If-Match,
 * the save is made only if the register is still at that revision; else nothing is written and
 * the answer is 412 with every student whose mark changed since, so that nothing is overwritten
 * unseen. Without either, exactly `saveRegister`.
 */
export async function syncRegister(database: Database, input: SaveRegisterInput, sync: SaveSync): Promise<SaveOutcome> {
  const key = sync.idempotencyKey;
  const requestHash = sync.requestHash ?? '';
  if (key !== undefined) {
    if (!requestHash) throw new Error('a save with an Idempotency-Key needs its request hash');
    const stored = await repo.findIdempotencyKey(database.db, key);
    if (stored) return replay(stored, input.user.id, requestHash);
  }
  const precondition = sync.ifMatch === undefined ? undefined : parseIfMatch(sync.ifMatch);
  try {
    const saved = await writeRegister(database, input, { key, requestHash, precondition });
    return { status: 200, body: saved.register, etag: saved.etag, replayed: false };
  } catch (err) {
    if (err instanceof RegisterChanged) return { status: 412, body: err.conflict, etag: err.conflict.revision, replayed: false };
    if (err instanceof KeyInUse && key !== undefined) {
      const stored = await repo.findIdempotencyKey(database.db, key);
      if (stored) return replay(stored, input.user.id, requestHash);
      throw conflict('Another request with this Idempotency-Key was under way: send it again');
    }
    throw err;
  }
}

function replay(stored: StoredAnswer, userId: string, requestHash: string): SaveOutcome {
  // A key is one request of one account: another account's, or another body or address, is refused.
  if (stored.userId !== userId || stored.requestHash !== requestHash) throw new HttpError(422, IDEMPOTENCY_KEY_REUSED_MESSAGE);
  // Only saves that succeeded keep their key: an answer kept is the register as that save left it.
  return { status: 200, body: stored.body as AttendanceRegister, etag: stored.etag, replayed: true };
}

/** Deletes the Idempotency-Keys older than 72 hours (the hourly sweep); returns how many. */
export function deleteOldIdempotencyKeys(db: Executor, now = new Date()): Promise<number> {
  return repo.deleteIdempotencyKeysBefore(db, new Date(now.getTime() - IDEMPOTENCY_KEY_HOURS * 60 * 60 * 1000));
}

/**
 * The device's time of the marks, checked against the server's clock: a few minutes ahead at
 * most (clocks drift), a week old at most (a device offline longer syncs as now), and not before
 * the register's date in the portal's zone. Returned in UTC.
 */
function checkMarkedAt(markedAt: string, date: string, timeZone: string, now: Date): string {
  const at = new Date(markedAt);
  if (Number.isNaN(at.getTime())) throw badRequest('markedAt is a time such as 2026-11-23T09:05:00+05:30');
  if (at.getTime() > now.getTime() + MARKED_AT_MAX_AHEAD_MINUTES * 60 * 1000) throw badRequest('markedAt is in the future');
  if (at.getTime() < now.getTime() - MARKED_AT_MAX_AGE_DAYS * 24 * 60 * 60 * 1000) {
    throw badRequest(`markedAt is more than ${MARKED_AT_MAX_AGE_DAYS} days ago`);
  }
  if (todayIn(timeZone, at) < date) throw badRequest(`markedAt is before the register's date (${date})`);
  return at.toISOString();
}

/**
 * The 412's body: every student whose mark now differs from the one at the If-Match revision
 * (all the register's marks when the save started from no register, or from a register since
 * removed), with who set it last and when, beside the mark this save would give.
 */
async function conflictOf(
  tx: Tx,
  register: RegisterRow,
  taker: string | null,
  existing: ReadonlyMap<string, MarkRow>,
  yours: ReadonlyMap<string, MarkStatus>,
  precondition: Precondition,
): Promise<RegisterConflict> {
  const base = precondition.kind === 'revision' && precondition.registerId === register.id ? precondition.revision : null;
  const changes = existing.size === 0 ? [] : await repo.listChangesSince(tx, register.id, base);
  const first = new Map<string, repo.ChangeSince>();
  const last = new Map<string, repo.ChangeSince>();
  for (const change of changes) {
    if (!first.has(change.pin)) first.set(change.pin, change);
    last.set(change.pin, change);
  }
  const conflicts: MarkConflict[] = [];
  for (const mark of existing.values()) {
    const baseStatus = base === null ? null : first.has(mark.pin) ? first.get(mark.pin)!.oldStatus : mark.status;
    if (baseStatus === mark.status) continue;
    const latest = last.get(mark.pin);
    conflicts.push({
      pin: mark.pin,
      name: mark.name,
      base: baseStatus,
      saved: {
        status: mark.status,
        // A register written without a save (demo data, an import) has no history: its taker.
        by: latest ? latest.changedBy : taker,
        at: (latest?.changedAt ?? register.updatedAt).toISOString(),
        ...(latest?.markedAt ? { markedAt: latest.markedAt.toISOString() } : {}),
      },
      yours: yours.get(mark.pin) ?? mark.status,
    });
  }
  return {
    message: REGISTER_CONFLICT_MESSAGE,
    revision: existing.size === 0 ? REGISTER_NOT_TAKEN_TAG : registerTag(register),
    conflicts,
  };
}

async function writeRegister(
  database: Database,
  input: SaveRegisterInput,
  sync: { key?: string | undefined; requestHash?: string; precondition?: Precondition | undefined },
): Promise<TaggedRegister> {
  const { className, date, body } = input;
  const period = input.period ?? 0;
  const userId = input.user.id;
  const actor = actorOf(input.user);
  const now = input.now ?? new Date();
  const today = todayIn(input.timeZone, now);
  if (date > today) throw badRequest(`Attendance cannot be taken for a future date (today is ${today})`);
  const markedAt = body.markedAt === undefined ? null : checkMarkedAt(body.markedAt, date, input.timeZone, now);
  const wanted = new Map<string, MarkStatus>(body.records.map((r) => [r.pin, r.status]));
  const reason = body.reason ? body.reason : null;
  const { key, precondition } = sync;

  const tagged = await database.db.transaction(async (tx) => {
    // First, so that a second save with this key waits here for the first and then answers as it did.
    if (key !== undefined && !(await repo.claimIdempotencyKey(tx, key, userId, sync.requestHash ?? ''))) throw new KeyInUse();
    // Saves of one class run one at a time, and an archived class takes no new registers (409).
    await lockOpenClass(tx, className);
    const sameDay = await repo.listRegistersOn(tx, className, date);
    if (sameDay.some((r) => (r.period === 0) !== (period === 0))) throw conflict(CHOOSE_PERIOD_MESSAGE);
    const before = sameDay.find((r) => r.period === period);
    const isNew = before === undefined;
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
    if (unknown.length > 1) throw badRequest(pinsNotOnRosterMessage(unknown, className));

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

    // The revision the save started from must still be the register's: else nothing is written.
    if (precondition && !satisfies(precondition, isNew ? undefined : register)) {
      const yours = new Map(marks.map((m) => [m.pin, m.status]));
      throw new RegisterChanged(await conflictOf(tx, register, before?.takerName ?? null, existing, yours, precondition));
    }

    const changes = marks
      .map((m) => ({ pin: m.pin, oldStatus: existing.get(m.pin)?.status ?? null, newStatus: m.status }))
      .filter((c) => c.oldStatus !== c.newStatus);

    const stats = countMarks(marks);
    const saved = await repo.writeMarks(tx, register.id, marks, stats, changes, {
      changedBy: userId,
      reason,
      markedAt,
      revision: register.revision + 1,
    });
    await countMarkChanges(
      tx,
      register,
      changes.map((c) => ({ pin: c.pin, from: c.oldStatus, to: c.newStatus })),
    );
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
    let answer: TaggedRegister;
    if (input.within) {
      await input.within(tx);
      answer = await readRegister(tx, className, date, period);
    } else {
      for (const change of changes) checkedIn.delete(change.pin);
      // The register's marks are exactly those just written, in the order listMarks gives.
      answer = { register: toRegister(saved, [...marks].sort(byPin), checkedIn), etag: registerTag(saved) };
    }
    if (key !== undefined) await repo.keepIdempotentAnswer(tx, key, { status: 200, body: answer.register, etag: answer.etag });
    // The reports that sum marks, and the records of this class's students (decision 52); a mark of
    // a student no longer on the class's roster changed: every record, as their class is another's.
    // Last: every save updates the same version rows, and holds them until its commit.
    if (changes.some((change) => !onRoster.has(change.pin))) await bumpDataVersion(tx);
    await bumpMarkVersions(tx, [className], { earlierDay: date < today });
    return answer;
  });

  await notifyRegisterSaved(database, { className, date, period }, input.onNotifyError);
  return tagged;
}

/**
 * Tells every server process that a register was written (live updates); after the commit. `from`
 * names the process that wrote it, which alone queues what follows a save (the alerts).
 */
export async function notifyRegisterSaved(
  database: Pick<Database, 'notify' | 'instance'>,
  register: { className: string; date: string; period: number },
  onError?: (err: unknown) => void,
): Promise<void> {
  try {
    await database.notify(
      ATTENDANCE_CHANNEL,
      JSON.stringify({ class: register.className, date: register.date, period: register.period, from: database.instance }),
    );
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
    // A check-in is a change of the register: its revision moves on, so a save started before it is told.
    { ...by, markedAt: null, revision: register.revision + 1 },
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

export type { DataVersions };
