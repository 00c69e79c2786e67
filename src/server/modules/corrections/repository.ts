import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client';
import { attendanceMarks, correctionRequests, registers, users } from '../../db/schema';

export type CorrectionState = (typeof correctionRequests.$inferSelect)['state'];

/** The unique index that allows one open request per mark. */
export const OPEN_REQUEST_KEY = 'correction_requests_open_key';

export interface CorrectionRow {
  id: string;
  pin: string;
  name: string;
  className: string;
  date: string;
  period: number;
  subject: string | null;
  markStatus: 'present' | 'absent' | 'late' | 'excused';
  reason: string;
  state: CorrectionState;
  reply: string | null;
  createdAt: Date;
  decidedAt: Date | null;
  decidedBy: string | null;
  registerId: string;
}

const columns = {
  id: correctionRequests.id,
  pin: correctionRequests.pin,
  name: attendanceMarks.name,
  className: registers.className,
  date: registers.date,
  period: registers.period,
  subject: registers.subjectCode,
  markStatus: attendanceMarks.status,
  reason: correctionRequests.reason,
  state: correctionRequests.state,
  reply: correctionRequests.reply,
  createdAt: correctionRequests.createdAt,
  decidedAt: correctionRequests.decidedAt,
  decidedBy: users.name,
  registerId: correctionRequests.registerId,
};

function selectRows(db: Executor) {
  return db
    .select(columns)
    .from(correctionRequests)
    .innerJoin(registers, eq(registers.id, correctionRequests.registerId))
    .innerJoin(
      attendanceMarks,
      and(eq(attendanceMarks.registerId, correctionRequests.registerId), eq(attendanceMarks.pin, correctionRequests.pin)),
    )
    .leftJoin(users, eq(users.id, correctionRequests.decidedBy));
}

export async function insertRequest(db: Executor, request: { registerId: string; pin: string; reason: string }): Promise<string> {
  const [row] = await db.insert(correctionRequests).values(request).returning({ id: correctionRequests.id });
  return row!.id;
}

export async function findRequest(db: Executor, id: string): Promise<CorrectionRow | undefined> {
  const [row] = await selectRows(db).where(eq(correctionRequests.id, id)).limit(1);
  return row;
}

/** Open ones oldest first (the queue); closed ones newest decision first. */
export function listRequests(db: Executor, options: { states: CorrectionState[]; pin?: string | undefined }): Promise<CorrectionRow[]> {
  const conditions = [inArray(correctionRequests.state, options.states)];
  if (options.pin !== undefined) conditions.push(eq(correctionRequests.pin, options.pin));
  const open = options.states.includes('open');
  return selectRows(db)
    .where(and(...conditions))
    .orderBy(open ? correctionRequests.createdAt : desc(sql`coalesce(${correctionRequests.decidedAt}, ${correctionRequests.createdAt})`))
    .limit(500);
}

export async function countOpen(db: Executor): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(correctionRequests).where(eq(correctionRequests.state, 'open'));
  return row?.count ?? 0;
}

/** Decides an open request; false when it was not open any more (decided meanwhile). */
export async function decideRequest(
  tx: Tx | Executor,
  id: string,
  decision: { state: Exclude<CorrectionState, 'open'>; reply: string | null; decidedBy: string; at: Date },
): Promise<boolean> {
  const rows = await tx
    .update(correctionRequests)
    .set({ state: decision.state, reply: decision.reply, decidedBy: decision.decidedBy, decidedAt: decision.at })
    .where(and(eq(correctionRequests.id, id), eq(correctionRequests.state, 'open')))
    .returning({ id: correctionRequests.id });
  return rows.length > 0;
}
