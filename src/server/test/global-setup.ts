import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../db/client';
import { withDatabase } from './postgres';

let created: { url: string; name: string } | undefined;

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
 * On PostgreSQL (TEST_DATABASE_URL set), migrate one template database for this run; every test
 * file then gets a fresh copy of it. On PGlite each test file migrates its own in-memory database.
 */
export async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const name = `portal_tmpl_${randomBytes(5).toString('hex')}`;
  await admin(url, (client) => client.query(`create database ${name}`));
  created = { url, name };
  process.env.PORTAL_TEST_TEMPLATE = name;
  const database = await openDatabase({ databaseUrl: withDatabase(url, name) });
  await database.close();
}

export async function teardown(): Promise<void> {
  if (!created) return;
  const { url, name } = created;
  await admin(url, (client) => client.query(`drop database if exists ${name} with (force)`));
}
