import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseErrorCode } from '../plugins/errors';
import { onPostgres } from '../test/postgres';
import { createPostgresCopy, createTestDatabase } from '../test/test-db';
import { openDatabase, queryRows, type Database, type PoolUse } from './client';

/** Waits until the database's use is as wanted; fails with the last one seen. */
async function until(database: Database, wanted: (use: PoolUse) => boolean): Promise<PoolUse> {
  let use = database.poolUse();
  for (let tries = 0; !wanted(use); tries += 1) {
    if (tries > 500) throw new Error(`the pool never got there: ${JSON.stringify(use)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
    use = database.poolUse();
  }
  return use;
}

/** A query that takes `seconds`, sent at once (Drizzle's queries wait to be awaited). */
const sleep = (database: Database, seconds: number) => Promise.resolve(database.db.execute(sql`select pg_sleep(${seconds})`));

describe.runIf(onPostgres)('PostgreSQL limits (PORTAL_DB_POOL, PORTAL_STATEMENT_TIMEOUT_MS)', () => {
  it('opens at most PORTAL_DB_POOL connections; further queries wait, and are counted', async () => {
    const copy = await createPostgresCopy(process.env.TEST_DATABASE_URL!);
    const database = await openDatabase({ databaseUrl: copy.url, poolSize: 2 });
    try {
      const queries = [sleep(database, 1.5), sleep(database, 1.5), sleep(database, 1.5)];
      expect(await until(database, (use) => use.inUse === 2 && use.waiting === 1)).toEqual({ size: 2, inUse: 2, waiting: 1 });
      await Promise.all(queries);
      expect(database.poolUse()).toMatchObject({ inUse: 0, waiting: 0 });
    } finally {
      await database.close();
      await copy.drop();
    }
  });

  it('cancels a statement that runs past the timeout, and leaves the others alone', async () => {
    const copy = await createPostgresCopy(process.env.TEST_DATABASE_URL!);
    const database = await openDatabase({ databaseUrl: copy.url, statementTimeoutMs: 200 });
    try {
      const error = await sleep(database, 2).then(() => undefined, (err: unknown) => err);
      expect(databaseErrorCode(error)).toBe('57014');
      await expect(sleep(database, 0.01)).resolves.toBeDefined();
      const [row] = await queryRows<{ statement_timeout: string }>(database.db, 'show statement_timeout');
      expect(row?.statement_timeout).toBe('200ms');
    } finally {
      await database.close();
      await copy.drop();
    }
  });
});

describe.skipIf(onPostgres)("the embedded database's one session", () => {
  it('is in use while a query runs, and counts the queries queued behind it', async () => {
    const database = await createTestDatabase();
    try {
      expect(database.poolUse()).toEqual({ size: 1, inUse: 0, waiting: 0 });
      // Long enough that a busy machine still sees the first running and the others queued.
      const queries = [sleep(database, 1.5), sleep(database, 1.5), sleep(database, 1.5)];
      expect(await until(database, (use) => use.inUse === 1 && use.waiting === 2)).toEqual({ size: 1, inUse: 1, waiting: 2 });
      await Promise.all(queries);
      expect(database.poolUse()).toEqual({ size: 1, inUse: 0, waiting: 0 });
    } finally {
      await database.destroy();
    }
  });
});
