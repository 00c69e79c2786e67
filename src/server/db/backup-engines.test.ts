import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { restoreBackup, writeBackup, type BackupHeader } from './backup';
import { openDatabase, type Database } from './client';
import { findCounterDifferences } from '../modules/counters/service';
import { seedDemo } from '../seed/demo';
import { addAwkwardRows, everyRow } from '../test/backup-data';
import { PGLITE_TEMPLATE_ENV, withDatabase } from '../test/postgres';

// The round trip needs both engines: the embedded one always, a PostgreSQL server where the
// server tests find one (TEST_DATABASE_URL, else the local one `npm run test:postgres` uses).
const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function reachable(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres'), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const unreachable = await reachable(serverUrl);
const title = unreachable
  ? `a backup round trip PGlite -> PostgreSQL -> PGlite (skipped: no PostgreSQL reachable at ${new URL(serverUrl).host}: ${unreachable})`
  : 'a backup round trip PGlite -> PostgreSQL -> PGlite';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

/** A new embedded database: a copy of the run's migrated folder, or one in memory. */
async function embedded(migrate: boolean): Promise<Database> {
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (!template) return openDatabase({ migrate });
  const folder = await mkdtemp(path.join(tmpdir(), 'portal-roundtrip-'));
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  const dataDir = path.join(folder, 'db');
  await cp(template, dataDir, { recursive: true });
  return openDatabase({ dataDir, migrate });
}

async function newPostgresDatabase(): Promise<Database> {
  const name = `portal_roundtrip_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const dropper = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
    await dropper.connect();
    await dropper.query(`drop database if exists ${name} with (force)`);
    await dropper.end();
  });
  // A database never migrated: the restore makes the schema itself.
  return openDatabase({ databaseUrl: withDatabase(serverUrl, name), migrate: false });
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, Math.round(performance.now() - started)];
}

const rowCount = (header: BackupHeader) => header.tables.reduce((sum, t) => sum + t.rows, 0);

describe.skipIf(unreachable !== undefined)(title, { timeout: 300_000 }, () => {
  it('gives back every row of every table, and the counters still agree with the marks', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'portal-roundtrip-files-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));

    const source = await embedded(true);
    cleanups.push(() => source.close());
    await seedDemo(source.db, 'UTC');
    await addAwkwardRows(source);
    const original = await everyRow(source);

    const [first, backupPglite] = await timed(() => writeBackup(source, path.join(folder, 'from-pglite.gz')));
    const server = await newPostgresDatabase();
    cleanups.push(() => server.close());
    const [, restorePostgres] = await timed(() => restoreBackup(server, first.file));
    expect(await everyRow(server)).toEqual(original);

    const [second, backupPostgres] = await timed(() => writeBackup(server, path.join(folder, 'from-postgres.gz')));
    expect(second.header.engine).toBe('postgres');
    expect(second.header.tables).toEqual(first.header.tables);
    const back = await embedded(false);
    cleanups.push(() => back.close());
    const [, restorePglite] = await timed(() => restoreBackup(back, second.file));
    expect(await everyRow(back)).toEqual(original);
    expect(await findCounterDifferences(back.db)).toEqual([]);

    // For bench/RESULTS.md: this machine's timings of the round trip at demo size.
    console.log(
      `backup round trip, ${rowCount(first.header)} rows (${first.header.tables.find((t) => t.name === 'attendance_marks')?.rows} marks), ` +
        `${first.bytes} bytes: backup PGlite ${backupPglite} ms, restore into PostgreSQL ${restorePostgres} ms, ` +
        `backup PostgreSQL ${backupPostgres} ms, restore into PGlite ${restorePglite} ms`,
    );
  });
});
