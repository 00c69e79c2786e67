import { and, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { loginFailures, signInSessions, users } from '../../db/schema';

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

export async function deleteSessionsOfUser(db: Executor, userId: string): Promise<void> {
  await db.delete(signInSessions).where(eq(signInSessions.userId, userId));
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

export async function recordLoginFailure(db: Executor, address: string, email: string): Promise<void> {
  await db.insert(loginFailures).values({ address, email: email.toLowerCase() });
}

export async function countRecentFailures(
  db: Executor,
  address: string,
  email: string,
  since: Date,
): Promise<{ byAddress: number; byEmail: number }> {
  const [row] = await db
    .select({
      byAddress: sql<number>`count(*) filter (where ${loginFailures.address} = ${address})::int`,
      byEmail: sql<number>`count(*) filter (where ${loginFailures.email} = ${email.toLowerCase()})::int`,
    })
    .from(loginFailures)
    .where(
      and(
        gt(loginFailures.createdAt, since),
        sql`(${loginFailures.address} = ${address} or ${loginFailures.email} = ${email.toLowerCase()})`,
      ),
    );
  return { byAddress: row?.byAddress ?? 0, byEmail: row?.byEmail ?? 0 };
}

export async function clearFailuresForEmail(db: Executor, email: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.email, email.toLowerCase()));
}

export async function deleteOldFailures(db: Executor, before: Date): Promise<void> {
  await db.delete(loginFailures).where(lt(loginFailures.createdAt, before));
}
