import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/test-db';
import { queryRows } from './client';
import { analyzeWhereStale } from './statistics';

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

describe("the embedded database's statistics", () => {
  it.skipIf(onPostgres)('analyzes a table never analyzed, then again only once it has grown by more than a tenth', async () => {
    await addStudents(1, 2000);
    expect(await plannerRows()).toBe(-1);

    expect(await analyzeWhereStale(database)).toContain('students');
    expect(await plannerRows()).toBe(2000);
    // Nothing has changed since: nothing to do.
    expect(await analyzeWhereStale(database)).toEqual([]);

    await addStudents(2001, 50); // a few pages more: under a tenth
    expect(await analyzeWhereStale(database)).toEqual([]);
    await addStudents(2051, 400);
    expect(await analyzeWhereStale(database)).toEqual(['students']);
    expect(await plannerRows()).toBe(2450);
  });

  it.runIf(onPostgres)("leaves PostgreSQL's statistics to its autovacuum", async () => {
    await addStudents(1, 100);
    expect(await analyzeWhereStale(database)).toEqual([]);
  });
});
