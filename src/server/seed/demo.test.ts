import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/test-app';
import { findCounterDifferences } from '../modules/counters/service';
import { DEMO_FACULTY, DEMO_STUDENT, isEmptyDatabase, seedDemo, STUDENTS_PER_CLASS } from './demo';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

describe('demo data', () => {
  it('fills an empty database with a roster, two weeks of registers and two accounts that can sign in', async () => {
    expect(await isEmptyDatabase(ctx.database.db)).toBe(true);
    const summary = await seedDemo(ctx.database.db, 'UTC');
    expect(summary.students).toBe(8 * STUDENTS_PER_CLASS);
    // Two weeks of weekdays for eight classes.
    expect(summary.registers).toBe(8 * 10);
    expect(await isEmptyDatabase(ctx.database.db)).toBe(false);

    // Every register and student counter agrees with the marks.
    expect(await findCounterDifferences(ctx.database.db)).toEqual([]);
    const [row] = await ctx.database.db
      .select({ pins: sql<number>`(select count(distinct pin)::int from students)` })
      .from(sql`(select 1) as one`);
    expect(row).toEqual({ pins: 8 * STUDENTS_PER_CLASS });

    for (const [account, role] of [
      [DEMO_FACULTY, 'faculty'],
      [DEMO_STUDENT, 'student'],
    ] as const) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: account.email, password: account.password, role, remember: false },
      });
      expect(res.statusCode).toBe(200);
    }
  });
});
