import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { students } from '../../../server/db/schema';
import { addUser } from '../../../server/modules/accounts/service';
import { createInjectFetch, signInThroughFetch } from '../../../server/test/inject-fetch';
import { createTestContext, TEST_PASSWORD, type TestContext } from '../../../server/test/test-app';
import { todayIn } from '../../../shared/dates';
import type { AttendanceChange, AttendanceRegister } from '../../../shared/schemas/attendance';
import { memoryStore, type OfflineStore, type QueuedSave } from '../../lib/offline-store';
import { enqueue, isStale, localIsoTime, queuedSaveOf, resolvedSave, sendOutbox, sendQueued, STALE_AFTER_MS, waitingSaveOf, withWaitingMarks } from './outbox';

let ctx: TestContext;
/** The portal's fetch, signed in as one faculty member; the other one's, for a colleague's save. */
let meera: typeof fetch;
let ravi: typeof fetch;
const today = todayIn('UTC');

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.database.db.insert(students).values([
    { pin: '23CSE301', name: 'Ananya Rao', className: 'CSE3' },
    { pin: '23CSE302', name: 'Bhavana Iyer', className: 'CSE3' },
  ]);
  await addUser(ctx.database.db, { email: 'meera@uni.edu', name: 'Dr. Meera Iyer', role: 'faculty', password: TEST_PASSWORD });
  await addUser(ctx.database.db, { email: 'ravi@uni.edu', name: 'Dr. Ravi Kumar', role: 'faculty', password: TEST_PASSWORD });
  meera = createInjectFetch(ctx.app);
  ravi = createInjectFetch(ctx.app);
  await signInThroughFetch(meera, 'meera@uni.edu', 'faculty');
  await signInThroughFetch(ravi, 'ravi@uni.edu', 'faculty');
  vi.stubGlobal('fetch', meera);
}, 60_000);
afterAll(async () => {
  vi.unstubAllGlobals();
  await ctx?.close();
});

async function registerOf(className: string): Promise<{ register: AttendanceRegister; etag: string }> {
  const response = await meera(`/api/attendance/${className}/${today}`);
  return { register: (await response.json()) as AttendanceRegister, etag: response.headers.get('etag')! };
}

async function historyOf(className: string): Promise<AttendanceChange[]> {
  return (await (await meera(`/api/attendance/${className}/${today}/history`)).json()) as AttendanceChange[];
}

function saveOf(marks: Record<string, 'present' | 'absent' | 'late' | 'excused'>, ifMatch: string): QueuedSave {
  return queuedSaveOf({
    userId: 'meera',
    className: 'CSE3',
    date: today,
    period: 0,
    body: { records: Object.entries(marks).map(([pin, status]) => ({ pin, status })) },
    ifMatch,
  });
}

/** The same store with the save in it, as the page writes it before sending. */
async function queuedIn(store: OfflineStore, save: QueuedSave): Promise<QueuedSave> {
  await store.putQueued(save);
  return save;
}

describe('the register outbox', () => {
  it('keeps a save that finds no connection, sends it once when there is one, and a replay of it changes nothing', async () => {
    const store = memoryStore();
    const { etag } = await registerOf('CSE3');
    expect(etag).toBe('"none"');
    const save = await queuedIn(store, saveOf({ '23CSE301': 'present', '23CSE302': 'absent' }, etag));
    expect(save.body.markedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);

    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    try {
      expect(await sendOutbox(store, 'meera')).toEqual([{ kind: 'offline', save }]);
    } finally {
      vi.stubGlobal('fetch', meera);
    }
    expect(await store.queued()).toEqual([save]);

    const [sent] = await sendOutbox(store, 'meera');
    expect(sent).toMatchObject({ kind: 'sent', register: { submitted: true } });
    expect(sent?.kind === 'sent' && sent.etag).toMatch(/^"[^"]+\.1"$/);
    expect(await store.queued()).toEqual([]);
    const history = await historyOf('CSE3');
    expect(history).toHaveLength(2);
    expect(new Date(history[0]!.markedAt!).getTime()).toBe(new Date(save.body.markedAt).getTime());

    // The answer was lost on the way back: the same save again is answered from the kept one.
    const again = await sendQueued(store, await queuedIn(store, save));
    expect(again.kind).toBe('sent');
    expect(await historyOf('CSE3')).toHaveLength(2);
    expect(await store.queued()).toEqual([]);
  });

  it('keeps a save whose register a colleague changed, with both marks, and sends the marks the user chose with a reason', async () => {
    const store = memoryStore();
    const { etag } = await registerOf('CSE3');
    await queuedIn(store, saveOf({ '23CSE301': 'late', '23CSE302': 'absent' }, etag));
    // Meanwhile, a colleague marks Ananya absent.
    const colleague = await ravi(`/api/attendance/CSE3/${today}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ records: [{ pin: '23CSE301', status: 'absent' }, { pin: '23CSE302', status: 'absent' }] }),
    });
    expect(colleague.status).toBe(200);

    const [outcome] = await sendOutbox(store, 'meera');
    expect(outcome?.kind).toBe('conflict');
    const [kept] = await store.queued();
    expect(kept?.conflict?.conflicts).toEqual([
      expect.objectContaining({ pin: '23CSE301', base: 'present', saved: expect.objectContaining({ status: 'absent', by: 'Dr. Ravi Kumar' }), yours: 'late' }),
    ]);
    // Waiting for the user: a sync leaves it alone.
    expect(await sendOutbox(store, 'meera')).toEqual([]);

    const resolved = resolvedSave(kept!, { '23CSE301': 'late' }, 'Seen in the room');
    expect(resolved.id).not.toBe(kept!.id);
    expect(resolved.ifMatch).toBe(kept!.conflict!.revision);
    await store.deleteQueued(kept!.id);
    expect((await sendQueued(store, await queuedIn(store, resolved))).kind).toBe('sent');
    const [latest] = await historyOf('CSE3');
    expect(latest).toMatchObject({ pin: '23CSE301', newStatus: 'late', reason: 'Seen in the room', changedBy: 'Dr. Meera Iyer' });
  });

  it('sends again at the new revision when the register was saved meanwhile but no mark differs', async () => {
    const store = memoryStore();
    const { etag } = await registerOf('CSE3');
    const same = { records: [{ pin: '23CSE301', status: 'late' as const }, { pin: '23CSE302', status: 'absent' as const }] };
    const colleague = await ravi(`/api/attendance/CSE3/${today}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(same) });
    expect(colleague.status).toBe(200);
    await queuedIn(store, saveOf({ '23CSE301': 'late', '23CSE302': 'present' }, etag));
    const [outcome] = await sendOutbox(store, 'meera');
    expect(outcome?.kind).toBe('sent');
    expect(await store.queued()).toEqual([]);
  });

  it('drops a save whose key was used for another one, and says why', async () => {
    const store = memoryStore();
    const { etag } = await registerOf('CSE3');
    const first = await queuedIn(store, saveOf({ '23CSE301': 'present', '23CSE302': 'present' }, etag));
    expect((await sendQueued(store, first)).kind).toBe('sent');
    const other = await queuedIn(store, { ...first, body: { ...first.body, records: [{ pin: '23CSE301', status: 'absent' }] } });
    const outcome = await sendQueued(store, other);
    expect(outcome).toMatchObject({ kind: 'dropped', message: 'This Idempotency-Key was used for a different request' });
    expect(await store.queued()).toEqual([]);
  });

  it('replaces a waiting save of the same register with a new one that keeps the revision the marks started from', async () => {
    const store = memoryStore();
    const { etag } = await registerOf('CSE3');
    const first = await enqueue(store, saveOf({ '23CSE301': 'absent', '23CSE302': 'absent' }, etag));
    const second = await enqueue(store, saveOf({ '23CSE301': 'excused', '23CSE302': 'absent' }, '"stale"'));
    expect(second.ifMatch).toBe(first.ifMatch);
    expect(await store.queued()).toEqual([second]);
    const [outcome] = await sendOutbox(store, 'meera');
    expect(outcome?.kind).toBe('sent');
    expect((await registerOf('CSE3')).register.records.find((record) => record.pin === '23CSE301')?.status).toBe('excused');
  });

  it("sends only the signed-in user's saves, and warns about one waiting longer than three days", async () => {
    const store = memoryStore();
    const { etag } = await registerOf('CSE3');
    await queuedIn(store, { ...saveOf({ '23CSE301': 'present' }, etag), userId: 'someone else' });
    expect(await sendOutbox(store, 'meera')).toEqual([]);
    const now = Date.now();
    const save = saveOf({ '23CSE301': 'present' }, etag);
    expect(isStale(save, now)).toBe(false);
    expect(isStale({ ...save, queuedAt: new Date(now - STALE_AFTER_MS - 1000).toISOString() }, now)).toBe(true);
  });

  it("lays the marks of the register's waiting save over the register, and not those of a save in conflict", async () => {
    const { register, etag } = await registerOf('CSE3');
    const save = saveOf({ '23CSE301': 'late', '23CSE302': 'excused' }, etag);
    const place = { className: 'CSE3', date: today, period: 0 };
    expect(waitingSaveOf([save], place)).toBe(save);
    expect(waitingSaveOf([save], { ...place, period: 1 })).toBeNull();
    expect(waitingSaveOf([{ ...save, conflict: { message: 'Changed', revision: '"x"', conflicts: [] } }], place)).toBeNull();
    const checkedIn = { ...register, records: register.records.map((record) => ({ ...record, status: 'present' as const, present: true, checkedInAt: '2026-11-23T09:01:00Z' })) };
    const shown = withWaitingMarks(checkedIn, save);
    expect(shown.records.map(({ pin, status, present, checkedInAt }) => ({ pin, status, present, checkedInAt }))).toEqual([
      { pin: '23CSE301', status: 'late', present: true, checkedInAt: undefined },
      { pin: '23CSE302', status: 'excused', present: false, checkedInAt: undefined },
    ]);
    expect(shown.stats).toEqual({ total: 2, present: 0, absent: 0, late: 1, excused: 1 });
    // A mark the save leaves as it was keeps its check-in.
    const kept = withWaitingMarks(checkedIn, { ...save, body: { ...save.body, records: [{ pin: '23CSE301', present: true }] } });
    expect(kept.records.map((record) => record.checkedInAt)).toEqual(['2026-11-23T09:01:00Z', '2026-11-23T09:01:00Z']);
  });

  it('writes markedAt with the offset of the device', () => {
    expect(localIsoTime(new Date())).toMatch(/[+-]\d\d:\d\d$/);
  });
});
