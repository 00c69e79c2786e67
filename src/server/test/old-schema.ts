import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { MIGRATIONS_DIR, migrateDatabase, openDatabase, type Database } from '../db/client';
import { withDatabase } from './postgres';

/**
 * A copy of the migrations folder that ends at `lastTag` (a journal entry's tag): for tests that
 * build a database as an older portal left it, then run the newer migrations on it. The caller
 * removes the folder.
 */
export function migrationsUpTo(lastTag: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'portal-old-migrations-'));
  cpSync(MIGRATIONS_DIR, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { idx: number; tag: string }[] };
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  if (last < 0) throw new Error(`no migration tagged ${lastTag}`);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

/**
 * An empty database (PGlite, or a new database on TEST_DATABASE_URL) brought to the schema of
 * `migrationsFolder`. Its cleanups (close, and drop on PostgreSQL) are added to `cleanups` in the
 * order they must run.
 */
export async function oldSchemaDatabase(migrationsFolder: string, cleanups: (() => Promise<void>)[]): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  let database: Database;
  if (serverUrl) {
    const name = `portal_old_${randomBytes(5).toString('hex')}`;
    const admin = async (statement: string) => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(statement).finally(() => client.end());
    };
    await admin(`create database ${name}`);
    database = await openDatabase({ databaseUrl: withDatabase(serverUrl, name), migrate: false });
    cleanups.push(() => admin(`drop database if exists ${name} with (force)`));
  } else {
    database = await openDatabase({ migrate: false });
  }
  cleanups.unshift(() => database.close());
  await migrateDatabase(database, migrationsFolder);
  return database;
}

/**
 * A test file's way to old databases: the migrations up to `lastTag` made before its tests and
 * removed after them; each call of the function returned gives an empty database at that schema,
 * closed (and dropped) after its test.
 */
export function oldSchemaDatabases(lastTag: string): () => Promise<Database> {
  let folder: string | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(() => {
    folder = migrationsUpTo(lastTag);
  });
  afterAll(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  return () => oldSchemaDatabase(folder!, cleanups);
}
