/**
 * `portal backup` and `portal restore` (docs/decisions/0035-backups.md): the whole database into
 * one file, and that file into an empty database of either engine.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import type { Database } from '../db/client';
import { BackupFileError, backupFileName, holdsPortalData, restoreBackup, writeBackup, type BackupHeader } from '../db/backup';
import { UserInputError } from '../input-error';
import { findCounterDifferences } from '../modules/counters/service';

function parse(args: string[], usage: string, flags: Record<string, { type: 'string' | 'boolean' }>, positionals: number) {
  try {
    const parsed = parseArgs({ args, options: flags, strict: true, allowPositionals: positionals > 0 });
    if (parsed.positionals.length !== positionals) throw new UserInputError(`Usage: npm run portal -- ${usage}`);
    return parsed;
  } catch (err) {
    if (err instanceof UserInputError) throw err;
    throw new UserInputError(`${err instanceof Error ? err.message : String(err)}\nUsage: npm run portal -- ${usage}`);
  }
}

/** The folder a backup goes to when no file is named: PORTAL_BACKUP_DIR, the embedded default, else here. */
function backupFolder(): string {
  return loadConfig().backup.dir ?? process.cwd();
}

function rows(header: BackupHeader): number {
  return header.tables.reduce((sum, t) => sum + t.rows, 0);
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

async function backUp(database: Database, file: string): Promise<void> {
  const started = Date.now();
  const { header, bytes } = await writeBackup(database, file);
  console.log(
    `Wrote ${file}: ${rows(header)} rows in ${header.tables.length} tables (migration ${header.migration?.tag ?? 'none'}), ${megabytes(bytes)}, in ${seconds(started)}`,
  );
}

export const backupCommands: Record<string, (database: Database, args: string[]) => Promise<void>> = {
  async 'backup write'(database, args) {
    const { values } = parse(args, 'backup [--out FILE]', { out: { type: 'string' } }, 0);
    const out = typeof values.out === 'string' ? values.out : undefined;
    if (out === '') throw new UserInputError('--out needs a file name');
    await backUp(database, path.resolve(out ?? path.join(backupFolder(), backupFileName(new Date()))));
  },
  async 'backup restore'(database, args) {
    const { values, positionals } = parse(args, 'restore FILE [--replace]', { replace: { type: 'boolean' } }, 1);
    const file = path.resolve(positionals[0] as string);
    if (await holdsPortalData(database.db)) {
      if (!values.replace) {
        throw new UserInputError(
          'This database is not empty (it holds accounts, students or other records): restore loads a backup only into an empty database. ' +
            'Add --replace to back its data up first and then replace it.',
        );
      }
      console.log('The database holds data: backing it up before replacing it.');
      await backUp(database, path.join(backupFolder(), backupFileName(new Date(), 'before-restore')));
    }
    const started = Date.now();
    let summary: Awaited<ReturnType<typeof restoreBackup>>;
    try {
      summary = await restoreBackup(database, file);
    } catch (err) {
      if (err instanceof BackupFileError) throw new UserInputError(err.message);
      throw err;
    }
    const { header, migrated } = summary;
    console.log(
      `Restored ${file} (written ${header.createdAt} on ${header.engine === 'pglite' ? 'the embedded database' : 'PostgreSQL'}, ` +
        `migration ${header.migration?.tag ?? header.migration?.when}) in ${seconds(started)}: ${rows(header)} rows, digest and counts checked`,
    );
    for (const t of header.tables) console.log(`  ${t.name.padEnd(28)} ${String(t.rows).padStart(10)}`);
    console.log(migrated.length === 0 ? 'No migration came after the backup.' : `Applied the migrations that came after it: ${migrated.join(', ')}`);
    const differences = await findCounterDifferences(database.db);
    if (differences.length > 0) {
      for (const d of differences) console.log(`  ${d.kind} ${d.key}: ${d.stored} stored, ${d.recomputed} recomputed`);
      throw new UserInputError(
        `The restored database's counters disagree with its marks (${differences.length}${differences.length >= 100 ? ' or more' : ''}): run npm run portal -- counters rebuild`,
      );
    }
    console.log("Verified: counters agree with the marks. Start the portal on this database.");
  },
};
