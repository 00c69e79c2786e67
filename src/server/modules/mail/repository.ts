import { and, asc, count, desc, eq, inArray, isNotNull, lt, lte, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { mailOutbox } from '../../db/schema';

export type MailRow = typeof mailOutbox.$inferSelect;
export type NewMailRow = Pick<typeof mailOutbox.$inferInsert, 'topic' | 'recipient' | 'subject' | 'body' | 'headers' | 'expiresAt'>;

/** A time span from now on the database's clock, so that every server process agrees on it. */
function fromNow(ms: number) {
  return sql`now() + (${ms}::double precision * interval '1 millisecond')`;
}

export async function insertMail(db: Executor, row: NewMailRow): Promise<MailRow> {
  const [created] = await db.insert(mailOutbox).values(row).returning();
  if (!created) throw new Error('insert returned no row');
  return created;
}

/** NOTIFY on the channel: inside a transaction it is delivered when it commits, and never if it rolls back. */
export async function notify(db: Executor, channel: string): Promise<void> {
  await db.execute(sql`select pg_notify(${channel}, '')`);
}

/** Cancels the topic's messages not sent yet (but the one kept); their bodies go. */
export async function cancelQueued(db: Executor, topic: string, keepId?: number): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: 'cancelled', body: null, finishedAt: sql`now()` })
    .where(and(eq(mailOutbox.topic, topic), eq(mailOutbox.status, 'queued'), keepId === undefined ? undefined : ne(mailOutbox.id, keepId)));
}

/**
 * Claims up to `limit` messages that are due and leases them for `leaseMs`: their next_attempt_at
 * moves past the lease, so no other sender (in this or another process) takes them until this one
 * records the outcome or the lease runs out. FOR UPDATE SKIP LOCKED makes two senders claiming at
 * the same moment take different rows instead of waiting for each other and then claiming the
 * same ones.
 */
export async function claimDue(db: Executor, { limit, leaseMs }: { limit: number; leaseMs: number }): Promise<MailRow[]> {
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, 'queued'), lte(mailOutbox.nextAttemptAt, sql`now()`), sql`${mailOutbox.expiresAt} > now()`))
    .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(mailOutbox)
    .set({ nextAttemptAt: fromNow(leaseMs) })
    .where(and(inArray(mailOutbox.id, due), eq(mailOutbox.status, 'queued')))
    .returning();
}

/** Records that the SMTP server took the message; from then on it is never claimed again. */
export async function markSent(db: Executor, id: number): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: 'sent', sentAt: sql`now()`, finishedAt: sql`now()`, body: null, lastError: null, attempts: sql`${mailOutbox.attempts} + 1` })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'queued')));
}

/** Records a failed try and when to try again; null: give up (its body goes). */
export async function markFailed(db: Executor, id: number, error: string, retryInMs: number | null): Promise<void> {
  await db
    .update(mailOutbox)
    .set(
      retryInMs === null
        ? { status: 'failed', lastError: error, attempts: sql`${mailOutbox.attempts} + 1`, body: null, finishedAt: sql`now()` }
        : { lastError: error, attempts: sql`${mailOutbox.attempts} + 1`, nextAttemptAt: fromNow(retryInMs) },
    )
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'queued')));
}

/** Gives up the messages not sent before they expired; returns how many. */
export async function failExpired(db: Executor): Promise<number> {
  const given = await db
    .update(mailOutbox)
    .set({
      status: 'failed',
      body: null,
      finishedAt: sql`now()`,
      lastError: sql`'Not sent before it expired' || coalesce(': ' || ${mailOutbox.lastError}, '')`,
    })
    .where(and(eq(mailOutbox.status, 'queued'), lte(mailOutbox.expiresAt, sql`now()`)))
    .returning({ id: mailOutbox.id });
  return given.length;
}

/** Forgets messages finished before `before`. */
export async function deleteFinishedBefore(db: Executor, before: Date): Promise<void> {
  await db.delete(mailOutbox).where(and(isNotNull(mailOutbox.finishedAt), lt(mailOutbox.finishedAt, before)));
}

/** The newest message of each topic that was not cancelled. */
export async function latestOfTopics(db: Executor, topics: string[]): Promise<MailRow[]> {
  if (topics.length === 0) return [];
  return db
    .selectDistinctOn([mailOutbox.topic])
    .from(mailOutbox)
    .where(and(inArray(mailOutbox.topic, topics), ne(mailOutbox.status, 'cancelled')))
    .orderBy(mailOutbox.topic, desc(mailOutbox.id));
}

/** How many messages wait to be sent, and since when the oldest waits (on the database's clock). */
export async function queuedStats(db: Executor): Promise<{ depth: number; oldestAgeMs: number | null }> {
  const [row] = await db
    .select({
      depth: count(),
      ageMs: sql<number | null>`(extract(epoch from (now() - min(${mailOutbox.createdAt}))) * 1000)::float8`,
    })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, 'queued'));
  return { depth: row?.depth ?? 0, oldestAgeMs: row?.ageMs === null || row?.ageMs === undefined ? null : Number(row.ageMs) };
}
