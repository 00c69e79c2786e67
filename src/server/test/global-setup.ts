import pg from 'pg';
import { openDatabase } from '../db/client';
import { TEMPLATE_DB, withDatabase } from './postgres';

/**
 * On PostgreSQL (TEST_DATABASE_URL set), migrate one template database once; every test file then
 * gets a fresh copy of it. On PGlite each test file migrates its own in-memory database.
 */
export async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${TEMPLATE_DB} with (force)`);
    await admin.query(`create database ${TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  const database = await openDatabase({ databaseUrl: withDatabase(url, TEMPLATE_DB) });
  await database.close();
}
