import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_TERMS } from '../../../shared/schemas/terms';
import type { StudentDays } from '../../../shared/schemas/students';
import { createTestContext, type TestContext } from '../../test/test-app';
import { seedRegister } from '../../test/registers';

let ctx: TestContext;
let student: string;
let other: string;
let faculty: string;
const PIN = 'DAYS01';

beforeAll(async () => {
  ctx = await createTestContext();
  student = await ctx.signIn('student', { pin: PIN, className: 'CSE5' });
  other = await ctx.signIn('student', { pin: 'DAYS02', className: 'CSE5' });
  faculty = await ctx.signIn('faculty');
  const mark = (status: 'present' | 'absent' | 'late' | 'excused') => [{ pin: PIN, name: 'Days One', status }];
  await seedRegister(ctx.database, { className: 'CSE5', date: '2026-09-29', period: 1 }, mark('present'));
  await seedRegister(ctx.database, { className: 'CSE5', date: '2026-09-29', period: 2 }, mark('absent'));
  await seedRegister(ctx.database, { className: 'CSE5', date: '2026-09-30', period: 1 }, mark('excused'));
  await seedRegister(ctx.database, { className: 'CSE5', date: '2026-10-01', period: 1 }, mark('late'));
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

describe('GET /api/students/:pin/days', () => {
  it('counts each day\'s marks by status and each month\'s attended of held', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/students/${PIN}/days?term=${ALL_TERMS}`, headers: { cookie: student } });
    expect(res.statusCode).toBe(200);
    const body = res.json() as StudentDays;
    expect(body.days).toEqual([
      { date: '2026-09-29', present: 1, late: 0, absent: 1, excused: 0 },
      { date: '2026-09-30', present: 0, late: 0, absent: 0, excused: 1 },
      { date: '2026-10-01', present: 0, late: 1, absent: 0, excused: 0 },
    ]);
    // Excused is held by neither; late attends.
    expect(body.months).toEqual([
      { month: '2026-09', attended: 1, held: 2, percentage: 50 },
      { month: '2026-10', attended: 1, held: 1, percentage: 100 },
    ]);
  });

  it('is for faculty and the student only', async () => {
    const url = `/api/students/${PIN}/days?term=${ALL_TERMS}`;
    expect((await ctx.app.inject({ method: 'GET', url, headers: { cookie: faculty } })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url, headers: { cookie: other } })).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });
});
