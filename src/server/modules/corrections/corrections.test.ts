import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../../shared/dates';
import type { AttendanceChange, AttendanceRegister } from '../../../shared/schemas/attendance';
import type { Correction } from '../../../shared/schemas/corrections';
import { createTestContext, type TestContext } from '../../test/test-app';
import { findCounterDifferences } from '../counters/service';

let ctx: TestContext;
let faculty: string;
let student: string;
let other: string;
const day = addDays(todayIn('UTC'), -3);
const PIN = 'CORR01';

beforeAll(async () => {
  ctx = await createTestContext();
  faculty = await ctx.signIn('faculty');
  student = await ctx.signIn('student', { pin: PIN, className: 'CSE2' });
  other = await ctx.signIn('student', { pin: 'CORR02', className: 'CSE2' });
  // The register of CSE2 that day: the student absent, the other present.
  const saved = await ctx.app.inject({
    method: 'PUT',
    url: `/api/attendance/CSE2/${day}`,
    headers: { cookie: faculty },
    payload: { records: [{ pin: 'CORR02', status: 'present' }] },
  });
  expect(saved.statusCode).toBe(200);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

const post = (url: string, cookie: string, payload: object) => ctx.app.inject({ method: 'POST', url, headers: { cookie }, payload });
const get = (url: string, cookie: string) => ctx.app.inject({ method: 'GET', url, headers: { cookie } });

describe('correction requests', () => {
  let request: Correction;

  it('lets a student ask about their own mark, once while it is open', async () => {
    const res = await post('/api/corrections', student, { date: day, reason: 'I was there; I sat at the back.' });
    expect(res.statusCode).toBe(201);
    request = res.json() as Correction;
    expect(request).toMatchObject({ pin: PIN, className: 'CSE2', date: day, period: 0, markStatus: 'absent', state: 'open', reply: null });

    const again = await post('/api/corrections', student, { date: day, reason: 'Again' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'There is already an open request for this mark' });
  });

  it('refuses a date without a mark, an empty reason, and anyone but a student', async () => {
    const none = await post('/api/corrections', student, { date: addDays(day, -1), reason: 'Nothing that day' });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ message: 'You have no mark on that date and period' });
    expect((await post('/api/corrections', student, { date: day, reason: '   ' })).statusCode).toBe(400);
    expect((await post('/api/corrections', faculty, { date: day, reason: 'Not mine' })).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/corrections', payload: { date: day, reason: 'x' } })).statusCode).toBe(401);
  });

  it('shows faculty every open request and a student only their own', async () => {
    const all = (await get('/api/corrections', faculty)).json() as Correction[];
    expect(all.map((c) => c.id)).toContain(request.id);
    expect((await get('/api/corrections/open-count', faculty)).json()).toEqual({ open: all.length });
    expect(((await get('/api/corrections', student)).json() as Correction[]).map((c) => c.id)).toEqual([request.id]);
    expect((await get('/api/corrections', other)).json()).toEqual([]);
    expect((await get('/api/corrections/open-count', student)).statusCode).toBe(403);
  });

  it('accepting changes the mark with the request\'s reason in the history, keeps the counters right, and closes the request', async () => {
    expect((await post(`/api/corrections/${request.id}/accept`, student, {})).statusCode).toBe(403);
    const res = await post(`/api/corrections/${request.id}/accept`, faculty, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ state: 'accepted', markStatus: 'present', decidedBy: 'Test faculty' });

    const register = (await get(`/api/attendance/CSE2/${day}`, faculty)).json() as AttendanceRegister;
    expect(register.records.find((r) => r.pin === PIN)?.status).toBe('present');
    const history = (await get(`/api/attendance/CSE2/${day}/history`, faculty)).json() as AttendanceChange[];
    expect(history[0]).toMatchObject({ reason: 'I was there; I sat at the back.' });
    expect(await findCounterDifferences(ctx.database.db)).toEqual([]);

    // Decided: it cannot be decided again, and it is closed for the student.
    expect((await post(`/api/corrections/${request.id}/decline`, faculty, { reply: 'Too late' })).statusCode).toBe(409);
    expect((await get('/api/corrections', student)).json()).toEqual([]);
    const closed = (await get('/api/corrections?status=closed', student)).json() as Correction[];
    expect(closed.map((c) => [c.id, c.state])).toEqual([[request.id, 'accepted']]);
  });

  it('declining keeps the mark and gives the student the reply', async () => {
    const asked = (await post('/api/corrections', other, { date: day, reason: 'I was ill' })).json() as Correction;
    expect((await post(`/api/corrections/${asked.id}/decline`, faculty, { reply: '' })).statusCode).toBe(400);
    const res = await post(`/api/corrections/${asked.id}/decline`, faculty, { reply: 'Bring the doctor\'s note to the office.' });
    expect(res.statusCode).toBe(200);
    const mine = (await get('/api/corrections?status=closed', other)).json() as Correction[];
    expect(mine).toEqual([expect.objectContaining({ id: asked.id, state: 'declined', reply: 'Bring the doctor\'s note to the office.', markStatus: 'present' })]);
    expect((await post(`/api/corrections/${asked.id}/accept`, faculty, {})).statusCode).toBe(409);
    expect((await post('/api/corrections/00000000-0000-4000-8000-000000000000/accept', faculty, {})).statusCode).toBe(404);
  });
});
