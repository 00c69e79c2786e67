import { isStaff, isStudent } from '../../../shared/access';
import type { User } from '../../../shared/schemas/auth';
import {
  ALREADY_OPEN_MESSAGE,
  CORRECTION_NOT_FOUND_MESSAGE,
  NO_MARK_MESSAGE,
  NOT_OPEN_MESSAGE,
  type Correction,
} from '../../../shared/schemas/corrections';
import type { MarkStatus } from '../../../shared/attendance-rules';
import type { Database, Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { conflict, forbidden, notFound } from '../../http-error';
import { findStudentMark, getRegister, saveRegister } from '../attendance/service';
import { actorOf, recordAudit } from '../audit/service';
import * as repo from './repository';

function toCorrection(row: repo.CorrectionRow): Correction {
  return {
    id: row.id,
    pin: row.pin,
    name: row.name,
    className: row.className,
    date: row.date,
    period: row.period,
    subject: row.subject,
    markStatus: row.markStatus,
    reason: row.reason,
    state: row.state,
    reply: row.reply,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt ? row.decidedAt.toISOString() : null,
    decidedBy: row.decidedBy,
  };
}

async function readRequest(db: Db, id: string): Promise<repo.CorrectionRow> {
  const row = await repo.findRequest(db, id);
  if (!row) throw notFound(CORRECTION_NOT_FOUND_MESSAGE);
  return row;
}

/** POST /api/corrections: a student asks to correct one of their own marks; one open request per mark. */
export async function requestCorrection(db: Db, user: User, body: { date: string; period: number; reason: string }): Promise<Correction> {
  if (!isStudent(user) || !user.pin) throw forbidden('Only students request corrections, of their own marks');
  const mark = await findStudentMark(db, user.pin, body.date, body.period);
  if (!mark) throw notFound(NO_MARK_MESSAGE);
  let id: string;
  try {
    id = await repo.insertRequest(db, { registerId: mark.registerId, pin: user.pin, reason: body.reason });
  } catch (error) {
    if (isUniqueViolation(error, repo.OPEN_REQUEST_KEY)) throw conflict(ALREADY_OPEN_MESSAGE);
    throw error;
  }
  return toCorrection(await readRequest(db, id));
}

/** GET /api/corrections: staff see every request, a student their own. */
export async function listCorrections(db: Db, user: User, status: 'open' | 'closed'): Promise<Correction[]> {
  const states: repo.CorrectionState[] = status === 'open' ? ['open'] : ['accepted', 'declined'];
  if (isStaff(user)) return (await repo.listRequests(db, { states })).map(toCorrection);
  if (isStudent(user) && user.pin) return (await repo.listRequests(db, { states, pin: user.pin })).map(toCorrection);
  return [];
}

/** How many requests wait for faculty: the count in their header. */
export async function countOpenCorrections(db: Db): Promise<number> {
  return repo.countOpen(db);
}

/**
 * Accepting changes the mark to `status` through the register's own save, with the request's
 * reason in the change history, and decides the request in the same transaction.
 */
export async function acceptCorrection(
  database: Database,
  user: User,
  id: string,
  status: MarkStatus,
  timeZone: string,
): Promise<Correction> {
  const request = await readRequest(database.db, id);
  if (request.state !== 'open') throw conflict(NOT_OPEN_MESSAGE);
  const register = await getRegister(database.db, request.className, request.date, request.period);
  const records = register.records.map((record) => ({ pin: record.pin, status: record.pin === request.pin ? status : record.status }));
  await saveRegister(database, {
    className: request.className,
    date: request.date,
    period: request.period,
    user,
    body: { records, reason: request.reason },
    timeZone,
    within: async (tx) => {
      if (!(await repo.decideRequest(tx, id, { state: 'accepted', reply: null, decidedBy: user.id, at: new Date() }))) {
        throw conflict(NOT_OPEN_MESSAGE);
      }
      await recordAudit(tx, actorOf(user), 'correction.accept', `${request.pin} ${request.className} ${request.date}`, {
        period: request.period,
        from: request.markStatus,
        to: status,
        reason: request.reason,
      });
    },
  });
  return toCorrection(await readRequest(database.db, id));
}

/** Declining leaves the mark as it is and gives the student a reply. */
export async function declineCorrection(db: Db, user: User, id: string, reply: string): Promise<Correction> {
  const request = await readRequest(db, id);
  await db.transaction(async (tx) => {
    if (!(await repo.decideRequest(tx, id, { state: 'declined', reply, decidedBy: user.id, at: new Date() }))) {
      throw conflict(NOT_OPEN_MESSAGE);
    }
    await recordAudit(tx, actorOf(user), 'correction.decline', `${request.pin} ${request.className} ${request.date}`, {
      period: request.period,
      reply,
    });
  });
  return toCorrection(await readRequest(db, id));
}
