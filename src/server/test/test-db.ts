import { randomBytes } from 'node:crypto';
import { cpSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../db/client';
import { PGLITE_TEMPLATE_ENV, templateDatabase, withDatabase } from './postgres';

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

/**
 * Puts a copy of the run's migrated embedded database into `dataDir` (an empty folder), for tests
 * that run the portal on a data folder as an operator would; without the set-up's copy, the folder
 * stays empty and the portal makes its database there itself.
 */
export function copyMigratedFolderInto(dataDir: string): void {
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (template) cpSync(template, dataDir, { recursive: true });
}

/** What a test may choose of the database it gets. */
export interface TestDatabaseOptions {
  preparedStatements?: boolean;
}

/**
 * A copy of the run's migrated embedded data folder (the global set-up's), opened; without one (a
 * test run without the set-up), a new database in memory. The copy is the caller's alone: closing
 * it removes it.
 */
async function createPgliteDatabase(options: TestDatabaseOptions): Promise<TestDatabase> {
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (!template) {
    const database = await openDatabase(options);
    return { ...database, destroy: () => database.close() };
  }
  const folder = await mkdtemp(path.join(tmpdir(), 'portal-test-'));
  const dataDir = path.join(folder, 'db');
  try {
    await cp(template, dataDir, { recursive: true });
    const database = await openDatabase({ ...options, dataDir });
    const close = async () => {
      try {
        await database.close();
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    };
    return { ...database, close, destroy: close };
  } catch (err) {
    await rm(folder, { recursive: true, force: true });
    throw err;
  }
}

/** A fresh, migrated database: a copy of the run's migrated template, on PGlite or PostgreSQL. */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return createPgliteDatabase(options);
  const copy = await createPostgresCopy(serverUrl);
  const database = await openDatabase({ ...options, databaseUrl: copy.url });
  return {
    ...database,
    async destroy() {
      await database.close();
      await copy.drop();
    },
  };
}
