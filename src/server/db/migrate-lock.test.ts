import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBackup, migrationsUpTo } from './backup';
import { MIGRATIONS_DIR, migrateDatabase, openDatabase, queryRows } from './client';
import { onPostgres, withDatabase } from '../test/postgres';

const journal = JSON.parse(await readFile(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
const older = journal.entries.at(-2)!;
const tsx = path.resolve('node_modules/.bin/tsx');

let folder: string;
let partial: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'portal-upgrade-test-'));
  // The migrations of the version before this one.
  partial = await migrationsUpTo(older.when, MIGRATIONS_DIR);
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
  await rm(partial, { recursive: true, force: true });
});

/** Runs the portal's way of opening a database in a process of its own. */
function openInChild(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, ['src/server/test/open-database.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, out }));
  });
}

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

describe('upgrades', { timeout: 240_000 }, () => {
  it.skipIf(onPostgres)('on the embedded database, a backup is written into <data folder>/backups before migrating one that holds data', async () => {
    const dataDir = path.join(folder, 'data');
    const old = await openDatabase({ dataDir, migrate: false });
    try {
      await migrateDatabase(old, partial);
      await old.db.execute(`insert into students (pin, name, class_name) values ('UP-1', 'Before the upgrade', 'CSE1')`);
    } finally {
      await old.close();
    }
    const upgraded = await openDatabase({ dataDir });
    await upgraded.close();
    const written = await readdir(path.join(dataDir, 'backups'));
    expect(written).toEqual([expect.stringMatching(/^portal-backup-\d{8}T\d{6}Z-before-upgrade\.gz$/)]);
    const header = await checkBackup(path.join(dataDir, 'backups', written[0]!));
    expect(header.migration?.tag).toBe(older.tag);
    expect(header.tables.find((t) => t.name === 'students')?.rows).toBe(1);
    // Up to date now: the next start writes none.
    await (await openDatabase({ dataDir })).close();
    expect(await readdir(path.join(dataDir, 'backups'))).toHaveLength(1);
  });

  describe.skipIf(!onPostgres)('on PostgreSQL', () => {
    const server = process.env.TEST_DATABASE_URL ?? '';
    const created: string[] = [];
    afterAll(async () => {
      for (const name of created) await admin(server, `drop database if exists ${name} with (force)`);
    });
    async function newDatabase(): Promise<string> {
      const name = `portal_upgrade_${randomBytes(5).toString('hex')}`;
      await admin(server, `create database ${name}`);
      created.push(name);
      return withDatabase(server, name);
    }

    it('three processes started at once on a new database all open it, and the migrations run once', async () => {
      const url = await newDatabase();
      const results = await Promise.all([1, 2, 3].map(() => openInChild({ DATABASE_URL: url, PORTAL_BACKUP_DIR: '' })));
      for (const { code, out } of results) {
        expect(out).toContain('opened');
        expect(code).toBe(0);
      }
      const database = await openDatabase({ databaseUrl: url, migrate: false });
      try {
        const rows = await queryRows<{ applied: number; distinct: number }>(
          database.db,
          'select count(*)::int as applied, count(distinct created_at)::int as distinct from drizzle.__drizzle_migrations',
        );
        expect(rows[0]).toEqual({ applied: journal.entries.length, distinct: journal.entries.length });
        // The first migration's rows, written once: eight classes, not sixteen or twenty-four.
        expect(await queryRows(database.db, 'select count(*)::int as classes from classes')).toEqual([{ classes: 8 }]);
      } finally {
        await database.close();
      }
    });

    it('with PORTAL_BACKUP_DIR, a backup is written before migrating a database that holds data', async () => {
      const url = await newDatabase();
      const old = await openDatabase({ databaseUrl: url, migrate: false });
      try {
        await migrateDatabase(old, partial);
        await old.db.execute(`insert into students (pin, name, class_name) values ('UP-2', 'Before the upgrade', 'CSE1')`);
      } finally {
        await old.close();
      }
      const dir = path.join(folder, 'pg-backups');
      const upgraded = await openDatabase({ databaseUrl: url, backupDir: dir });
      await upgraded.close();
      const written = await readdir(dir);
      expect(written).toEqual([expect.stringMatching(/-before-upgrade\.gz$/)]);
      expect((await checkBackup(path.join(dir, written[0]!))).migration?.tag).toBe(older.tag);
    });
  });
});
