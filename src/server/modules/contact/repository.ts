import { and, desc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { contactMessages } from '../../db/schema';

export type ContactMessageRow = typeof contactMessages.$inferSelect;
export type NewContactMessageRow = Pick<typeof contactMessages.$inferInsert, 'name' | 'email' | 'phone' | 'subject' | 'message'>;

/** A time span from now on the database's clock, so that every server process agrees on it. */
function fromNow(ms: number) {
  return sql`now() + (${ms}::double precision * interval '1 millisecond')`;
}

export async function insertMessage(db: Executor, row: NewContactMessageRow): Promise<ContactMessageRow> {
  const [created] = await db.insert(contactMessages).values(row).returning();
  if (!created) throw new Error('insert returned no row');
  return created;
}

export function listMessages(db: Executor, limit: number): Promise<ContactMessageRow[]> {
  return db
    .select()
    .from(contactMessages)
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(limit);
}

/** Marks a message read (keeping the first reading time) or unread; undefined when there is no such message. */
export async function setRead(db: Executor, id: number, read: boolean): Promise<ContactMessageRow | undefined> {
  const [updated] = await db
    .update(contactMessages)
    .set({ readAt: read ? sql`coalesce(${contactMessages.readAt}, now())` : null })
    .where(eq(contactMessages.id, id))
    .returning();
  return updated;
}

/**
 * Claims up to `limit` messages that are due for forwarding and leases them for `leaseMs`: their
 * next_attempt_at moves into the future, so no other worker (in this or another process) picks
 * them up until this one records the outcome or the lease runs out. FOR UPDATE SKIP LOCKED makes
 * two workers claiming at the same moment take different rows instead of waiting for each other
 * and then claiming the same ones.
 */
export async function claimDue(
  db: Executor,
  { limit, leaseMs, maxAttempts }: { limit: number; leaseMs: number; maxAttempts: number },
): Promise<ContactMessageRow[]> {
  const due = db
    .select({ id: contactMessages.id })
    .from(contactMessages)
    .where(
      and(
        isNull(contactMessages.forwardedAt),
        lt(contactMessages.forwardAttempts, maxAttempts),
        or(isNull(contactMessages.nextAttemptAt), lte(contactMessages.nextAttemptAt, sql`now()`)),
      ),
    )
    .orderBy(contactMessages.id)
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(contactMessages)
    .set({ nextAttemptAt: fromNow(leaseMs) })
    .where(inArray(contactMessages.id, due))
    .returning();
}

/** Records a successful forward; from then on the message is never claimed again. */
export async function markForwarded(db: Executor, id: number): Promise<void> {
  await db
    .update(contactMessages)
    .set({
      forwardedAt: sql`now()`,
      forwardError: null,
      nextAttemptAt: null,
      forwardAttempts: sql`${contactMessages.forwardAttempts} + 1`,
    })
    .where(and(eq(contactMessages.id, id), isNull(contactMessages.forwardedAt)));
}

/**
 * Records a failed try and when to try again (null: give up). A message that is already
 * forwarded keeps its success.
 */
export async function markFailed(db: Executor, id: number, error: string, retryInMs: number | null): Promise<void> {
  await db
    .update(contactMessages)
    .set({
      forwardError: error,
      forwardAttempts: sql`${contactMessages.forwardAttempts} + 1`,
      nextAttemptAt: retryInMs === null ? null : fromNow(retryInMs),
    })
    .where(and(eq(contactMessages.id, id), isNull(contactMessages.forwardedAt)));
}

/**
 * The messages still to be forwarded (neither forwarded nor given up: what the inbox calls
 * pending), and how long the oldest of them has waited, in seconds by the database's clock.
 */
export async function outboxState(db: Executor): Promise<{ depth: number; oldestAgeSeconds: number }> {
  const [row] = await db
    .select({
      depth: sql<number>`count(*)::int`,
      // Numeric, read as text: the embedded database's double precision results are not to be trusted here.
      oldest: sql<string | null>`extract(epoch from now() - min(${contactMessages.createdAt}))`,
    })
    .from(contactMessages)
    .where(
      and(
        isNull(contactMessages.forwardedAt),
        or(isNull(contactMessages.forwardError), sql`${contactMessages.nextAttemptAt} is not null`),
      ),
    );
  return { depth: Number(row?.depth ?? 0), oldestAgeSeconds: Number(row?.oldest ?? 0) };
}
