import { randomBytes } from 'node:crypto';
import { isStaff, isStudent } from '../../../shared/access';
import type { User } from '../../../shared/schemas/auth';
import {
  PENDING_SCAN_MS,
  type Checkin,
  type CheckinEntry,
  type CheckinList,
  type CheckinFlag,
  type OpenedCheckin,
  type ScanResult,
} from '../../../shared/schemas/checkins';
import type { MarkStatus } from '../../../shared/attendance-rules';
import { todayIn } from '../../../shared/dates';
import type { Database, Db, Executor, Tx } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { badRequest, conflict, forbidden, notFound, type HttpError } from '../../http-error';
import { assertSelfMarksPossible, notifyRegisterSaved, registerSubjectOf, restoreSelfMark, writeSelfMark } from '../attendance/service';
import { actorOf, recordAudit } from '../audit/service';
import { lockOpenClass } from '../classes/service';
import { findStudent, isOnRoster } from '../roster/service';
import { inTermRange, resolveTermRange } from '../terms/service';
import {
  acceptedSlots,
  macMatches,
  normaliseTypedCode,
  parseDeviceKey,
  parseToken,
  SIGNATURE_WINDOW_MS,
  signatureValid,
  signedMessage,
  slotAccepted,
  slotAt,
  slotStart,
  SLOT_MS,
  tokenFor,
  typedCodeFor,
} from './codes';
import * as repo from './repository';

export { campusMatcher } from './codes';

/** What every check-in call needs besides its input. */
export interface CheckinContext {
  timeZone: string;
  /** Whether an address is on the campus networks; undefined: PORTAL_CAMPUS_NETWORKS is not set. */
  onCampus: ((address: string) => boolean) | undefined;
}

export const CHECKIN_NOT_FOUND_MESSAGE = 'There is no such check-in';
export const ALREADY_OPEN_MESSAGE = 'A check-in is already open for this register: close it first';
export const CLOSED_MESSAGE = 'This check-in is closed';
export const INVALID_CODE_MESSAGE = 'This code is not valid: scan the code on the screen again';
export const EXPIRED_CODE_MESSAGE = 'This code has expired: scan the code on the screen again';
export const WRONG_TYPED_CODE_MESSAGE = 'That code is not the one on the screen now: type the code shown';
export const NO_OPEN_CHECKIN_MESSAGE = 'No check-in is open for your class';
export const OFF_CAMPUS_MESSAGE = 'This check-in accepts only the campus network: connect to the campus Wi-Fi and scan again';
export const STUDENTS_ONLY_MESSAGE = 'Only students check in';
export const REMOVED_MESSAGE = 'Faculty removed your check-in: speak to them';
export const NO_PENDING_SCAN_MESSAGE = 'No scan is waiting: scan the code on the screen again';
export const PENDING_TOO_OLD_MESSAGE = 'Your scan is more than 3 minutes old: scan the code on the screen again';
export const notOnRosterMessage = (className: string) => `You are not on the ${className} roster`;

const iso = (value: Date) => value.toISOString();

/** Open at `at`: opened, not yet at its end, not closed. */
function isOpenAt(checkin: repo.CheckinRow, at: Date): boolean {
  const time = at.getTime();
  return checkin.openedAt.getTime() <= time && time < checkin.closesAt.getTime() && (checkin.closedAt === null || time < checkin.closedAt.getTime());
}

async function readCheckin(db: Executor, id: string): Promise<repo.CheckinRow> {
  const checkin = await repo.findCheckin(db, id);
  if (!checkin) throw notFound(CHECKIN_NOT_FOUND_MESSAGE);
  return checkin;
}

/** POST /api/checkins: faculty open a check-in for a register of today, one at a time per register. */
export async function openCheckin(
  db: Db,
  user: User,
  body: { className: string; period: number; minutes: number; lateAfterMinutes?: number | null | undefined; campusOnly: boolean },
  context: CheckinContext,
  now: Date,
): Promise<OpenedCheckin> {
  const date = todayIn(context.timeZone, now);
  const key = { className: body.className, date, period: body.period };
  if (body.campusOnly && !context.onCampus) {
    throw badRequest('A campus-only check-in needs the campus networks (PORTAL_CAMPUS_NETWORKS): ask an administrator to set them');
  }
  if (body.lateAfterMinutes != null && body.lateAfterMinutes >= body.minutes) {
    throw badRequest('lateAfterMinutes must be less than the check-in\'s minutes');
  }
  await assertSelfMarksPossible(db, key.className, date, key.period);
  try {
    return await db.transaction(async (tx) => {
      await repo.closeExpired(tx, key, now);
      const checkin = await repo.insertCheckin(tx, {
        ...key,
        secret: randomBytes(32),
        openedBy: user.id,
        openedAt: now,
        closesAt: new Date(now.getTime() + body.minutes * 60_000),
        lateAfterMinutes: body.lateAfterMinutes ?? null,
        campusOnly: body.campusOnly,
      });
      const target = key.period === 0 ? `${key.className} ${date}` : `${key.className} ${date} period ${key.period}`;
      await recordAudit(tx, actorOf(user), 'checkin.open', target, {
        minutes: body.minutes,
        ...(body.lateAfterMinutes != null ? { lateAfterMinutes: body.lateAfterMinutes } : {}),
        ...(body.campusOnly ? { campusOnly: true } : {}),
      });
      return { id: checkin.id, closesAt: iso(checkin.closesAt) };
    });
  } catch (error) {
    if (isUniqueViolation(error, repo.OPEN_CHECKIN_KEY)) throw conflict(ALREADY_OPEN_MESSAGE);
    throw error;
  }
}

/** POST /api/checkins/:id/close: ends a check-in now; closing a closed one changes nothing. */
export async function closeCheckin(db: Db, user: User, id: string, baseUrl: string, now: Date): Promise<Checkin> {
  const checkin = await readCheckin(db, id);
  if (checkin.closedAt === null) {
    await db.transaction(async (tx) => {
      const closed = await repo.closeCheckin(tx, id, now);
      if (!closed) return;
      await recordAudit(tx, actorOf(user), 'checkin.close', `${checkin.className} ${checkin.date}`, { period: checkin.period });
      await repo.announce(tx, id);
    });
  }
  return getCheckin(db, id, baseUrl, now);
}

function toEntry(row: repo.EntryWithName): CheckinEntry {
  return {
    pin: row.pin,
    name: row.name ?? row.pin,
    at: iso(row.at),
    status: row.status,
    markKept: row.markKept,
    flags: row.flags as CheckinFlag[],
    removed: row.removedAt ? { at: iso(row.removedAt), reason: row.removedReason ?? '' } : null,
  };
}

/** 404 unless the check-in exists: asked before a stream of it starts. */
export async function assertCheckinExists(db: Executor, id: string): Promise<void> {
  await readCheckin(db, id);
}

/**
 * GET /api/checkins/:id: what the projector and faculty's list show. While open, the code of the
 * current slot and when it ends, so that the screen redraws then; the check-ins with their flags;
 * the refused scans.
 */
export async function getCheckin(db: Executor, id: string, baseUrl: string, now: Date): Promise<Checkin> {
  const checkin = await readCheckin(db, id);
  const list = await listOf(db, checkin, now);
  const slot = slotAt(now.getTime());
  const token = tokenFor(checkin.secret, checkin.id, slot);
  return {
    ...list,
    code:
      list.state === 'open'
        ? {
            token,
            url: `${baseUrl}/c/${token}`,
            typedCode: typedCodeFor(checkin.secret, checkin.id, slot),
            slotEndsAt: iso(new Date(slotStart(slot) + SLOT_MS)),
          }
        : null,
  };
}

/** A check-in without its code: what its stream sends after each change (decision 48). */
export async function getCheckinList(db: Executor, id: string, now: Date): Promise<CheckinList> {
  return listOf(db, await readCheckin(db, id), now);
}

async function listOf(db: Executor, checkin: repo.CheckinRow, now: Date): Promise<CheckinList> {
  const [entries, subject] = await Promise.all([
    repo.listEntries(db, checkin.id),
    registerSubjectOf(db, checkin.className, checkin.date, checkin.period),
  ]);
  return {
    id: checkin.id,
    class: checkin.className,
    date: checkin.date,
    period: checkin.period,
    subject,
    openedAt: iso(checkin.openedAt),
    closesAt: iso(checkin.closesAt),
    closedAt: checkin.closedAt ? iso(checkin.closedAt) : null,
    state: isOpenAt(checkin, now) ? 'open' : 'closed',
    lateAfterMinutes: checkin.lateAfterMinutes,
    campusOnly: checkin.campusOnly,
    entries: entries.map(toEntry),
    checkedIn: entries.filter((entry) => entry.removedAt === null).length,
    refusedCount: checkin.refusedCount,
  };
}

/** The browser's proof of its device, as sent with a scan. */
export interface DeviceProof {
  deviceKey?: string | undefined;
  signature?: string | undefined;
  signedAt?: number | undefined;
}

/** What the scan is: the QR's token, the typed code, or the scan kept while the student signed in. */
export type ScanInput = { token: string } | { code: string } | { pending: string };

export interface ScanOptions {
  /** When the code was scanned: now, or the time a signed-out scan was kept. */
  scannedAt: Date;
  now: Date;
  /** The client's address (the campus-only check). */
  address: string;
}

/** Counts a refused scan on the check-in, and says so to its streams. */
async function countRefusal(db: Executor, id: string): Promise<void> {
  await repo.countRefusal(db, id);
  await repo.announce(db, id);
}

/** A refusal of a scan of a known check-in: counted on it, for faculty to see. */
async function refuse(db: Executor, checkin: repo.CheckinRow, error: HttpError): Promise<never> {
  await countRefusal(db, checkin.id);
  throw error;
}

/** A student's account, or 403. */
function studentPin(user: User): string {
  if (!isStudent(user) || !user.pin) throw forbidden(STUDENTS_ONLY_MESSAGE);
  return user.pin;
}

/** The check-in a token names, checked: 400 for one that is not a token, forged, or for another check-in; counted when known. */
async function checkinOfToken(db: Executor, token: string): Promise<{ checkin: repo.CheckinRow; slot: number }> {
  const parsed = parseToken(token);
  if (!parsed) throw badRequest(INVALID_CODE_MESSAGE);
  const checkin = await repo.findCheckin(db, parsed.id);
  if (!checkin) throw badRequest(INVALID_CODE_MESSAGE);
  if (!macMatches(checkin.secret, parsed)) return refuse(db, checkin, badRequest(INVALID_CODE_MESSAGE));
  return { checkin, slot: parsed.slot };
}

/** The open check-in of the student's class whose code, accepted at `at`, is the one typed. */
async function checkinOfTypedCode(db: Executor, pin: string, typed: string, at: Date): Promise<repo.CheckinRow> {
  const student = await findStudent(db, pin);
  if (!student || !(await isOnRoster(db, pin))) throw forbidden('You are not on a class roster');
  const open = await repo.listOpenOfClass(db, student.className, at);
  if (open.length === 0) throw conflict(NO_OPEN_CHECKIN_MESSAGE);
  const code = normaliseTypedCode(typed);
  const slots = acceptedSlots(at.getTime());
  const found = open.find((checkin) => slots.some((slot) => typedCodeFor(checkin.secret, checkin.id, slot) === code));
  if (found) return found;
  for (const checkin of open) await countRefusal(db, checkin.id);
  throw badRequest(WRONG_TYPED_CODE_MESSAGE);
}

interface DeviceCheck {
  publicKey: string | null;
  flag: CheckinFlag | null;
}

/** Reads the device proof: a malformed key is 400; a signature that does not verify is flagged, not refused. */
function checkDevice(proof: DeviceProof, subject: string, now: Date): DeviceCheck {
  if (!proof.deviceKey) return { publicKey: null, flag: 'no-device-key' };
  const key = parseDeviceKey(proof.deviceKey);
  if (!key) throw badRequest('deviceKey must be a P-256 public key as WebCrypto exports it raw, in base64url');
  const fresh = proof.signedAt !== undefined && Math.abs(now.getTime() - proof.signedAt) <= SIGNATURE_WINDOW_MS;
  const valid = fresh && proof.signature !== undefined && signatureValid(key, signedMessage(subject, proof.signedAt!), proof.signature);
  return valid ? { publicKey: proof.deviceKey, flag: null } : { publicKey: null, flag: 'invalid-signature' };
}

async function toResult(db: Executor, checkin: repo.CheckinRow, entry: repo.EntryRow): Promise<ScanResult> {
  return {
    checkinId: checkin.id,
    class: checkin.className,
    date: checkin.date,
    period: checkin.period,
    subject: await registerSubjectOf(db, checkin.className, checkin.date, checkin.period),
    status: entry.status,
    at: iso(entry.at),
    markKept: entry.markKept,
  };
}

/** The flags of a device key: shared with another student of this check-in, or new since the student's last check-in this term. */
async function deviceFlags(
  tx: Tx,
  checkin: repo.CheckinRow,
  pin: string,
  device: DeviceCheck,
  now: Date,
): Promise<{ deviceKeyId: string | null; flags: CheckinFlag[]; sharedWith: string[] }> {
  if (!device.publicKey) return { deviceKeyId: null, flags: device.flag ? [device.flag] : [], sharedWith: [] };
  const deviceKeyId = await repo.useDeviceKey(tx, pin, device.publicKey, now);
  const flags: CheckinFlag[] = [];
  const sharedWith = await repo.pinsWithSameKey(tx, checkin.id, device.publicKey, pin);
  if (sharedWith.length > 0) flags.push('shared-device');
  const term = await resolveTermRange(tx, undefined, checkin.date);
  const since = term.from !== null && inTermRange(term, checkin.date) ? term.from : null;
  const last = await repo.lastDeviceKeyOf(tx, pin, checkin.id, since);
  if (last !== null && last !== deviceKeyId) flags.push('new-device');
  return { deviceKeyId, flags, sharedWith };
}

/**
 * A student checks in (decision 45): the token scanned, the code typed, or the scan kept while
 * they signed in (judged at the time it was scanned). Refused, and counted on the check-in: a
 * forged or expired code (400), a closed check-in (409), a student not on its class's roster
 * (403), an address off campus for a campus-only check-in (403). A repeat answers the same
 * result. The mark is written through the register (present, or late after `lateAfterMinutes`),
 * never over a mark faculty set. The device proof only raises flags.
 */
export async function scan(database: Database, user: User, input: ScanInput, proof: DeviceProof, context: CheckinContext, options: ScanOptions): Promise<ScanResult> {
  const { db } = database;
  const pin = studentPin(user);
  const { scannedAt, now } = options;

  let checkin: repo.CheckinRow;
  let subject: string;
  if ('code' in input) {
    checkin = await checkinOfTypedCode(db, pin, input.code, scannedAt);
    subject = input.code;
    const earlier = await repo.findEntry(db, checkin.id, pin);
    if (earlier) return repeat(database, checkin, earlier, proof, subject, now);
  } else {
    const token = 'token' in input ? input.token : input.pending;
    const found = await checkinOfToken(db, token);
    checkin = found.checkin;
    subject = 'token' in input ? input.token : 'pending';
    // A repeat (the result page reloaded, the scan after sign-in completed twice) answers as the first did.
    const earlier = await repo.findEntry(db, checkin.id, pin);
    if (earlier) return repeat(database, checkin, earlier, proof, subject, now);
    if (!slotAccepted(found.slot, scannedAt.getTime())) return refuse(db, checkin, badRequest(EXPIRED_CODE_MESSAGE));
  }

  if (!isOpenAt(checkin, scannedAt)) return refuse(db, checkin, conflict(CLOSED_MESSAGE));
  const student = await findStudent(db, pin);
  if (!student || student.className !== checkin.className || !(await isOnRoster(db, pin))) {
    return refuse(db, checkin, forbidden(notOnRosterMessage(checkin.className)));
  }
  if (checkin.campusOnly && !context.onCampus?.(options.address)) return refuse(db, checkin, forbidden(OFF_CAMPUS_MESSAGE));
  const device = checkDevice(proof, subject, now);

  const late = checkin.lateAfterMinutes !== null && scannedAt.getTime() >= checkin.openedAt.getTime() + checkin.lateAfterMinutes * 60_000;
  const status: MarkStatus = late ? 'late' : 'present';
  const written = await db.transaction(async (tx) => {
    // Check-ins of one class run one at a time, as its saves do: a repeat at the same moment waits and finds the first.
    await lockOpenClass(tx, checkin.className);
    const again = await repo.findEntry(tx, checkin.id, pin);
    if (again) return { entry: again, fresh: false };
    const mark = await writeSelfMark(tx, {
      className: checkin.className,
      date: checkin.date,
      period: checkin.period,
      pin,
      status,
      takenBy: checkin.openedBy,
      changedBy: user.id,
    });
    const { deviceKeyId, flags, sharedWith } = await deviceFlags(tx, checkin, pin, device, now);
    const entry = await repo.insertEntry(tx, {
      checkinId: checkin.id,
      pin,
      status: mark.status,
      at: scannedAt,
      deviceKeyId,
      flags,
      markKept: mark.kept,
      previousStatus: mark.kept ? mark.status : mark.previous,
    });
    if (!entry) throw new Error('check-in entry missing after insert');
    await repo.addFlag(tx, checkin.id, sharedWith, 'shared-device');
    await repo.announce(tx, checkin.id);
    return { entry, fresh: !mark.kept };
  });
  if (written.fresh) await notifyRegisterSaved(database, checkin);
  return toResult(db, checkin, written.entry);
}

/**
 * A repeat answers the first result. One that brings a device key the first lacked (the scan
 * completed at sign-in, then by the page with its key) gives the entry that key and its flags.
 */
async function repeat(database: Database, checkin: repo.CheckinRow, entry: repo.EntryRow, proof: DeviceProof, subject: string, now: Date): Promise<ScanResult> {
  if (entry.removedAt) throw conflict(REMOVED_MESSAGE);
  if (entry.deviceKeyId === null && proof.deviceKey) {
    const device = checkDevice(proof, subject, now);
    if (device.publicKey) {
      await database.db.transaction(async (tx) => {
        const { deviceKeyId, flags, sharedWith } = await deviceFlags(tx, checkin, entry.pin, device, now);
        await repo.setEntryDevice(tx, checkin.id, entry.pin, deviceKeyId!, flags);
        await repo.addFlag(tx, checkin.id, sharedWith, 'shared-device');
        await repo.announce(tx, checkin.id);
      });
    }
  }
  return toResult(database.db, checkin, entry);
}

/** The signed-out scan's cookie value: the token and the time it was scanned. */
export function pendingScanValue(token: string, scannedAt: Date): string {
  return `${scannedAt.getTime()}|${token}`;
}

/** Completes the scan kept while the student signed in, judged at the time it was scanned; older than 3 minutes is refused. */
export async function completePendingScan(
  database: Database,
  user: User,
  cookie: string | undefined,
  proof: DeviceProof,
  context: CheckinContext,
  options: { now: Date; address: string },
): Promise<ScanResult> {
  const pin = studentPin(user);
  const match = cookie ? /^(\d{1,15})\|(.+)$/.exec(cookie) : null;
  if (!match) throw notFound(NO_PENDING_SCAN_MESSAGE);
  const scannedAt = new Date(Number(match[1]));
  const token = match[2]!;
  if (options.now.getTime() - scannedAt.getTime() > PENDING_SCAN_MS) {
    const parsed = parseToken(token);
    const checkin = parsed ? await repo.findCheckin(database.db, parsed.id) : undefined;
    const known = checkin && parsed && macMatches(checkin.secret, parsed) ? checkin : undefined;
    const earlier = known ? await repo.findEntry(database.db, known.id, pin) : undefined;
    if (known && earlier) return repeat(database, known, earlier, proof, 'pending', options.now);
    if (known) return refuse(database.db, known, badRequest(PENDING_TOO_OLD_MESSAGE));
    throw badRequest(PENDING_TOO_OLD_MESSAGE);
  }
  return scan(database, user, { pending: token }, proof, context, { scannedAt, now: options.now, address: options.address });
}

/**
 * POST /api/checkins/:id/remove: faculty take a student's check-in back. Their mark returns to what
 * it was before (absent when the check-in made it), with the reason in the register's history,
 * unless faculty have changed it since. The student cannot check in again to this check-in.
 */
export async function removeEntry(
  database: Database,
  user: User,
  id: string,
  body: { pin: string; reason: string },
  baseUrl: string,
  now: Date,
): Promise<Checkin> {
  if (!isStaff(user)) throw forbidden();
  const checkin = await readCheckin(database.db, id);
  const changed = await database.db.transaction(async (tx) => {
    await lockOpenClass(tx, checkin.className);
    const entry = await repo.removeEntry(tx, id, body.pin, { at: now, by: user.id, reason: body.reason });
    if (!entry) throw notFound(`${body.pin} has no check-in here to remove`);
    const restored =
      !entry.markKept &&
      (await restoreSelfMark(tx, {
        className: checkin.className,
        date: checkin.date,
        period: checkin.period,
        pin: body.pin,
        status: entry.previousStatus ?? 'absent',
        changedBy: user.id,
        reason: body.reason,
      }));
    await recordAudit(tx, actorOf(user), 'checkin.remove', `${body.pin} ${checkin.className} ${checkin.date}`, {
      period: checkin.period,
      reason: body.reason,
      ...(restored ? { restored: entry.previousStatus ?? 'absent' } : {}),
    });
    await repo.announce(tx, id);
    return restored;
  });
  if (changed) await notifyRegisterSaved(database, checkin);
  return getCheckin(database.db, id, baseUrl, now);
}
