import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../../db/client';
import { classes, classTermTotals, terms } from '../../db/schema';
import { createTestDatabase, type TestDatabase } from '../../test/test-db';
import { dashboardCounts } from './repository';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database.destroy());

/** More classes than a test needs elsewhere: enough for a plan that reads the totals once per class to show. */
const CLASSES = 300;
const NAMES = { marks: 'marks', classPrefix: 'marks:' };

interface PlanNode {
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Join Filter'?: number;
  Plans?: PlanNode[];
}

/** The rows a plan's nodes read and threw away, over all their loops. */
function rowsDiscarded(explained: unknown): number {
  const walk = (node: PlanNode): number =>
    ((node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Join Filter'] ?? 0)) * (node['Actual Loops'] ?? 1) +
    (node.Plans ?? []).reduce((sum, child) => sum + walk(child), 0);
  return (explained as { Plan: PlanNode }[]).reduce((sum, statement) => sum + walk(statement.Plan), 0);
}

describe("the dashboard's read of the classes saved since its table", () => {
  it('finds each saved class by its key, once, when every class was saved since the statistics were taken', async () => {
    const { db } = database;
    const [term] = await db.insert(terms).values({ name: 'A long term', startsOn: '2031-01-05', endsOn: '2031-05-29' }).returning({ id: terms.id });
    const names = Array.from({ length: CLASSES }, (_, index) => `PLAN${String(index).padStart(3, '0')}`);
    await db.insert(classes).values(names.map((name, index) => ({ name, position: 100 + index })));
    await db.insert(classTermTotals).values(names.map((className, index) => ({ termId: term!.id, className, registers: 1, present: index, late: 1, absent: 2 })));
    const versions = sql.join(
      ['marks', ...names.map((name) => `marks:${name}`)].map((name) => sql`(${name}, 10)`),
      sql`, `,
    );
    await db.execute(sql`insert into data_versions (name, version) values ${versions} on conflict (name) do update set version = excluded.version`);
    await db.execute(sql`analyze data_versions`);
    await db.execute(sql`analyze classes`);
    await db.execute(sql`analyze class_term_totals`);
    // Every class saved since `marks` was 10: versions above all the statistics have seen, so the
    // planner reckons the saved classes one or two.
    await db.execute(sql`update data_versions set version = 20 where name = 'marks' or starts_with(name, 'marks:PLAN')`);
    const input = { termId: term!.id, dates: ['2031-01-06', '2031-01-07'], names: NAMES, savedSince: 10 };

    // The very statement the dashboard sends, run under `explain analyze` instead (one row: the plan
    // as JSON).
    type Prepare = Executor['_']['session']['prepareQuery'];
    const prepareExplained = ((query, ...rest) =>
      db._.session.prepareQuery({ ...query, sql: `explain (analyze, costs off, timing off, summary off, format json) ${query.sql}` }, ...rest)) as Prepare;
    const explaining = { _: { session: { prepareQuery: prepareExplained } } } as unknown as Executor;
    const explained = (await dashboardCounts(explaining, input)) as unknown as Record<string, unknown>;
    const column = Object.values(explained)[0];
    const plan: unknown = typeof column === 'string' ? JSON.parse(column) : column;
    // A plan that reads the totals again for each saved class throws away some CLASSES² / 2 rows,
    // in a join or a scan's filter (each node's count is per loop).
    expect(rowsDiscarded(plan), JSON.stringify(plan)).toBeLessThanOrEqual(CLASSES);

    const counts = await dashboardCounts(db, input);
    expect(counts.marksVersion).toBe(20);
    expect([...counts.perClass].sort((a, b) => a.className.localeCompare(b.className))).toEqual(
      names.map((className, index) => ({ className, present: index + 1, absent: 2 })),
    );
  });
});
