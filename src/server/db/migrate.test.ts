import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { migrationsUpTo, oldSchemaDatabase } from '../test/old-schema';
import { migrateDatabase, queryRows } from './client';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

interface Journal {
  entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
}

/** A copy of every migration, to which a test adds one. */
function migrationsCopy(): string {
  const journal = JSON.parse(readFileSync(path.join('drizzle', 'meta', '_journal.json'), 'utf8')) as Journal;
  const folder = migrationsUpTo(journal.entries.at(-1)!.tag);
  cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

function addMigration(folder: string, tag: string, statement: string): void {
  const file = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(file, 'utf8')) as Journal;
  const last = journal.entries.at(-1)!;
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag });
  writeFileSync(file, JSON.stringify(journal));
  writeFileSync(path.join(folder, `${tag}.sql`), statement);
}

describe('bringing the schema up to date', { timeout: 60_000 }, () => {
  it('leaves a database that is up to date after one read, and applies a newer migration when there is one', async () => {
    const folder = migrationsCopy();
    const database = await oldSchemaDatabase(folder, cleanups);
    // Drizzle's migrator opens a transaction of its own whenever it runs, even with nothing to apply.
    const session = (database.db as unknown as { session: { transaction: (...args: unknown[]) => Promise<unknown> } }).session;
    const migratorRuns = vi.spyOn(session, 'transaction');

    await migrateDatabase(database, folder);
    expect(migratorRuns).not.toHaveBeenCalled();

    addMigration(folder, '9999_probe', 'create table migration_probe (id integer);');
    await migrateDatabase(database, folder);
    // On PostgreSQL one more: the transaction that holds the migrations' advisory lock.
    const runs = database.kind === 'postgres' ? 2 : 1;
    expect(migratorRuns).toHaveBeenCalledTimes(runs);
    expect(await queryRows(database.db, sql`select count(*)::int as tables from pg_tables where tablename = 'migration_probe'`)).toEqual([
      { tables: 1 },
    ]);

    await migrateDatabase(database, folder);
    expect(migratorRuns).toHaveBeenCalledTimes(runs);
  });
});
