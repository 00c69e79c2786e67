/**
 * Scheduled backups in a running portal (docs/decisions/0035-backups.md and 0057): a backup into
 * PORTAL_BACKUP_DIR once a day at PORTAL_BACKUP_AT (the embedded database's default, 02:30), or
 * every PORTAL_BACKUP_INTERVAL_HOURS; the newest PORTAL_BACKUP_KEEP kept. The job runner
 * (docs/decisions/0042-job-runner.md) runs the task `backup` at that time of day, or looks every
 * few minutes whether one is due. Each run is a slot of the task, claimed while the backup is
 * written, so that of several processes due at once only one writes it; by the interval, a process
 * that finds a recent enough backup in the folder writes none.
 */
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { BackupSettings } from '../config';
import { runSlotOnce } from '../jobs/slots';
import type { Database } from './client';
import { backupFileName, writeBackup, type BackupSummary } from './backup';

/** The job runner's task of scheduled backups. */
export const BACKUP_TASK = 'backup';

/** How often a running portal looks whether a backup is due, in minutes. */
export const BACKUP_CHECK_MINUTES = 10;

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
  /** The runner's slot this look is for (default: `now`). */
  slot?: Date;
}

/**
 * One scheduled backup, if one is due: `written`, `recent` (the folder has one young enough) or
 * `looked` (another process took this slot: it writes, or found one recent).
 */
export async function runScheduledBackup({ database, settings, now = new Date(), slot = now }: ScheduledBackupOptions): Promise<
  { outcome: 'written'; summary: BackupSummary; removed: string[] } | { outcome: 'recent' | 'looked' }
> {
  let result: { outcome: 'written'; summary: BackupSummary; removed: string[] } | { outcome: 'recent' } = { outcome: 'recent' };
  const claimed = await runSlotOnce(database, BACKUP_TASK, slot, async () => {
    const newest = (await scheduledBackups(settings.dir))[0];
    noteBackup(newest?.at);
    // By the interval, a little early still counts: looks drift, and a backup a minute early is no
    // loss. At a time of day, one written since the slot's time does for it (a backup written at a
    // start, catching up a missed night, does not put the next night's off).
    if (settings.at && newest && newest.at >= slot) return;
    if (!settings.at && newest && now.getTime() - newest.at.getTime() < settings.intervalHours * 3600_000 - 60_000) return;
    const summary = await writeBackup(database, path.join(settings.dir, backupFileName(now)));
    noteBackup(new Date(Math.floor(now.getTime() / 1000) * 1000));
    result = { outcome: 'written', summary, removed: await pruneBackups(settings.dir, settings.keep) };
  });
  return claimed ? result : { outcome: 'looked' };
}

/** Notes the newest scheduled backup of the folder (for the metrics), as a running portal starts. */
export async function noteScheduledBackups(dir: string): Promise<void> {
  noteBackup((await scheduledBackups(dir))[0]?.at);
}
