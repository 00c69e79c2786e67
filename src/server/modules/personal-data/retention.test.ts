import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { auditLog, contactMessages, students } from '../../db/schema';
import { onPostgres } from '../../test/postgres';
import { seedRegister } from '../../test/registers';
import { createTestContext, type TestContext } from '../../test/test-app';
import { findCounterDifferences } from '../counters/service';
import { RETENTION_LOCK, runRetention } from './retention';

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

  it.skipIf(!onPostgres)('leaves the day to the process that holds the lock', async () => {
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`select pg_advisory_xact_lock(${RETENTION_LOCK[0]}, ${RETENTION_LOCK[1]})`));
      expect(await runRetention({ database: ctx.database, settings: { messagesDays: 365, withdrawnDays: 30 }, now })).toEqual({ outcome: 'busy' });
    });
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

    // Once a day, whichever process asks again.
    expect(await runRetention({ database: ctx.database, settings, now: new Date(now.getTime() + 3600_000) })).toEqual({ outcome: 'already-ran' });
    expect(await runRetention({ database: ctx.database, settings, now: new Date(now.getTime() + DAY) })).toEqual({
      outcome: 'done',
      messages: 0,
      erased: [],
    });
  });
});
