import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/test-db';
import type { Executor } from './client';
import { preparedOn, preparedStatement } from './prepared-queries';
import { terms } from './schema';

/** Queries built once per executor and shape: on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set. */
let database: TestDatabase;
let builds = 0;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database.destroy());

/** A term's name by its start date, prepared on `db` the first time `db` asks. */
async function termNamed(db: Executor, startsOn: string): Promise<string | undefined> {
  const query = preparedOn(db, 'test.termNamed', (on) => {
    builds += 1;
    return on.select({ name: terms.name }).from(terms).where(eq(terms.startsOn, sql.placeholder('startsOn'))).prepare('');
  });
  const [row] = await query.execute({ startsOn });
  return row?.name;
}

describe('preparedOn', () => {
  it('builds a query once per executor and answers for each value it is given', async () => {
    const { db } = database;
    await db.insert(terms).values([
      { name: 'Spring 1901', startsOn: '1901-01-01', endsOn: '1901-05-31' },
      { name: 'Autumn 1901', startsOn: '1901-08-01', endsOn: '1901-12-20' },
    ]);
    const before = builds;
    expect(await termNamed(db, '1901-01-01')).toBe('Spring 1901');
    expect(await termNamed(db, '1901-08-01')).toBe('Autumn 1901');
    expect(await termNamed(db, '1902-01-01')).toBeUndefined();
    expect(builds - before).toBe(1);
  });

  it("runs a transaction's query in that transaction: it sees the transaction's rows, and its end leaves the database's own query as it was", async () => {
    const { db } = database;
    expect(await termNamed(db, '1903-01-01')).toBeUndefined();
    const before = builds;
    await db.transaction(async (tx) => {
      await tx.insert(terms).values({ name: 'Spring 1903', startsOn: '1903-01-01', endsOn: '1903-05-31' });
      expect(await termNamed(tx, '1903-01-01')).toBe('Spring 1903');
      expect(await termNamed(tx, '1901-01-01')).toBe('Spring 1901');
    });
    // Its own query, built for it.
    expect(builds - before).toBe(1);
    expect(await termNamed(db, '1903-01-01')).toBe('Spring 1903');

    const rolledBack = new Error('rolled back on purpose');
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(terms).values({ name: 'Spring 1904', startsOn: '1904-01-01', endsOn: '1904-05-31' });
        expect(await termNamed(tx, '1904-01-01')).toBe('Spring 1904');
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await termNamed(db, '1904-01-01')).toBeUndefined();
    expect(builds - before).toBe(2);
  });
});

describe('preparedStatement', () => {
  /** How many terms start in a year, as a raw statement prepared on `db`. */
  async function termsStartingIn(db: Executor, year: string): Promise<number> {
    const statement = preparedStatement<{ n: number }>(db, 'test.termsStartingIn', () => {
      builds += 1;
      return sql`select count(*)::int as n from ${terms} where extract(year from ${terms.startsOn}) = ${sql.placeholder('year')}::int`;
    });
    const [row] = await statement.run({ year });
    return row?.n ?? -1;
  }

  it('runs a raw statement built once, with its values, in the transaction it was prepared for', async () => {
    const { db } = database;
    const before = builds;
    const first = await termsStartingIn(db, '1905');
    expect(first).toBe(0);
    expect(await termsStartingIn(db, '1901')).toBe(2);
    expect(builds - before).toBe(1);
    await db.transaction(async (tx) => {
      await tx.insert(terms).values({ name: 'Spring 1905', startsOn: '1905-01-01', endsOn: '1905-05-31' });
      expect(await termsStartingIn(tx, '1905')).toBe(1);
    });
    expect(await termsStartingIn(db, '1905')).toBe(1);
    expect(builds - before).toBe(2);
  });
});

describe('answers read in place', () => {
  it('reads floats, numerics and whole numbers of every size as PostgreSQL writes them', async () => {
    const result = await database.db.execute<Record<string, unknown>>(
      sql`select 120.8106::float8 as float8, 0.5::float4 as float4, -2.25::float8 as negative, 7::int2 as int2, -42::int4 as int4, 12.50::numeric as numeric`,
    );
    const [row] = (result as unknown as { rows: Record<string, unknown>[] }).rows;
    expect(row).toMatchObject({ float8: 120.8106, float4: 0.5, negative: -2.25, int2: 7, int4: -42 });
    expect(String(row!.numeric)).toBe('12.50');
  });
});
