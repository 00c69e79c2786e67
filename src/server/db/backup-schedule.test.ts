import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundJobs } from '../background-jobs';
import { loadConfig } from '../config';
import { InProcessJobRunner } from '../jobs/runner';
import { backupFileName } from './backup';
import { lastBackupAt, runScheduledBackup, scheduledBackups } from './backup-schedule';
import { openDatabase } from './client';
import { onPostgres } from '../test/postgres';
import { createPostgresCopy, createTestDatabase, type TestDatabase } from '../test/test-db';

let database: TestDatabase;
let folder: string;
const HOUR = 3600_000;

beforeAll(async () => {
  database = await createTestDatabase();
  folder = await mkdtemp(path.join(tmpdir(), 'portal-schedule-test-'));
});
afterAll(async () => {
  await database?.destroy();
  await rm(folder, { recursive: true, force: true });
});

describe('scheduled backups', { timeout: 120_000 }, () => {
  it('writes one when none is recent enough, and keeps only the newest', async () => {
    const dir = path.join(folder, 'one');
    const settings = { dir, intervalHours: 24, keep: 3 };
    // Older backups, and one written before an upgrade, which pruning leaves alone.
    const start = new Date('2026-05-01T02:00:00Z');
    for (let day = 1; day <= 4; day += 1) {
      await runScheduledBackup({ database, settings, now: new Date(start.getTime() + day * 24 * HOUR) });
    }
    await writeFile(path.join(dir, backupFileName(new Date('2026-04-01T00:00:00Z'), 'before-upgrade')), 'kept');
    expect((await scheduledBackups(dir)).map((b) => b.at.toISOString())).toEqual([
      '2026-05-05T02:00:00.000Z',
      '2026-05-04T02:00:00.000Z',
      '2026-05-03T02:00:00.000Z',
    ]);

    // Within the interval of the newest: nothing to do.
    const soon = await runScheduledBackup({ database, settings, now: new Date('2026-05-05T20:00:00Z') });
    expect(soon.outcome).toBe('recent');
    const due = await runScheduledBackup({ database, settings, now: new Date('2026-05-06T02:00:00Z') });
    expect(due.outcome).toBe('written');
    if (due.outcome === 'written') expect(due.removed.map((f) => path.basename(f))).toEqual(['portal-backup-20260503T020000Z.gz']);
    expect((await readdir(dir)).sort()).toEqual([
      'portal-backup-20260401T000000Z-before-upgrade.gz',
      'portal-backup-20260504T020000Z.gz',
      'portal-backup-20260505T020000Z.gz',
      'portal-backup-20260506T020000Z.gz',
    ]);
    expect(lastBackupAt()?.toISOString()).toBe('2026-05-06T02:00:00.000Z');
  });

  it("a running portal's job runner writes one at its first look when none is recent, and no second in the interval", async () => {
    const dir = path.join(folder, 'runner');
    const logged: string[] = [];
    const log = { info: (_: object, message: string) => logged.push(message), warn: (_: object, message: string) => logged.push(message) };
    const config = { ...loadConfig({ PORTAL_BACKUP_DIR: dir, PORTAL_BACKUP_INTERVAL_HOURS: '24', PORTAL_RETAIN_MESSAGES_DAYS: 'off' }), timeZone: 'Asia/Kolkata' };
    const jobs = backgroundJobs({ database, config });
    expect(jobs.schedules).toContainEqual({ task: 'backup', everyMinutes: 10 });
    let now = new Date('2026-06-01T03:04:00Z');
    const runner = new InProcessJobRunner({ database, timeZone: config.timeZone, ...jobs, clock: () => now, log });
    await runner.tick();
    expect(logged).toEqual(['scheduled backup written']);
    const written = await scheduledBackups(dir);
    expect(written.map((b) => b.at.toISOString())).toEqual(['2026-06-01T03:04:00.000Z']);
    expect(lastBackupAt()?.getTime()).toBe(written[0]!.at.getTime());
    // The same slot again, then the next ones within the interval: a look, no backup.
    await runner.tick();
    now = new Date('2026-06-01T09:15:00Z');
    await runner.tick();
    expect(await scheduledBackups(dir)).toHaveLength(1);
    // A day on, the look at 03:10 writes the next.
    now = new Date('2026-06-02T03:10:00Z');
    await runner.tick();
    expect((await scheduledBackups(dir)).map((b) => b.at.toISOString())).toEqual(['2026-06-02T03:10:00.000Z', '2026-06-01T03:04:00.000Z']);
    expect(logged).toEqual(['scheduled backup written', 'scheduled backup written']);
    await runner.stop();
  });

  it("on the embedded database's default, writes one nightly at 02:30 in the portal's zone, catching up a missed night at a start", async () => {
    const dir = path.join(folder, 'nightly');
    const logged: string[] = [];
    const log = { info: (_: object, message: string) => logged.push(message), warn: (_: object, message: string) => logged.push(message) };
    const config = { ...loadConfig({ PORTAL_BACKUP_DIR: dir, PORTAL_RETAIN_MESSAGES_DAYS: 'off' }), timeZone: 'Asia/Kolkata' };
    const jobs = backgroundJobs({ database, config });
    expect(jobs.schedules).toContainEqual({ task: 'backup', at: { hour: 2, minute: 30 } });
    // Started at 11:30 in Kolkata: that night's 02:30 (21:00 UTC the day before) was missed, so the
    // first look writes it; the rest of the day writes nothing.
    let now = new Date('2026-06-01T06:00:00Z');
    const runner = new InProcessJobRunner({ database, timeZone: config.timeZone, ...jobs, clock: () => now, log });
    await runner.tick();
    expect((await scheduledBackups(dir)).map((b) => b.at.toISOString())).toEqual(['2026-06-01T06:00:00.000Z']);
    for (const later of ['2026-06-01T09:00:00Z', '2026-06-01T20:59:00Z']) {
      now = new Date(later);
      await runner.tick();
    }
    expect(await scheduledBackups(dir)).toHaveLength(1);
    // The next 02:30 writes the next, though the first is only 15 hours old; once.
    now = new Date('2026-06-01T21:00:00Z');
    await runner.tick();
    now = new Date('2026-06-01T23:40:00Z');
    await runner.tick();
    expect((await scheduledBackups(dir)).map((b) => b.at.toISOString())).toEqual(['2026-06-01T21:00:00.000Z', '2026-06-01T06:00:00.000Z']);
    expect(logged).toEqual(['scheduled backup written', 'scheduled backup written']);
    await runner.stop();
  });

  it("at a time of day, a backup written since that night's time does for it", async () => {
    const dir = path.join(folder, 'since');
    const settings = { dir, intervalHours: 24, at: { hour: 2, minute: 30 }, keep: 14 };
    // Written by the interval at 22:00, after the night's 21:00 UTC (02:30 in Kolkata).
    await runScheduledBackup({ database, settings: { ...settings, at: undefined }, now: new Date('2026-07-01T22:00:00Z') });
    const slot = new Date('2026-07-01T21:00:00Z');
    expect((await runScheduledBackup({ database, settings, now: new Date('2026-07-02T04:00:00Z'), slot })).outcome).toBe('recent');
    expect(await scheduledBackups(dir)).toHaveLength(1);
    // The next night's is written.
    const next = await runScheduledBackup({ database, settings, now: new Date('2026-07-02T21:00:00Z'), slot: new Date('2026-07-02T21:00:00Z') });
    expect(next.outcome).toBe('written');
  });

  it.skipIf(!onPostgres)('on PostgreSQL, of several processes due at once only one writes the backup', async () => {
    const copy = await createPostgresCopy(process.env.TEST_DATABASE_URL!);
    const processes = await Promise.all([1, 2, 3].map(() => openDatabase({ databaseUrl: copy.url })));
    try {
      const dir = path.join(folder, 'shared');
      const settings = { dir, intervalHours: 24, keep: 14 };
      const now = new Date();
      const outcomes = await Promise.all(processes.map((p) => runScheduledBackup({ database: p, settings, now })));
      expect(outcomes.filter((o) => o.outcome === 'written')).toHaveLength(1);
      expect(await readdir(dir)).toHaveLength(1);
    } finally {
      for (const p of processes) await p.close();
      await copy.drop();
    }
  });
});
