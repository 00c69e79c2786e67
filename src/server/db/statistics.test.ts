import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/test-db';
import { queryRows } from './client';
import { tidyEmbeddedTables } from './statistics';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database.destroy());

/** Adds `count` students to CSE1, PINs from `first` on. */
async function addStudents(first: number, count: number): Promise<void> {
  await database.db.execute(
    `insert into students (pin, name, class_name)
       select '23A51A' || lpad(i::text, 5, '0'), 'Student ' || i, 'CSE1' from generate_series(${first}, ${first + count - 1}) i`,
  );
}

/** What the planner knows of the students table: its rows as of the last analysis (-1: never). */
async function plannerRows(): Promise<number> {
  const [row] = await queryRows<{ rows: number }>(database.db, `select reltuples::int as rows from pg_class where relname = 'students'`);
  return Number(row!.rows);
}

/** The students table's size on disk, in pages. */
async function pages(): Promise<number> {
  const [row] = await queryRows<{ pages: number }>(database.db, `select (pg_relation_size('students') / current_setting('block_size')::int)::int as pages`);
  return Number(row!.pages);
}

describe("the embedded database's upkeep", () => {
  it.skipIf(onPostgres)('analyzes a table never analyzed, then again only once it has grown by more than a tenth', async () => {
    await addStudents(1, 2000);
    expect(await plannerRows()).toBe(-1);

    expect((await tidyEmbeddedTables(database)).analyzed).toContain('students');
    expect(await plannerRows()).toBe(2000);
    // Nothing has changed since: nothing to do.
    expect(await tidyEmbeddedTables(database)).toEqual({ analyzed: [], vacuumed: [] });

    await addStudents(2001, 50); // a few pages more: under a tenth
    expect(await tidyEmbeddedTables(database)).toEqual({ analyzed: [], vacuumed: [] });
    await addStudents(2051, 400);
    expect(await tidyEmbeddedTables(database)).toEqual({ analyzed: ['students'], vacuumed: [] });
    expect(await plannerRows()).toBe(2450);
  });

  it.skipIf(onPostgres)('vacuums every table hourly: the space of deleted rows is used again', async () => {
    await database.db.execute(`delete from students where pin > '23A51A01000'`);
    const before = await pages();
    const upkeep = await tidyEmbeddedTables(database, { everyTable: true });
    expect(upkeep.vacuumed).toContain('students');
    expect(upkeep.analyzed).not.toContain('students');
    // As many students again as were deleted: in the freed space, not in new pages.
    await addStudents(5001, 1450);
    expect(await pages()).toBeLessThanOrEqual(before);
  });

  it.runIf(onPostgres)("leaves PostgreSQL's statistics and vacuum to its autovacuum", async () => {
    await addStudents(1, 100);
    expect(await tidyEmbeddedTables(database, { everyTable: true })).toEqual({ analyzed: [], vacuumed: [] });
  });
});
