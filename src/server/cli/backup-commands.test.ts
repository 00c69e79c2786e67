import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { holdsPortalData, writeBackup } from '../db/backup';
import { openDatabase } from '../db/client';
import { students } from '../db/schema';
import { addUser } from '../modules/accounts/service';
import { everyRow } from '../test/backup-data';
import { onPostgres, withDatabase } from '../test/postgres';
import { copyMigratedFolderInto, createTestDatabase } from '../test/test-db';

const folder = mkdtempSync(path.join(tmpdir(), 'portal-backup-cli-'));
const tsx = path.resolve('node_modules/.bin/tsx');
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function portal(args: string[], env: Record<string, string>) {
  const result = spawnSync(tsx, ['src/server/cli/portal.ts', ...args], {
    env: { ...process.env, DATABASE_URL: '', PORTAL_BACKUP_DIR: '', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe.skipIf(onPostgres)('portal backup and restore on the embedded database', { timeout: 300_000 }, () => {
  const source = path.join(folder, 'source');
  const target = path.join(folder, 'target');
  const file = path.join(folder, 'out', 'source.gz');

  it('backs up a stopped portal\'s folder, refuses one that is running, and restores into a new folder', async () => {
    copyMigratedFolderInto(source);
    const database = await openDatabase({ dataDir: source });
    try {
      await addUser(database.db, { email: 'cli-admin@uni.edu', name: 'Admin', role: 'admin', password: 'a-long-admin-password-1' });
      await database.db.insert(students).values({ pin: 'CLI-1', name: 'Asha', className: 'CSE1' });
      // The folder is in use: the command changes nothing and says so.
      const refused = portal(['backup', '--out', file], { PORTAL_DATA_DIR: source });
      expect(refused.code).toBe(1);
      expect(refused.err).toContain('The portal is running on this data folder');
    } finally {
      await database.close();
    }

    const written = portal(['backup', '--out', file], { PORTAL_DATA_DIR: source });
    expect(written.err).toBe('');
    expect(written.out).toMatch(/^Wrote .*source\.gz: \d+ rows in \d+ tables \(migration \d{4}_[\w-]+\), [\d.]+ MB, in [\d.]+ s$/m);
    // Without --out: into the data folder's backups.
    expect(portal(['backup'], { PORTAL_DATA_DIR: source }).code).toBe(0);
    expect(readdirSync(path.join(source, 'backups'))).toEqual([expect.stringMatching(/^portal-backup-\d{8}T\d{6}Z\.gz$/)]);

    const restored = portal(['restore', file], { PORTAL_DATA_DIR: target });
    expect(restored.err).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.out).toMatch(/Restored .*source\.gz \(written .* on the embedded database, migration \d{4}_[\w-]+\) in [\d.]+ s: \d+ rows, digest and counts checked/);
    expect(restored.out).toMatch(/students\s+1\n/);
    expect(restored.out).toContain('No migration came after the backup.');
    expect(restored.out).toContain('Verified: counters agree with the marks.');
    const original = await openDatabase({ dataDir: source });
    const sourceRows = await everyRow(original).finally(() => original.close());
    const copy = await openDatabase({ dataDir: target });
    expect(await everyRow(copy).finally(() => copy.close())).toEqual(sourceRows);
  });

  it('refuses a database that holds data unless --replace, which backs it up first', () => {
    const again = portal(['restore', file], { PORTAL_DATA_DIR: target });
    expect(again.code).toBe(1);
    expect(again.err).toContain('This database is not empty (it holds accounts, students or other records): restore loads a backup only into an empty database. Add --replace');
    const replaced = portal(['restore', file, '--replace'], { PORTAL_DATA_DIR: target });
    expect(replaced.code).toBe(0);
    expect(replaced.out).toContain('The database holds data: backing it up before replacing it.');
    expect(readdirSync(path.join(target, 'backups'))).toEqual([expect.stringMatching(/-before-restore\.gz$/)]);
    expect(replaced.out).toContain('Verified');
  });

  it('refuses a cut-short file and loads nothing; explains its usage', async () => {
    const cut = path.join(folder, 'cut.gz');
    const bytes = readFileSync(file);
    writeFileSync(cut, bytes.subarray(0, bytes.length - 20));
    const empty = path.join(folder, 'empty');
    const refused = portal(['restore', cut], { PORTAL_DATA_DIR: empty });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('is cut short');
    const database = await openDatabase({ dataDir: empty, migrate: false });
    expect(await holdsPortalData(database.db).finally(() => database.close())).toBe(false);

    const usage = portal(['restore'], { PORTAL_DATA_DIR: empty });
    expect(usage.code).toBe(1);
    expect(usage.err).toContain('Usage: npm run portal -- restore FILE [--replace]');
  });
});

describe.skipIf(!onPostgres)('portal backup and restore on PostgreSQL', { timeout: 300_000 }, () => {
  it('restores into a new database and backs up beside a running server', async () => {
    const server = process.env.TEST_DATABASE_URL!;
    const source = await createTestDatabase();
    const file = path.join(folder, 'pg-source.gz');
    const name = `portal_cli_${randomBytes(5).toString('hex')}`;
    const adminClient = new pg.Client({ connectionString: withDatabase(server, 'postgres') });
    await adminClient.connect();
    try {
      await addUser(source.db, { email: 'pg-admin@uni.edu', name: 'Admin', role: 'admin', password: 'a-long-admin-password-1' });
      await writeBackup(source, file);
      await adminClient.query(`create database ${name}`);
      const url = withDatabase(server, name);
      const restored = portal(['restore', file], { DATABASE_URL: url });
      expect(restored.err).toBe('');
      expect(restored.out).toContain('on PostgreSQL');
      expect(restored.out).toContain('Verified');
      // A server holds the database open meanwhile: PostgreSQL needs no stop.
      const running = await openDatabase({ databaseUrl: url });
      try {
        const again = portal(['backup', '--out', path.join(folder, 'pg-copy.gz')], { DATABASE_URL: url });
        expect(again.code).toBe(0);
        expect(await everyRow(running)).toEqual(await everyRow(source));
      } finally {
        await running.close();
      }
    } finally {
      await source.destroy();
      await adminClient.query(`drop database if exists ${name} with (force)`);
      await adminClient.end();
    }
  });
});
