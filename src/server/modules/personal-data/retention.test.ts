import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { openDatabase } from '../../db/client';
import { auditLog, contactMessages, jobSlots, students } from '../../db/schema';
import { onPostgres } from '../../test/postgres';
import { createPostgresCopy } from '../../test/test-db';
import { seedRegister } from '../../test/registers';
import { createTestContext, type TestContext } from '../../test/test-app';
import { findCounterDifferences } from '../counters/service';
import { RETENTION_TASK, runRetention } from './retention';

let ctx: TestContext;
const DAY = 24 * 3600_000;
const now = new Date('2027-03-10T03:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY);

beforeAll(async () => {
  ctx = await createTestContext();
  const { db } = ctx.database;
  await ctx.signIn('student', { pin: 'RET-OLD', email: 'ret.old@test.university.edu', className: 'CSE6' });
  await ctx.signIn('student', { pin: 'RET-NEW', className: 'CSE6' });
  await ctx.signIn('student', { pin: 'RET-NOW', className: 'CSE6' });
  await seedRegister(ctx.database, { className: 'CSE6', date: '2026-09-01' }, [
    { pin: 'RET-OLD', name: 'Old Leaver', present: true },
    { pin: 'RET-NEW', name: 'New Leaver', present: false },
    { pin: 'RET-NOW', name: 'Still Here', present: true },
  ]);
  await db.update(students).set({ withdrawnAt: daysAgo(40) }).where(eq(students.pin, 'RET-OLD'));
  await db.update(students).set({ withdrawnAt: daysAgo(5) }).where(eq(students.pin, 'RET-NEW'));
  await db.insert(contactMessages).values([
    { name: 'A', email: 'a@example.com', subject: 'Old', message: 'From long ago', createdAt: daysAgo(400) },
    { name: 'B', email: 'b@example.com', subject: 'Recent', message: 'From last month', createdAt: daysAgo(30) },
  ]);
}, 60_000);
afterAll(async () => ctx?.close());

describe('retention', () => {
  it('is a year for contact messages and off for withdrawn students unless configured', () => {
    expect(loadConfig({}).retention).toEqual({ messagesDays: 365, withdrawnDays: null });
    expect(loadConfig({ PORTAL_RETAIN_MESSAGES_DAYS: 'off', PORTAL_RETAIN_WITHDRAWN_DAYS: '730' }).retention).toEqual({
      messagesDays: null,
      withdrawnDays: 730,
    });
    expect(() => loadConfig({ PORTAL_RETAIN_MESSAGES_DAYS: '0' })).toThrow(
      'PORTAL_RETAIN_MESSAGES_DAYS must be a whole number of days (1 or more) or "off", not "0"',
    );
    expect(() => loadConfig({ PORTAL_RETAIN_WITHDRAWN_DAYS: 'a year' })).toThrow(/PORTAL_RETAIN_WITHDRAWN_DAYS must be a whole number/);
  });

  it.skipIf(!onPostgres)('of several processes running one slot at once, one applies it', { timeout: 60_000 }, async () => {
    const copy = await createPostgresCopy(process.env.TEST_DATABASE_URL!);
    const processes = await Promise.all([1, 2, 3].map(() => openDatabase({ databaseUrl: copy.url })));
    try {
      const settings = { messagesDays: 365, withdrawnDays: 30 };
      const outcomes = await Promise.all(processes.map((database) => runRetention({ database, settings, now })));
      expect(outcomes.map((o) => o.outcome).sort()).toEqual(['already-ran', 'already-ran', 'done']);
    } finally {
      for (const database of processes) await database.close();
      await copy.drop();
    }
  });

  it('deletes old messages and erases long-withdrawn students, once a day', async () => {
    const settings = { messagesDays: 365, withdrawnDays: 30 };
    const result = await runRetention({ database: ctx.database, settings, now });
    expect(result).toMatchObject({ outcome: 'done', messages: 1, erased: [expect.stringMatching(/^ERASED-[0-9A-F]{8}$/)] });
    const { db } = ctx.database;
    expect((await db.select().from(contactMessages)).map((m) => m.subject)).toEqual(['Recent']);
    const pins = (await db.select().from(students)).map((s) => s.pin);
    expect(pins).not.toContain('RET-OLD');
    expect(pins).toEqual(expect.arrayContaining(['RET-NEW', 'RET-NOW']));
    expect(await findCounterDifferences(db)).toEqual([]);
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, 'student.erase'));
    expect(entry).toMatchObject({ actor: 'retention', target: result.outcome === 'done' ? result.erased[0] : '' });

    // Once a slot, whichever process asks again; the slot is the job runner's.
    expect(await db.select({ task: jobSlots.task, slot: jobSlots.slot }).from(jobSlots)).toEqual([{ task: RETENTION_TASK, slot: now }]);
    expect(await runRetention({ database: ctx.database, settings, slot: now, now: new Date(now.getTime() + 3600_000) })).toEqual({ outcome: 'already-ran' });
    expect(await runRetention({ database: ctx.database, settings, now: new Date(now.getTime() + DAY) })).toEqual({
      outcome: 'done',
      messages: 0,
      erased: [],
    });
  });

  it('does nothing of a run that fails half-way, and leaves its slot to the next try', async () => {
    const { db } = ctx.database;
    const later = new Date(now.getTime() + 2 * DAY);
    const settings = { messagesDays: 365, withdrawnDays: 30 };
    await db.insert(contactMessages).values({ name: 'C', email: 'c@example.com', subject: 'Older', message: 'Two years old', createdAt: daysAgo(800) });
    await db.update(students).set({ withdrawnAt: daysAgo(60) }).where(eq(students.pin, 'RET-NEW'));
    // The trail refuses the erasure's entry, after the messages were deleted.
    await db.execute(sql`create function refuse_audit() returns trigger language plpgsql as $$ begin raise exception 'the trail is full'; end $$`);
    await db.execute(sql`create trigger refuse_audit before insert on audit_log for each row execute function refuse_audit()`);
    try {
      await expect(runRetention({ database: ctx.database, settings, now: later })).rejects.toThrow();
    } finally {
      await db.execute(sql`drop trigger refuse_audit on audit_log`);
      await db.execute(sql`drop function refuse_audit()`);
    }
    expect((await db.select().from(contactMessages)).map((m) => m.subject).sort()).toEqual(['Older', 'Recent']);
    expect((await db.select().from(students)).map((s) => s.pin)).toContain('RET-NEW');
    expect((await db.select().from(jobSlots)).map((j) => j.slot)).not.toContainEqual(later);

    expect(await runRetention({ database: ctx.database, settings, now: later })).toMatchObject({ outcome: 'done', messages: 1, erased: [expect.any(String)] });
  });
});
