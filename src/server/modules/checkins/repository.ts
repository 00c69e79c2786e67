import { and, asc, desc, eq, gt, gte, isNotNull, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client';
import { checkinEntries, checkins, deviceKeys, students } from '../../db/schema';

export type CheckinRow = typeof checkins.$inferSelect;
export type EntryRow = typeof checkinEntries.$inferSelect;

/** The unique index that keeps one open check-in per register. */
export const OPEN_CHECKIN_KEY = 'checkins_open_key';

export interface RegisterKey {
  className: string;
  date: string;
  period: number;
}

/** Check-ins of a register whose time ran out are closed at that time, so that the next can open. */
export async function closeExpired(tx: Tx, key: RegisterKey, now: Date): Promise<void> {
  await tx
    .update(checkins)
    .set({ closedAt: sql`${checkins.closesAt}` })
    .where(
      and(
        eq(checkins.className, key.className),
        eq(checkins.date, key.date),
        eq(checkins.period, key.period),
        isNull(checkins.closedAt),
        lte(checkins.closesAt, now),
      ),
    );
}

export async function insertCheckin(tx: Tx, row: typeof checkins.$inferInsert): Promise<CheckinRow> {
  const [inserted] = await tx.insert(checkins).values(row).returning();
  if (!inserted) throw new Error('insert returned no check-in');
  return inserted;
}

export async function findCheckin(db: Executor, id: string): Promise<CheckinRow | undefined> {
  const [row] = await db.select().from(checkins).where(eq(checkins.id, id)).limit(1);
  return row;
}

/** Closes a check-in now (or at its end, if that came first); undefined when it was closed already. */
export async function closeCheckin(db: Executor, id: string, now: Date): Promise<CheckinRow | undefined> {
  const [row] = await db
    .update(checkins)
    .set({ closedAt: sql`least(${now.toISOString()}::timestamptz, ${checkins.closesAt})` })
    .where(and(eq(checkins.id, id), isNull(checkins.closedAt)))
    .returning();
  return row;
}

/** The channel a check-in's changes are announced on, with {"id"} as the payload. */
export const CHECKIN_CHANNEL = 'checkins';

/**
 * NOTIFY that a check-in changed (an entry, a flag, the refused count, its closing), heard by
 * every server process: inside a transaction it is delivered when it commits, never if it rolls back.
 */
export async function announce(db: Executor, id: string): Promise<void> {
  await db.execute(sql`select pg_notify(${CHECKIN_CHANNEL}, ${JSON.stringify({ id })})`);
}

export async function countRefusal(db: Executor, id: string): Promise<void> {
  await db
    .update(checkins)
    .set({ refusedCount: sql`${checkins.refusedCount} + 1` })
    .where(eq(checkins.id, id));
}

/** The check-ins of a class open at `at`. */
export function listOpenOfClass(db: Executor, className: string, at: Date): Promise<CheckinRow[]> {
  return db
    .select()
    .from(checkins)
    .where(
      and(
        eq(checkins.className, className),
        lte(checkins.openedAt, at),
        gt(checkins.closesAt, at),
        or(isNull(checkins.closedAt), gt(checkins.closedAt, at)),
      ),
    )
    .orderBy(asc(checkins.openedAt));
}

export async function findEntry(db: Executor, checkinId: string, pin: string): Promise<EntryRow | undefined> {
  const [row] = await db
    .select()
    .from(checkinEntries)
    .where(and(eq(checkinEntries.checkinId, checkinId), eq(checkinEntries.pin, pin)))
    .limit(1);
  return row;
}

/** Inserts a student's check-in; undefined when one was there already (a scan at the same moment). */
export async function insertEntry(tx: Tx, row: typeof checkinEntries.$inferInsert): Promise<EntryRow | undefined> {
  const [inserted] = await tx.insert(checkinEntries).values(row).onConflictDoNothing().returning();
  return inserted;
}

export interface EntryWithName extends EntryRow {
  name: string | null;
}

/** A check-in's entries in the order they came, with each student's name on the roster. */
export function listEntries(db: Executor, checkinId: string): Promise<EntryWithName[]> {
  return db
    .select({
      checkinId: checkinEntries.checkinId,
      pin: checkinEntries.pin,
      status: checkinEntries.status,
      at: checkinEntries.at,
      deviceKeyId: checkinEntries.deviceKeyId,
      flags: checkinEntries.flags,
      markKept: checkinEntries.markKept,
      previousStatus: checkinEntries.previousStatus,
      removedAt: checkinEntries.removedAt,
      removedBy: checkinEntries.removedBy,
      removedReason: checkinEntries.removedReason,
      name: students.name,
    })
    .from(checkinEntries)
    .leftJoin(students, eq(students.pin, checkinEntries.pin))
    .where(eq(checkinEntries.checkinId, checkinId))
    .orderBy(asc(checkinEntries.at), asc(checkinEntries.pin));
}

/** The id of this student's device key, made on its first use; its last use is now. */
export async function useDeviceKey(tx: Tx, pin: string, publicKey: string, now: Date): Promise<string> {
  const [row] = await tx
    .insert(deviceKeys)
    .values({ pin, publicKey, createdAt: now, lastUsedAt: now })
    .onConflictDoUpdate({ target: [deviceKeys.pin, deviceKeys.publicKey], set: { lastUsedAt: now } })
    .returning({ id: deviceKeys.id });
  if (!row) throw new Error('device key missing after upsert');
  return row.id;
}

/** The device key of the student's latest check-in with one, other than `checkinId`, on `since` or later (null: any date). */
export async function lastDeviceKeyOf(tx: Tx, pin: string, checkinId: string, since: string | null): Promise<string | null> {
  const [row] = await tx
    .select({ deviceKeyId: checkinEntries.deviceKeyId })
    .from(checkinEntries)
    .innerJoin(checkins, eq(checkins.id, checkinEntries.checkinId))
    .where(
      and(
        eq(checkinEntries.pin, pin),
        ne(checkinEntries.checkinId, checkinId),
        isNotNull(checkinEntries.deviceKeyId),
        since === null ? undefined : gte(checkins.date, since),
      ),
    )
    .orderBy(desc(checkinEntries.at))
    .limit(1);
  return row?.deviceKeyId ?? null;
}

/** The other students checked in to this check-in with the same public key. */
export async function pinsWithSameKey(tx: Tx, checkinId: string, publicKey: string, pin: string): Promise<string[]> {
  const rows = await tx
    .select({ pin: checkinEntries.pin })
    .from(checkinEntries)
    .innerJoin(deviceKeys, eq(deviceKeys.id, checkinEntries.deviceKeyId))
    .where(and(eq(checkinEntries.checkinId, checkinId), eq(deviceKeys.publicKey, publicKey), ne(checkinEntries.pin, pin)));
  return rows.map((row) => row.pin);
}

/** Adds a flag to these students' entries of a check-in (once). */
export async function addFlag(tx: Tx, checkinId: string, pins: readonly string[], flag: string): Promise<void> {
  if (pins.length === 0) return;
  await tx
    .update(checkinEntries)
    .set({ flags: sql`array_append(${checkinEntries.flags}, ${flag}::text)` })
    .where(
      and(
        eq(checkinEntries.checkinId, checkinId),
        sql`${checkinEntries.pin} = any(${sql.param([...pins])}::text[])`,
        sql`not (${flag}::text = any(${checkinEntries.flags}))`,
      ),
    );
}

/** A repeat that brings the device key a first scan lacked: the entry takes it, and new flags. */
export async function setEntryDevice(tx: Tx, checkinId: string, pin: string, deviceKeyId: string, flags: string[]): Promise<void> {
  await tx
    .update(checkinEntries)
    .set({ deviceKeyId, flags })
    .where(and(eq(checkinEntries.checkinId, checkinId), eq(checkinEntries.pin, pin)));
}

/** Marks an entry removed; undefined when it is not there or was removed already. */
export async function removeEntry(
  tx: Tx,
  checkinId: string,
  pin: string,
  removal: { at: Date; by: string; reason: string },
): Promise<EntryRow | undefined> {
  const [row] = await tx
    .update(checkinEntries)
    .set({ removedAt: removal.at, removedBy: removal.by, removedReason: removal.reason })
    .where(and(eq(checkinEntries.checkinId, checkinId), eq(checkinEntries.pin, pin), isNull(checkinEntries.removedAt)))
    .returning();
  return row;
}
