import { and, eq, gt, inArray, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { signInLimits, signInSessions, trustedDevices, users } from '../../db/schema';

export async function insertSession(
  db: Executor,
  row: { id: string; userId: string; expiresAt: Date; persistent: boolean },
): Promise<void> {
  await db.insert(signInSessions).values(row);
}

/** The live session with this id and its user, if the session has not expired and the user is enabled. */
export async function findLiveSession(db: Executor, id: string, now: Date) {
  const [row] = await db
    .select({
      sessionId: signInSessions.id,
      lastSeenAt: signInSessions.lastSeenAt,
      user: {
        id: users.id,
        email: users.email,
        name: users.name,
        role: users.role,
        pin: users.pin,
      },
    })
    .from(signInSessions)
    .innerJoin(users, eq(users.id, signInSessions.userId))
    .where(and(eq(signInSessions.id, id), gt(signInSessions.expiresAt, now), isNull(users.disabledAt)))
    .limit(1);
  return row;
}

export async function touchSession(db: Executor, id: string, now: Date): Promise<void> {
  await db.update(signInSessions).set({ lastSeenAt: now }).where(eq(signInSessions.id, id));
}

export async function deleteSession(db: Executor, id: string): Promise<void> {
  await db.delete(signInSessions).where(eq(signInSessions.id, id));
}

/** Every sign-in session of the account, but the one kept (if given). */
export async function deleteSessionsOfUser(db: Executor, userId: string, keepId?: string): Promise<void> {
  await db
    .delete(signInSessions)
    .where(and(eq(signInSessions.userId, userId), keepId === undefined ? undefined : ne(signInSessions.id, keepId)));
}

/** Sign-in sessions that can no longer be used: expired, or of a disabled account. */
export async function deleteDeadSessions(db: Executor, now: Date): Promise<void> {
  await db
    .delete(signInSessions)
    .where(
      or(
        lt(signInSessions.expiresAt, now),
        inArray(signInSessions.userId, db.select({ id: users.id }).from(users).where(isNotNull(users.disabledAt))),
      ),
    );
}

/**
 * Counts one attempt under each key, in the order given, in one atomic step per key (an upsert
 * that returns the new count), so that concurrent attempts each see their own number; a window
 * that has ended starts over. Stops at the first key over its limit, which then is returned:
 * an attempt refused by its address writes nothing for its e-mail.
 */
export async function countAttempt(db: Executor, keys: [key: string, limit: number][], windowMs: number): Promise<string | null> {
  const expired = sql`${signInLimits.windowStart} + ${windowMs} * interval '1 millisecond' <= now()`;
  for (const [key, limit] of keys) {
    const [row] = await db
      .insert(signInLimits)
      .values({ key, count: 1 })
      .onConflictDoUpdate({
        target: signInLimits.key,
        set: {
          count: sql`case when ${expired} then 1 else ${signInLimits.count} + 1 end`,
          windowStart: sql`case when ${expired} then now() else ${signInLimits.windowStart} end`,
        },
      })
      .returning({ count: signInLimits.count });
    if ((row?.count ?? 1) > limit) return key;
  }
  return null;
}

/** Takes one attempt back from each key (a sign-in that succeeded is not a failure). */
export async function uncountAttempt(db: Executor, keys: string[]): Promise<void> {
  for (const key of keys) {
    await db
      .update(signInLimits)
      .set({ count: sql`greatest(${signInLimits.count} - 1, 0)` })
      .where(eq(signInLimits.key, key));
  }
}

export async function clearAttempts(db: Executor, key: string): Promise<void> {
  await db.delete(signInLimits).where(eq(signInLimits.key, key));
}

export async function deleteOldAttempts(db: Executor, before: Date): Promise<void> {
  await db.delete(signInLimits).where(lt(signInLimits.windowStart, before));
}

export async function findLiveDevice(db: Executor, id: string, userId: string, now: Date): Promise<{ id: string } | undefined> {
  const [row] = await db
    .select({ id: trustedDevices.id })
    .from(trustedDevices)
    .where(and(eq(trustedDevices.id, id), eq(trustedDevices.userId, userId), gt(trustedDevices.expiresAt, now)))
    .limit(1);
  return row;
}

export async function insertDevice(db: Executor, row: { id: string; userId: string; expiresAt: Date }): Promise<void> {
  await db.insert(trustedDevices).values(row);
}

export async function deleteDevicesOfUser(db: Executor, userId: string): Promise<void> {
  await db.delete(trustedDevices).where(eq(trustedDevices.userId, userId));
}

export async function deleteExpiredDevices(db: Executor, now: Date): Promise<void> {
  await db.delete(trustedDevices).where(lt(trustedDevices.expiresAt, now));
}
