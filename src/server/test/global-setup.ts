import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { MIGRATIONS_DIR, openDatabase } from '../db/client';
import { PGLITE_TEMPLATE_ENV, withDatabase } from './postgres';

let created: { url: string; name: string } | undefined;
let templateFolder: string | undefined;

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Migrates one template database for this run, which every test file then copies instead of
 * making and migrating its own: on PostgreSQL (TEST_DATABASE_URL set) a template database, on the
 * embedded database a data folder (making one runs PostgreSQL's initdb and every migration, some
 * four times the cost of copying it and opening the copy).
 */
export async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    templateFolder = await mkdtemp(path.join(tmpdir(), 'portal-test-template-'));
    const dataDir = path.join(templateFolder, 'db');
    // PGlite itself, in this process: the server's way (a child process that runs this project's
    // TypeScript) needs import.meta.resolve, which the test runner's set-up cannot give.
    const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('drizzle-orm/pglite'),
      import('drizzle-orm/pglite/migrator'),
    ]);
    const database = new PGlite(dataDir);
    try {
      await migrate(drizzle(database), { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await database.close();
    }
    process.env[PGLITE_TEMPLATE_ENV] = dataDir;
    return;
  }
  const name = `portal_tmpl_${randomBytes(5).toString('hex')}`;
  await admin(url, (client) => client.query(`create database ${name}`));
  created = { url, name };
  process.env.PORTAL_TEST_TEMPLATE = name;
  const database = await openDatabase({ databaseUrl: withDatabase(url, name) });
  await database.close();
}

export async function teardown(): Promise<void> {
  if (templateFolder) await rm(templateFolder, { recursive: true, force: true });
  if (!created) return;
  const { url, name } = created;
  await admin(url, (client) => client.query(`drop database if exists ${name} with (force)`));
}
