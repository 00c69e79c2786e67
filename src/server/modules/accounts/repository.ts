import { and, asc, count, eq, gt, ilike, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { setPasswordTokens, users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

export function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1)
    .then((rows) => rows[0]);
}

export async function insertUser(db: Executor, row: NewUserRow): Promise<UserRow> {
  const [created] = await db.insert(users).values(row).returning();
  if (!created) throw new Error('insert returned no row');
  return created;
}

export function listUsers(db: Executor): Promise<UserRow[]> {
  return db.select().from(users).orderBy(users.role, users.email);
}

export async function updateUser(
  db: Executor,
  id: string,
  changes: Partial<Pick<UserRow, 'passwordHash' | 'disabledAt' | 'name' | 'pin' | 'role' | 'lastSignInAt' | 'oidcSubject' | 'language'>>,
): Promise<void> {
  await db.update(users).set(changes).where(eq(users.id, id));
}

export function findUserByOidcSubject(db: Executor, subject: string): Promise<UserRow | undefined> {
  return db
    .select()
    .from(users)
    .where(eq(users.oidcSubject, subject))
    .limit(1)
    .then((rows) => rows[0]);
}

export function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  return db
    .select()
    .from(users)
    .where(eq(users.id, id))
    .limit(1)
    .then((rows) => rows[0]);
}

/**
 * Which of these ids are enabled faculty or admin accounts, read FOR SHARE: until the caller's
 * transaction ends, none of them is disabled, demoted or deleted under it.
 */
export async function lockActiveStaff(db: Executor, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`${users.id} = any(${sql.param(ids)}::uuid[])`, sql`${users.role} in ('faculty', 'admin')`, isNull(users.disabledAt)))
    .for('share');
  return rows.map((row) => row.id);
}

/** The same account, locked until the transaction ends: changes to one account happen one at a time. */
export function lockUser(db: Executor, id: string): Promise<UserRow | undefined> {
  return db
    .select()
    .from(users)
    .where(eq(users.id, id))
    .for('update')
    .then((rows) => rows[0]);
}

/**
 * The enabled admins' ids, their rows locked in id order: two admins demoting each other at once
 * wait for each other, and the second sees the first's change.
 */
export async function lockEnabledAdmins(db: Executor): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), isNull(users.disabledAt)))
    .orderBy(asc(users.id))
    .for('update');
  return rows.map((row) => row.id);
}

/** `%` and `_` typed in a search are letters, not wildcards. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

export interface UserSearch {
  role?: UserRow['role'] | undefined;
  q?: string | undefined;
  limit: number;
  offset: number;
}

/** One page of accounts matching the search, by e-mail, and how many match in all. */
export async function searchUsers(db: Executor, search: UserSearch): Promise<{ rows: UserRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (search.role) conditions.push(eq(users.role, search.role));
  if (search.q) {
    const pattern = containsPattern(search.q);
    const matches = or(ilike(users.email, pattern), ilike(users.name, pattern), ilike(users.pin, pattern));
    if (matches) conditions.push(matches);
  }
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(sql`lower(${users.email})`, asc(users.id))
      .limit(search.limit)
      .offset(search.offset),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}

/** Stores an account's set-password link, replacing (so cancelling) the one it had. */
export async function putSetPasswordToken(db: Executor, row: { userId: string; tokenHash: string; expiresAt: Date }): Promise<void> {
  await db
    .insert(setPasswordTokens)
    .values(row)
    .onConflictDoUpdate({
      target: setPasswordTokens.userId,
      set: { tokenHash: row.tokenHash, expiresAt: row.expiresAt, createdAt: sql`now()` },
    });
}

/** The account a live link belongs to, if the link is live. */
export async function findLiveSetPasswordToken(db: Executor, tokenHash: string, now: Date): Promise<{ userId: string } | undefined> {
  const [row] = await db
    .select({ userId: setPasswordTokens.userId })
    .from(setPasswordTokens)
    .where(and(eq(setPasswordTokens.tokenHash, tokenHash), gt(setPasswordTokens.expiresAt, now)))
    .limit(1);
  return row;
}

/** Uses a live link up: it is deleted, so that of two requests with it only one gets its account. */
export async function takeSetPasswordToken(db: Executor, tokenHash: string, now: Date): Promise<{ userId: string } | undefined> {
  const [row] = await db
    .delete(setPasswordTokens)
    .where(and(eq(setPasswordTokens.tokenHash, tokenHash), gt(setPasswordTokens.expiresAt, now)))
    .returning({ userId: setPasswordTokens.userId });
  return row;
}

export async function deleteExpiredSetPasswordTokens(db: Executor, now: Date): Promise<void> {
  await db.delete(setPasswordTokens).where(lt(setPasswordTokens.expiresAt, now));
}

export async function hasAnyUser(db: Executor): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).limit(1);
  return row !== undefined;
}

export async function deleteSetPasswordTokenOf(db: Executor, userId: string): Promise<void> {
  await db.delete(setPasswordTokens).where(eq(setPasswordTokens.userId, userId));
}
