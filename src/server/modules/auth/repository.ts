import { and, eq, gt, inArray, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { oidcLogins, pendingSignIns, signInLimits, signInSessions, totpCredentials, totpRecoveryCodes, trustedDevices, users } from '../../db/schema';

export async function insertSession(
  db: Executor,
  row: { id: string; userId: string; expiresAt: Date; persistent: boolean; totpSetupRequired?: boolean },
): Promise<void> {
  await db.insert(signInSessions).values(row);
}

/** The live session with this id and its user, if the session has not expired and the user is enabled. */
export async function findLiveSession(db: Executor, id: string, now: Date) {
  const [row] = await db
    .select({
      sessionId: signInSessions.id,
      lastSeenAt: signInSessions.lastSeenAt,
      expiresAt: signInSessions.expiresAt,
      totpSetupRequired: signInSessions.totpSetupRequired,
      user: {
        id: users.id,
        email: users.email,
        name: users.name,
        role: users.role,
        pin: users.pin,
        language: users.language,
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

/**
 * Ends sign-ins: every account's, or one account's. Its two-step sign-ins waiting for a code go
 * too, so that none becomes a session afterwards. Returns how many sessions were ended.
 */
export async function deleteSignIns(db: Executor, userId?: string): Promise<number> {
  await db.delete(pendingSignIns).where(userId === undefined ? undefined : eq(pendingSignIns.userId, userId));
  const ended = await db
    .delete(signInSessions)
    .where(userId === undefined ? undefined : eq(signInSessions.userId, userId))
    .returning({ id: signInSessions.id });
  return ended.length;
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

/**
 * Deletes the failure counts of an account: its e-mail's and those of the browsers that signed in
 * to it (not its addresses', which other accounts share). Returns the failures still inside their
 * window, the ones that limit it now.
 */
export async function deleteAttemptsOfAccount(db: Executor, email: string, userId: string, windowMs: number): Promise<number> {
  const devices = db.select({ key: sql`'device:' || ${trustedDevices.id}` }).from(trustedDevices).where(eq(trustedDevices.userId, userId));
  const deleted = await db
    .delete(signInLimits)
    .where(or(eq(signInLimits.key, `email:${email.toLowerCase()}`), inArray(signInLimits.key, devices)))
    .returning({
      count: signInLimits.count,
      live: sql<boolean>`${signInLimits.windowStart} + ${windowMs} * interval '1 millisecond' > now()`,
    });
  return deleted.reduce((sum, row) => sum + (row.live ? row.count : 0), 0);
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

/* ---- TOTP (decision 17) ---- */

export type TotpRow = typeof totpCredentials.$inferSelect;

export async function findTotp(db: Executor, userId: string): Promise<TotpRow | undefined> {
  const [row] = await db.select().from(totpCredentials).where(eq(totpCredentials.userId, userId)).limit(1);
  return row;
}

/** A new secret, not enabled yet: setting up again starts over (the old one stops working once this is enabled). */
export async function putTotpSecret(db: Executor, userId: string, secret: string): Promise<void> {
  await db
    .insert(totpCredentials)
    .values({ userId, secret })
    .onConflictDoUpdate({ target: totpCredentials.userId, set: { secret, enabledAt: null, lastUsedStep: null, createdAt: sql`now()` } });
}

export async function enableTotp(db: Executor, userId: string, step: number): Promise<void> {
  await db.update(totpCredentials).set({ enabledAt: sql`now()`, lastUsedStep: step }).where(eq(totpCredentials.userId, userId));
}

/**
 * Uses up a step: true only for the first caller with a step later than every used one, in one
 * atomic update, so that one code signs in once even when sent twice at the same moment.
 */
export async function claimTotpStep(db: Executor, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(totpCredentials)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(totpCredentials.userId, userId),
        isNotNull(totpCredentials.enabledAt),
        or(isNull(totpCredentials.lastUsedStep), lt(totpCredentials.lastUsedStep, step)),
      ),
    )
    .returning({ userId: totpCredentials.userId });
  return rows.length > 0;
}

export async function deleteTotp(db: Executor, userId: string): Promise<boolean> {
  await db.delete(totpRecoveryCodes).where(eq(totpRecoveryCodes.userId, userId));
  const removed = await db.delete(totpCredentials).where(eq(totpCredentials.userId, userId)).returning({ userId: totpCredentials.userId });
  return removed.length > 0;
}

export async function replaceRecoveryCodes(db: Executor, userId: string, codeHashes: string[]): Promise<void> {
  await db.delete(totpRecoveryCodes).where(eq(totpRecoveryCodes.userId, userId));
  await db.insert(totpRecoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

/** Uses up a recovery code: true for the first use only. */
export async function useRecoveryCode(db: Executor, userId: string, codeHash: string): Promise<boolean> {
  const rows = await db
    .update(totpRecoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(and(eq(totpRecoveryCodes.userId, userId), eq(totpRecoveryCodes.codeHash, codeHash), isNull(totpRecoveryCodes.usedAt)))
    .returning({ id: totpRecoveryCodes.id });
  return rows.length > 0;
}

export async function countUnusedRecoveryCodes(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(totpRecoveryCodes)
    .where(and(eq(totpRecoveryCodes.userId, userId), isNull(totpRecoveryCodes.usedAt)));
  return row?.count ?? 0;
}

/** Lifts PORTAL_REQUIRE_TOTP's hold on the account's sign-in sessions, once TOTP is on. */
export async function clearTotpSetupRequired(db: Executor, userId: string): Promise<void> {
  await db.update(signInSessions).set({ totpSetupRequired: false }).where(eq(signInSessions.userId, userId));
}

export async function insertPendingSignIn(db: Executor, row: { id: string; userId: string; persistent: boolean; expiresAt: Date }): Promise<void> {
  await db.insert(pendingSignIns).values(row);
}

/** The live pending sign-in with this id, and its account's e-mail and role. */
export async function findPendingSignIn(db: Executor, id: string, now: Date) {
  const [row] = await db
    .select({ id: pendingSignIns.id, userId: pendingSignIns.userId, persistent: pendingSignIns.persistent, email: users.email })
    .from(pendingSignIns)
    .innerJoin(users, eq(users.id, pendingSignIns.userId))
    .where(and(eq(pendingSignIns.id, id), gt(pendingSignIns.expiresAt, now), isNull(users.disabledAt)))
    .limit(1);
  return row;
}

/** Deletes it; true for the one caller that did (a second step completes once). */
export async function takePendingSignIn(db: Executor, id: string): Promise<boolean> {
  const rows = await db.delete(pendingSignIns).where(eq(pendingSignIns.id, id)).returning({ id: pendingSignIns.id });
  return rows.length > 0;
}

export async function deleteExpiredPendingSignIns(db: Executor, now: Date): Promise<void> {
  await db.delete(pendingSignIns).where(lt(pendingSignIns.expiresAt, now));
}

/* ---- Single sign-on (decision 17) ---- */

export async function insertOidcLogin(db: Executor, row: typeof oidcLogins.$inferInsert): Promise<void> {
  await db.insert(oidcLogins).values(row);
}

/** Deletes and returns the live sign-in with this id: a callback uses it once. */
export async function takeOidcLogin(db: Executor, id: string, now: Date) {
  const [row] = await db.delete(oidcLogins).where(eq(oidcLogins.id, id)).returning();
  return row && row.expiresAt > now ? row : undefined;
}

export async function deleteExpiredOidcLogins(db: Executor, now: Date): Promise<void> {
  await db.delete(oidcLogins).where(lt(oidcLogins.expiresAt, now));
}
