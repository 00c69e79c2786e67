import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { loginFailures, sessions, users } from '../../db/schema';

export async function insertSession(
  db: Executor,
  row: { id: string; userId: string; expiresAt: Date; persistent: boolean },
): Promise<void> {
  await db.insert(sessions).values(row);
}

/** The live session with this id and its user, if the session has not expired and the user is enabled. */
export async function findLiveSession(db: Executor, id: string, now: Date) {
  const [row] = await db
    .select({
      sessionId: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      user: {
        id: users.id,
        email: users.email,
        name: users.name,
        role: users.role,
        pin: users.pin,
      },
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, id), gt(sessions.expiresAt, now), isNull(users.disabledAt)))
    .limit(1);
  return row;
}

export async function touchSession(db: Executor, id: string, now: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
}

export async function deleteSession(db: Executor, id: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, id));
}

export async function deleteExpiredSessions(db: Executor, now: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
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
