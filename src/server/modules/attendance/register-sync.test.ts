import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_REUSED_MESSAGE,
  REGISTER_CONFLICT_MESSAGE,
  type AttendanceChange,
  type AttendanceRegister,
  type RegisterConflict,
} from '../../../shared/schemas/attendance';
import { addDays, todayIn } from '../../../shared/dates';
import { attendanceChanges, idempotencyKeys, registers, students, users } from '../../db/schema';
import { createTestContext, type TestContext } from '../../test/test-app';
import { findCounterDifferences } from '../counters/service';
import { deleteOldIdempotencyKeys } from './service';

let ctx: TestContext;
let faculty: string;
let colleague: string;
const today = todayIn('UTC');

/** CSE5 has four students. */
const CSE5 = ['C5-01', 'C5-02', 'C5-03', 'C5-04'];

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.database.db.insert(students).values(CSE5.map((pin) => ({ pin, name: `Name ${pin}`, className: 'CSE5' })));
  faculty = await ctx.signIn('faculty');
  colleague = await ctx.signIn('faculty', { email: 'colleague@test.university.edu' });
  await ctx.database.db.update(users).set({ name: 'Dr Colleague' }).where(eq(users.email, 'colleague@test.university.edu'));
});
afterAll(async () => ctx.close());

function put(date: string, payload: object, headers: Record<string, string> = {}, cookie = faculty, query = '') {
  return ctx.app.inject({ method: 'PUT', url: `/api/attendance/CSE5/${date}${query}`, payload, headers: { cookie, ...headers } });
}
function get(url: string, cookie = faculty) {
  return ctx.app.inject({ method: 'GET', url, headers: { cookie } });
}
const history = async (date: string) => (await get(`/api/attendance/CSE5/${date}/history`)).json() as AttendanceChange[];
const allPresent = { records: CSE5.map((pin) => ({ pin, status: 'present' })) };

async function revisionOf(date: string): Promise<string> {
  const res = await get(`/api/attendance/CSE5/${date}`);
  expect(res.statusCode).toBe(200);
  return res.headers.etag as string;
}

describe('the register revision', () => {
  it('is "none" before a register is taken, and moves with every save, on GET and PUT alike', async () => {
    const date = addDays(today, -1);
    expect(await revisionOf(date)).toBe('"none"');
    const first = await put(date, allPresent);
    expect(first.statusCode).toBe(200);
    const [row] = await ctx.database.db.select().from(registers).where(and(eq(registers.className, 'CSE5'), eq(registers.date, date)));
    expect(first.headers.etag).toBe(`"${row!.id}.1"`);
    expect(await revisionOf(date)).toBe(first.headers.etag);

    // A save that changes no mark is still a new revision: the register's updatedAt moved.
    const second = await put(date, allPresent);
    expect(second.headers.etag).toBe(`"${row!.id}.2"`);
    expect(await revisionOf(date)).toBe(second.headers.etag);
    // Each period is a register of its own.
    expect((await get(`/api/attendance/CSE5/${date}?period=0`)).headers.etag).toBe(second.headers.etag);
  });

  it('is a strong ETag of its own: the register answer is not a cached report', async () => {
    const res = await get(`/api/attendance/CSE5/${addDays(today, -1)}`);
    expect(res.headers.etag).toMatch(/^"[0-9a-f-]{36}\.\d+"$/);
  });
});

describe('If-Match', () => {
  it('saves when the register is still at the revision the save started from', async () => {
    const date = addDays(today, -2);
    const res = await put(date, allPresent, { 'if-match': '"none"' });
    expect(res.statusCode).toBe(200);
    const next = await put(date, { records: [{ pin: 'C5-01', status: 'late' }] }, { 'if-match': res.headers.etag as string });
    expect(next.statusCode).toBe(200);
    expect(next.headers.etag).not.toBe(res.headers.etag);
    // `*`: any revision of a register taken.
    expect((await put(date, allPresent, { 'if-match': '*' })).statusCode).toBe(200);
  });

  it('answers 412 with each mark another saved meanwhile, who and when, and saves nothing', async () => {
    const date = addDays(today, -3);
    const taken = await put(date, allPresent);
    const base = taken.headers.etag as string;

    // A colleague saves meanwhile: C5-02 absent, C5-03 late (with the device's time).
    const markedAt = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    const theirs = await put(
      date,
      { records: [{ pin: 'C5-01', status: 'present' }, { pin: 'C5-03', status: 'late' }, { pin: 'C5-04', status: 'present' }], markedAt },
      {},
      colleague,
    );
    expect(theirs.statusCode).toBe(200);
    const theirsAt = (theirs.json() as AttendanceRegister).updatedAt;
    const historyBefore = await history(date);

    // The queued save, started from the first revision: C5-02 excused, C5-03 present.
    const mine = { records: [{ pin: 'C5-01', status: 'present' }, { pin: 'C5-02', status: 'excused' }, { pin: 'C5-03', status: 'present' }, { pin: 'C5-04', status: 'present' }] };
    const refused = await put(date, mine, { 'if-match': base });
    expect(refused.statusCode).toBe(412);
    const body = refused.json() as RegisterConflict;
    expect(body).toEqual({
      message: REGISTER_CONFLICT_MESSAGE,
      revision: theirs.headers.etag,
      conflicts: [
        // The colleague's save gave the device's time: it holds for each of its marks.
        { pin: 'C5-02', name: 'Name C5-02', base: 'present', saved: { status: 'absent', by: 'Dr Colleague', at: theirsAt, markedAt }, yours: 'excused' },
        {
          pin: 'C5-03',
          name: 'Name C5-03',
          base: 'present',
          saved: { status: 'late', by: 'Dr Colleague', at: theirsAt, markedAt },
          yours: 'present',
        },
      ],
    });
    expect(refused.headers.etag).toBe(theirs.headers.etag);
    // Nothing was written: the register, its history and the counters are the colleague's.
    expect(await revisionOf(date)).toBe(theirs.headers.etag);
    expect(await history(date)).toEqual(historyBefore);
    expect(await findCounterDifferences(ctx.database.db)).toEqual([]);

    // Sent again from the new revision with a reason, it is saved and the reason is in the history.
    const again = await put(date, { ...mine, reason: 'Checked with the class' }, { 'if-match': body.revision });
    expect(again.statusCode).toBe(200);
    const latest = (await history(date)).filter((c) => c.changedAt === (again.json() as AttendanceRegister).updatedAt);
    expect(latest.map((c) => [c.pin, c.oldStatus, c.newStatus, c.changedBy, c.reason])).toEqual([
      ['C5-02', 'absent', 'excused', 'Test faculty', 'Checked with the class'],
      ['C5-03', 'late', 'present', 'Test faculty', 'Checked with the class'],
    ]);
    expect(await findCounterDifferences(ctx.database.db)).toEqual([]);
  });

  it('lists a mark changed and changed back as no conflict: the register changed, the marks did not', async () => {
    const date = addDays(today, -4);
    const base = (await put(date, allPresent)).headers.etag as string;
    await put(date, { records: CSE5.map((pin) => ({ pin, status: pin === 'C5-01' ? 'absent' : 'present' })) }, {}, colleague);
    await put(date, allPresent, {}, colleague);
    const refused = await put(date, allPresent, { 'if-match': base });
    expect(refused.statusCode).toBe(412);
    expect((refused.json() as RegisterConflict).conflicts).toEqual([]);
  });

  it('answers 412 to a save from "none" when the register was taken meanwhile: every mark is someone else\'s', async () => {
    const date = addDays(today, -5);
    expect(await revisionOf(date)).toBe('"none"');
    const theirs = await put(date, { records: [{ pin: 'C5-01', status: 'present' }] }, {}, colleague);
    const refused = await put(date, allPresent, { 'if-match': '"none"' });
    expect(refused.statusCode).toBe(412);
    const body = refused.json() as RegisterConflict;
    expect(body.revision).toBe(theirs.headers.etag);
    expect(body.conflicts.map((c) => [c.pin, c.base, c.saved.status, c.saved.by, c.yours])).toEqual([
      ['C5-01', null, 'present', 'Dr Colleague', 'present'],
      ['C5-02', null, 'absent', 'Dr Colleague', 'present'],
      ['C5-03', null, 'absent', 'Dr Colleague', 'present'],
      ['C5-04', null, 'absent', 'Dr Colleague', 'present'],
    ]);
    expect((await history(date)).every((c) => c.changedBy === 'Dr Colleague')).toBe(true);
  });

  it('answers 412 to a revision or * on a register not taken, and takes nothing', async () => {
    const date = addDays(today, -6);
    const taken = await put(addDays(today, -1), allPresent);
    for (const tag of ['*', taken.headers.etag as string]) {
      const refused = await put(date, allPresent, { 'if-match': tag });
      expect(refused.statusCode).toBe(412);
      expect(refused.json()).toEqual({ message: REGISTER_CONFLICT_MESSAGE, revision: '"none"', conflicts: [] });
    }
    expect(await revisionOf(date)).toBe('"none"');
    expect((await get(`/api/attendance/CSE5/${date}`)).json()).toMatchObject({ submitted: false });
  });

  it('refuses an If-Match that is no revision of a register', async () => {
    const res = await put(addDays(today, -1), allPresent, { 'if-match': 'W/"r12-abc"' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'If-Match is one revision of this register, as its ETag gave it' });
  });

  it('leaves saves without it as they were: the last one wins', async () => {
    const date = addDays(today, -7);
    await put(date, allPresent);
    await put(date, { records: [] }, {}, colleague);
    const res = await put(date, allPresent);
    expect(res.statusCode).toBe(200);
    expect((res.json() as AttendanceRegister).stats.present).toBe(4);
  });
});

describe('Idempotency-Key', () => {
  it('answers the same key and request again as the first time, without a second save', async () => {
    const date = addDays(today, -8);
    const key = randomUUID();
    const body = { records: [{ pin: 'C5-01', status: 'late' }], reason: 'From the outbox' };
    const first = await put(date, body, { 'idempotency-key': key });
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const historyAfterFirst = await history(date);
    expect(historyAfterFirst).toHaveLength(4);

    // The same request again, its fields in another order: the kept answer, nothing saved.
    const again = await put(date, { reason: 'From the outbox', records: [{ status: 'late', pin: 'c5-01' }] }, { 'idempotency-key': key });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(await revisionOf(date)).toBe(first.headers.etag);
    expect(await history(date)).toEqual(historyAfterFirst);
    const [row] = await ctx.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(row).toMatchObject({ status: 200, etag: first.headers.etag });
    expect(await findCounterDifferences(ctx.database.db)).toEqual([]);
  });

  it('answers 422 to the key with another body, another register or another account', async () => {
    const date = addDays(today, -9);
    const key = randomUUID();
    expect((await put(date, allPresent, { 'idempotency-key': key })).statusCode).toBe(200);
    const historyBefore = await history(date);
    const others = [
      put(date, { records: [{ pin: 'C5-01', status: 'absent' }] }, { 'idempotency-key': key }),
      put(date, allPresent, { 'idempotency-key': key }, faculty, '?period=3'),
      put(addDays(date, -1), allPresent, { 'idempotency-key': key }),
      put(date, allPresent, { 'idempotency-key': key }, colleague),
    ];
    for (const res of await Promise.all(others)) {
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message: IDEMPOTENCY_KEY_REUSED_MESSAGE });
    }
    expect(await history(date)).toEqual(historyBefore);
    expect(await revisionOf(addDays(date, -1))).toBe('"none"');
  });

  it('saves once when two requests with one key arrive together', async () => {
    const date = addDays(today, -10);
    const key = randomUUID();
    const [a, b] = await Promise.all([put(date, allPresent, { 'idempotency-key': key }), put(date, allPresent, { 'idempotency-key': key })]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json()).toEqual(b.json());
    expect([a.headers['idempotent-replayed'], b.headers['idempotent-replayed']].filter(Boolean)).toEqual(['true']);
    expect(await history(date)).toHaveLength(4);
    const [row] = await ctx.database.db.select().from(registers).where(and(eq(registers.className, 'CSE5'), eq(registers.date, date)));
    expect(row!.revision).toBe(1);
  });

  it('keeps nothing for a save that failed: the key may be sent again', async () => {
    const date = addDays(today, -11);
    const key = randomUUID();
    const base = (await put(date, allPresent)).headers.etag as string;
    await put(date, { records: [] }, {}, colleague);
    const refused = await put(date, allPresent, { 'idempotency-key': key, 'if-match': base });
    expect(refused.statusCode).toBe(412);
    expect(await ctx.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);
    const revision = (refused.json() as RegisterConflict).revision;
    const again = await put(date, { ...allPresent, reason: 'Seen the colleague\'s marks' }, { 'idempotency-key': key, 'if-match': revision });
    expect(again.statusCode).toBe(200);
  });

  it('refuses a key that is not a UUID', async () => {
    const res = await put(addDays(today, -1), allPresent, { 'idempotency-key': 'outbox-17' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'An Idempotency-Key is a UUID' });
  });

  it('is forgotten after 72 hours by the hourly sweep', async () => {
    const [account] = await ctx.database.db.select({ id: users.id }).from(users).limit(1);
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 60 * 60 * 1000);
    const [old, recent] = [randomUUID(), randomUUID()];
    await ctx.database.db.insert(idempotencyKeys).values([
      { key: old, userId: account!.id, requestHash: 'x', status: 200, body: {}, createdAt: hoursAgo(73) },
      { key: recent, userId: account!.id, requestHash: 'x', status: 200, body: {}, createdAt: hoursAgo(71) },
    ]);
    expect(await deleteOldIdempotencyKeys(ctx.database.db)).toBeGreaterThanOrEqual(1);
    const left = await ctx.database.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(sql`${idempotencyKeys.key} in (${old}, ${recent})`);
    expect(left).toEqual([{ key: recent }]);
  });
});

describe('markedAt', () => {
  it('keeps the device\'s time of the marks in the history, beside the server\'s', async () => {
    const date = addDays(today, -1);
    const markedAt = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const res = await put(date, { records: [{ pin: 'C5-04', status: 'excused' }], markedAt: markedAt.toISOString().replace('Z', '+00:00') });
    expect(res.statusCode).toBe(200);
    const changes = await history(date);
    const latest = changes.filter((c) => c.changedAt === (res.json() as AttendanceRegister).updatedAt);
    expect(latest.length).toBeGreaterThan(0);
    expect(latest.every((c) => c.markedAt === markedAt.toISOString())).toBe(true);
    // Changes saved without it show none.
    expect(changes.filter((c) => !latest.includes(c)).every((c) => !('markedAt' in c))).toBe(true);
    const rows = await ctx.database.db.select({ markedAt: attendanceChanges.markedAt }).from(attendanceChanges).where(sql`${attendanceChanges.markedAt} is not null`);
    expect(rows.some((r) => r.markedAt?.getTime() === markedAt.getTime())).toBe(true);
  });

  it('refuses a time that is not one, in the future, more than 7 days old, or before the register\'s date', async () => {
    const date = addDays(today, -2);
    const cases: [string, string][] = [
      ['yesterday morning', 'markedAt is a time such as 2026-11-23T09:05:00+05:30'],
      [new Date(Date.now() + 60 * 60 * 1000).toISOString(), 'markedAt is in the future'],
      [new Date(Date.now() - 8 * 24 * 60 * 60 * 1000).toISOString(), 'markedAt is more than 7 days ago'],
      [`${addDays(date, -1)}T12:00:00Z`, `markedAt is before the register's date (${date})`],
    ];
    const before = await revisionOf(date);
    for (const [markedAt, message] of cases) {
      const res = await put(date, { ...allPresent, markedAt });
      expect(res.statusCode, markedAt).toBe(400);
      expect(res.json()).toMatchObject({ message });
    }
    expect(await revisionOf(date)).toBe(before);
  });
});
