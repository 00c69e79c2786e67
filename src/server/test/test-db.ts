import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../db/client';
import { templateDatabase, withDatabase } from './postgres';

export interface TestDatabase extends Database {
  /** Closes the database and removes it. */
  destroy(): Promise<void>;
}

async function asAdmin(url: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/**
 * A new PostgreSQL database copied from the run's migrated template, for tests that open it more
 * than once (several server processes on one database). `drop` removes it.
 */
export async function createPostgresCopy(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  await asAdmin(serverUrl, `create database ${name} template ${templateDatabase()}`);
  return {
    url: withDatabase(serverUrl, name),
    drop: () => asAdmin(serverUrl, `drop database if exists ${name} with (force)`),
  };
}

/** A fresh, migrated database: in-memory PGlite, or a copy of the migrated template on PostgreSQL. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await openDatabase({});
    return { ...database, destroy: () => database.close() };
  }
  const copy = await createPostgresCopy(serverUrl);
  const database = await openDatabase({ databaseUrl: copy.url });
  return {
    ...database,
    async destroy() {
      await database.close();
      await copy.drop();
    },
  };
}
