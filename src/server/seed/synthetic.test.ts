import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { findCounterDifferences } from '../modules/counters/service';
import { createTestContext, type TestContext } from '../test/test-app';
import { NOT_EMPTY_MESSAGE, seedSynthetic } from './synthetic';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
}, 60_000);
afterAll(async () => ctx.close());

describe('portal demo-data --marks N', { timeout: 120_000 }, () => {
  it('fills an empty database with about N marks, its counters right and rates spread around 75%', async () => {
    const summary = await seedSynthetic(ctx.database.db, { marks: 3_000, classes: 3, students: 20, timeZone: 'UTC' });
    // 60 students: 50 week days of registers.
    expect(summary).toMatchObject({ classes: 3, students: 60, days: 50, marks: 3_000 });
    expect(await findCounterDifferences(ctx.database.db)).toEqual([]);

    const [counts] = await queryRows<{ registers: number; marks: number; weekend: number; statuses: number }>(
      ctx.database.db,
      sql`select (select count(*)::int from attendance_sessions) as registers,
                 (select count(*)::int from attendance_marks) as marks,
                 (select count(*)::int from attendance_sessions where extract(isodow from date) > 5) as weekend,
                 (select count(distinct status)::int from attendance_marks) as statuses`,
    );
    expect(counts).toEqual({ registers: 150, marks: 3_000, weekend: 0, statuses: 4 });

    // Each student attends at their own rate: some fall below 75%, some stay above.
    const all = (await ctx.app.inject({ method: 'GET', url: '/api/reports/students?term=all', headers: { cookie: await ctx.signIn('faculty') } })).json() as {
      percentage: number;
    }[];
    expect(all).toHaveLength(60);
    expect(all.some((s) => s.percentage < 75)).toBe(true);
    expect(all.some((s) => s.percentage >= 75)).toBe(true);
  });

  it('refuses a database that already has accounts or a roster', async () => {
    await expect(seedSynthetic(ctx.database.db, { marks: 100, timeZone: 'UTC' })).rejects.toThrow(NOT_EMPTY_MESSAGE);
  });
});
