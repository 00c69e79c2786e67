import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKUP_FORMAT, BackupFileError, checkBackup, holdsPortalData, migrationsUpTo, restoreBackup, writeBackup } from './backup';
import { MIGRATIONS_DIR, migrateDatabase, openDatabase } from './client';
import { seedDemo } from '../seed/demo';
import { addAwkwardRows, everyRow } from '../test/backup-data';
import { createTestDatabase, type TestDatabase } from '../test/test-db';

const journal = JSON.parse(await readFile(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
const newest = journal.entries.at(-1)!;

let folder: string;
let source: TestDatabase;
let file: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'portal-backup-test-'));
  source = await createTestDatabase();
  await seedDemo(source.db, 'UTC');
  await addAwkwardRows(source);
  file = path.join(folder, 'demo.gz');
  await writeBackup(source, file);
}, 240_000);

afterAll(async () => {
  await source?.destroy();
  await rm(folder, { recursive: true, force: true });
});

/** The backup's header and content, decompressed. */
async function unpack(name: string): Promise<{ header: string; content: string }> {
  const text = gunzipSync(await readFile(name)).toString('utf8');
  const end = text.indexOf('\n');
  return { header: text.slice(0, end), content: text.slice(end + 1) };
}

describe('a backup file', { timeout: 240_000 }, () => {
  it('names its format, the last migration, the time, every table with its row count and the digest of its content', async () => {
    const { header } = await unpack(file);
    const parsed = JSON.parse(header) as { format: string; version: number; migration: { tag: string }; createdAt: string; tables: { name: string; rows: number }[]; sha256: string };
    expect(parsed.format).toBe(BACKUP_FORMAT);
    expect(parsed.version).toBe(1);
    expect(parsed.migration.tag).toBe(newest.tag);
    expect(Date.now() - Date.parse(parsed.createdAt)).toBeLessThan(10 * 60_000);
    const rows = await everyRow(source);
    // Every table of the schema, each with its count.
    expect(Object.fromEntries(parsed.tables.map((t) => [t.name, t.rows]))).toEqual(
      Object.fromEntries(Object.entries(rows).filter(([name]) => name !== '(sequences)').map(([name, list]) => [name, list.length])),
    );
    expect(parsed.tables.find((t) => t.name === 'attendance_marks')!.rows).toBeGreaterThan(1000);
    await expect(checkBackup(file)).resolves.toMatchObject({ sha256: parsed.sha256 });
  });

  it('loads into an empty database and gives back every row and sequence unchanged', async () => {
    const target = await createTestDatabase();
    try {
      const summary = await restoreBackup(target, file);
      expect(summary.migrated).toEqual([]);
      expect(await everyRow(target)).toEqual(await everyRow(source));
      // The sequences carry on where they were: a new row takes the next id, not one in use.
      const next = await target.db.execute(`select nextval('audit_log_id_seq')::int as id, (select max(id) from audit_log)::int as max`);
      const row = (next as unknown as { rows: { id: number; max: number }[] }).rows[0]!;
      expect(row.id).toBeGreaterThan(row.max);
    } finally {
      await target.destroy();
    }
  });

  it('refuses a damaged, a cut-short or a foreign file with a clear message, and loads nothing', async () => {
    const { header, content } = await unpack(file);
    const damaged = path.join(folder, 'damaged.gz');
    await writeFile(damaged, Buffer.concat([gzipSync(`${header}\n`), gzipSync(content.replace('"CSE1"', '"CSE9"'))]));
    const cut = path.join(folder, 'cut.gz');
    const bytes = await readFile(file);
    await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const rowLess = path.join(folder, 'row-less.gz');
    const lines = content.split('\n');
    const dropped = lines.findIndex((l) => l.startsWith('{') && l.includes('"pin"'));
    await writeFile(rowLess, Buffer.concat([gzipSync(`${header}\n`), gzipSync(lines.filter((_, i) => i !== dropped).join('\n'))]));
    const foreign = path.join(folder, 'foreign.gz');
    await writeFile(foreign, 'pin,name,class\n');

    const target = await createTestDatabase();
    try {
      const before = await everyRow(target);
      await expect(restoreBackup(target, damaged)).rejects.toThrow(/damaged: its content does not match the SHA-256 in its header; nothing was loaded/);
      await expect(restoreBackup(target, cut)).rejects.toThrow(/is cut short/);
      await expect(restoreBackup(target, rowLess)).rejects.toThrow(BackupFileError);
      await expect(restoreBackup(target, foreign)).rejects.toThrow(/is not a portal backup \(it is not gzip-compressed\)/);
      await expect(restoreBackup(target, path.join(folder, 'missing.gz'))).rejects.toThrow(/no such file/);
      expect(await everyRow(target)).toEqual(before);
      expect(await holdsPortalData(target.db)).toBe(false);
    } finally {
      await target.destroy();
    }
  });

  it('from an older version of the portal: loads into its schema, then applies the migrations that came after it', async () => {
    const older = journal.entries.at(-2)!;
    const partial = await migrationsUpTo(older.when, MIGRATIONS_DIR);
    const old = await openDatabase({ migrate: false });
    const oldFile = path.join(folder, 'older.gz');
    try {
      await migrateDatabase(old, partial);
      // In the older schema's own words: the schema module describes the newest.
      await old.db.execute(`insert into students (pin, name, class_name) values ('OLD-1', 'From before', 'CSE2')`);
      await old.db.execute(`insert into users (email, name, role) values ('old@uni.edu', 'Old', 'faculty')`);
      const { header } = await writeBackup(old, oldFile);
      expect(header.migration?.tag).toBe(older.tag);
    } finally {
      await old.close();
      await rm(partial, { recursive: true, force: true });
    }
    const target = await createTestDatabase();
    try {
      const { migrated } = await restoreBackup(target, oldFile);
      expect(migrated).toEqual([newest.tag]);
      const rows = await everyRow(target);
      expect(rows.students).toEqual([expect.stringContaining('"OLD-1"')]);
      expect(rows.users).toEqual([expect.stringContaining('"old@uni.edu"')]);
    } finally {
      await target.destroy();
    }
  });

  it('counts a database as holding data by any row of its users, not by the rows a new one has', async () => {
    const target = await createTestDatabase();
    try {
      // The classes the migrations write, and what a server keeps for itself.
      expect(await holdsPortalData(target.db)).toBe(false);
      await target.db.execute(`insert into contact_messages (name, email, subject, message) values ('A', 'a@uni.edu', 'S', 'M')`);
      expect(await holdsPortalData(target.db)).toBe(true);
    } finally {
      await target.destroy();
    }
  });

  it('is streamed: gunzip reads it as one text whose first line is the header', async () => {
    let text = '';
    const sink = createWriteStream(path.join(folder, 'plain.txt'));
    await pipeline(createReadStream(file), createGunzip(), sink);
    text = await readFile(path.join(folder, 'plain.txt'), 'utf8');
    expect(text.split('\n')[0]).toContain(BACKUP_FORMAT);
    expect(text).toContain('T\tattendance_marks\n');
  });
});
