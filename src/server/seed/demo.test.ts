import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/test-app';
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

    const [row] = await ctx.database.db
      .select({
        mismatched: sql<number>`(select count(*)::int from attendance_sessions s
          where s.present_count <> (select count(*) from attendance_marks m where m.session_id = s.id and m.present)
             or s.absent_count <> (select count(*) from attendance_marks m where m.session_id = s.id and not m.present))`,
        pins: sql<number>`(select count(distinct pin)::int from students)`,
      })
      .from(sql`(select 1) as one`);
    expect(row).toEqual({ mismatched: 0, pins: 8 * STUDENTS_PER_CLASS });

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
