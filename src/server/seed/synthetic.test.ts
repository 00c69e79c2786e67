import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { findCounterDifferences } from '../modules/counters/service';
import { createTestContext, type TestContext } from '../test/test-app';
import { NOT_EMPTY_MESSAGE, seedSynthetic, TERM_DAYS } from './synthetic';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
}, 60_000);
afterAll(async () => ctx.close());

describe('portal demo-data --marks N', { timeout: 120_000 }, () => {
  it('fills an empty database with about N marks, its counters right and rates spread around 75%', async () => {
    const summary = await seedSynthetic(ctx.database.db, { marks: 3_000, classes: 3, students: 20, periods: 0, timeZone: 'UTC' });
    // 60 students, a whole-day register a day: 50 week days of registers.
    expect(summary).toMatchObject({ classes: 3, students: 60, periods: 0, days: 50, marks: 3_000 });
    expect(await findCounterDifferences(ctx.database.db)).toEqual([]);

    const [counts] = await queryRows<{ registers: number; marks: number; weekend: number; statuses: number }>(
      ctx.database.db,
      sql`select (select count(*)::int from attendance_sessions) as registers,
                 (select count(*)::int from attendance_marks) as marks,
                 (select count(*)::int from attendance_sessions where extract(isodow from date) > 5) as weekend,
                 (select count(distinct status)::int from attendance_marks) as statuses`,
    );
    expect(counts).toEqual({ registers: 150, marks: 3_000, weekend: 0, statuses: 4 });
    // Analyzed as written: the planner knows the marks are there.
    const [marksTable] = await queryRows<{ rows: number }>(ctx.database.db, sql`select reltuples::int as rows from pg_class where relname = 'attendance_marks'`);
    expect(marksTable!.rows).toBe(3_000);

    // Each student attends at their own rate: some fall below 75%, some stay above.
    const all = (await ctx.app.inject({ method: 'GET', url: '/api/reports/students?term=all', headers: { cookie: await ctx.signIn('faculty') } })).json() as {
      percentage: number;
    }[];
    expect(all).toHaveLength(60);
    expect(all.some((s) => s.percentage < 75)).toBe(true);
    expect(all.some((s) => s.percentage >= 75)).toBe(true);
  });

  it('by default fills a term: lectures with their timetabled subjects, as many classes as the marks need', async () => {
    const fresh = await createTestContext();
    try {
      const { db } = fresh.database;
      // 4 lectures a day of 10 students: 40 marks a class a day, 3,600 in a 90-day term, so two classes.
      const summary = await seedSynthetic(db, { marks: 7_200, students: 10, periods: 4, timeZone: 'UTC' });
      expect(summary).toMatchObject({ classes: 2, students: 20, periods: 4, days: TERM_DAYS, marks: 7_200 });
      expect(await findCounterDifferences(db)).toEqual([]);
      const [counts] = await queryRows<{ registers: number; periods: number; off: number; outside: number; subjects: number }>(
        db,
        sql`select (select count(*)::int from attendance_sessions) as registers,
                   (select count(distinct period)::int from attendance_sessions) as periods,
                   (select count(*)::int from attendance_sessions s where not exists (select 1 from timetable_slots t
                      where t.class_name = s.class_name and t.weekday = extract(isodow from s.date) and t.period = s.period
                        and t.subject_code = s.subject_code)) as off,
                   (select count(*)::int from attendance_sessions where term_id is null) as outside,
                   (select count(distinct subject_code)::int from student_counters) as subjects`,
      );
      // Every register has the subject of its class's timetable that weekday, and lies in the term.
      expect(counts).toEqual({ registers: 2 * 4 * TERM_DAYS, periods: 4, off: 0, outside: 0, subjects: 4 });
    } finally {
      await fresh.close();
    }
  });

  it('refuses a database that already has accounts or a roster', async () => {
    await expect(seedSynthetic(ctx.database.db, { marks: 100, timeZone: 'UTC' })).rejects.toThrow(NOT_EMPTY_MESSAGE);
  });
});
