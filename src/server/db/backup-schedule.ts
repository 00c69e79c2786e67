/**
 * Scheduled backups in a running portal (docs/decisions/0035-backups.md): every
 * PORTAL_BACKUP_INTERVAL_HOURS a backup into PORTAL_BACKUP_DIR, the newest PORTAL_BACKUP_KEEP kept.
 * On PostgreSQL several processes share the work: one takes an advisory lock and writes, and a
 * process that finds a recent enough backup in the folder writes none.
 */
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { BackupSettings } from '../config';
import { startPeriodicTask } from '../periodic-task';
import type { Database } from './client';
import { backupFileName, writeBackup, type BackupSummary } from './backup';

/** The advisory lock held while a scheduled backup is written on PostgreSQL. */
export const BACKUP_LOCK = [0x706f7274, 2] as const;

/** A scheduled backup's name: `portal-backup-20261128T165307Z.gz` (those before an upgrade or a restore are kept). */
const SCHEDULED = /^portal-backup-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\.gz$/;

let lastWritten: Date | undefined;

/**
 * When the newest scheduled backup this process knows of was written: by this process, or found in
 * the folder (written by another process, or before a restart). Undefined before the first.
 */
export function lastBackupAt(): Date | undefined {
  return lastWritten;
}

function noteBackup(at: Date | undefined): void {
  if (at && (!lastWritten || at > lastWritten)) lastWritten = at;
}

/** The scheduled backups in the folder, newest first, with when each was written. */
export async function scheduledBackups(dir: string): Promise<{ file: string; at: Date }[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return names
    .map((name) => ({ name, match: SCHEDULED.exec(name) }))
    .filter((x): x is { name: string; match: RegExpExecArray } => x.match !== null)
    .map(({ name, match }) => {
      const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
      return { file: path.join(dir, name), at: new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!)) };
    })
    .sort((a, b) => b.at.getTime() - a.at.getTime());
}

/** Keeps the newest `keep` scheduled backups of the folder and removes the rest; returns those removed. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const old = (await scheduledBackups(dir)).slice(keep).map((b) => b.file);
  for (const file of old) await rm(file, { force: true });
  return old;
}

export interface ScheduledBackupOptions {
  database: Database;
  settings: BackupSettings & { dir: string };
  now?: Date;
}

/** One scheduled backup, if one is due: `written`, `recent` (the folder has one young enough) or `busy` (another process is writing). */
export async function runScheduledBackup({ database, settings, now = new Date() }: ScheduledBackupOptions): Promise<
  { outcome: 'written'; summary: BackupSummary; removed: string[] } | { outcome: 'recent' | 'busy' }
> {
  const due = async () => {
    const newest = (await scheduledBackups(settings.dir))[0];
    noteBackup(newest?.at);
    // A little early still counts: timers drift, and a backup a minute early is no loss.
    return !newest || now.getTime() - newest.at.getTime() >= settings.intervalHours * 3600_000 - 60_000;
  };
  const write = async () => {
    const summary = await writeBackup(database, path.join(settings.dir, backupFileName(now)));
    noteBackup(new Date(Math.floor(now.getTime() / 1000) * 1000));
    return { outcome: 'written' as const, summary, removed: await pruneBackups(settings.dir, settings.keep) };
  };
  if (database.kind === 'pglite') return (await due()) ? write() : { outcome: 'recent' };
  // The lock is held by a transaction on a connection of its own; the backup reads through another.
  return database.db.transaction(async (tx) => {
    // The lock's transaction is idle while the backup is read through another connection.
    await tx.execute('set local idle_in_transaction_session_timeout = 0');
    const taken = (await tx.execute(`select pg_try_advisory_xact_lock(${BACKUP_LOCK[0]}, ${BACKUP_LOCK[1]}) as taken`)) as unknown as {
      rows: { taken: boolean }[];
    };
    if (!taken.rows[0]?.taken) return { outcome: 'busy' as const };
    return (await due()) ? write() : { outcome: 'recent' as const };
  });
}

interface Log {
  info(obj: object, message: string): void;
  warn(obj: object, message: string): void;
}

/** How often a running portal looks whether a backup is due. */
const CHECK_EVERY_MS = 10 * 60 * 1000;
/** The first look, a moment after the start (so that the first requests are not queued behind a backup). */
const FIRST_CHECK_MS = 60 * 1000;

/** Starts the timer of scheduled backups; `stop` ends it. `firstCheckMs` is for tests. */
export function scheduleBackups(
  database: Database,
  settings: BackupSettings,
  log: Log,
  { firstCheckMs = FIRST_CHECK_MS }: { firstCheckMs?: number } = {},
): { stop(): void } {
  const { dir } = settings;
  if (dir === undefined || settings.intervalHours === 0) return { stop: () => undefined };
  scheduledBackups(dir).then((found) => noteBackup(found[0]?.at), () => undefined);
  return startPeriodicTask(
    async () => {
      const result = await runScheduledBackup({ database, settings: { ...settings, dir } });
      if (result.outcome === 'written') {
        log.info({ file: result.summary.file, bytes: result.summary.bytes, removed: result.removed }, 'scheduled backup written');
      }
    },
    {
      firstMs: firstCheckMs,
      everyMs: Math.min(CHECK_EVERY_MS, settings.intervalHours * 3600_000),
      onError: (err) => log.warn({ err }, 'the scheduled backup failed'),
    },
  );
}
