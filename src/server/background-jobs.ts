/**
 * The portal's background jobs (docs/decisions/0042-job-runner.md): every task the job runner may
 * run, by name, and the schedules that run them. main.ts hands both to the runner; routes queue a
 * task with `app.jobs.add(name, payload)`.
 *
 * A task is `(payload, { now, log }) => Promise<void>`. A scheduled one gets `{ slot }` (the ISO
 * time it is due, `slotOf(payload)`) and claims it with `claimSlot(tx, task, slot)` in the
 * transaction of its own writes, doing nothing when the claim says it ran already (work that is
 * not written through a transaction, a file, uses `runSlotOnce`). Times of day are the portal's
 * (PORTAL_TIMEZONE); a weekday counts 1 = Monday. To add one:
 *
 *   tasks['digest-daily'] = (payload, context) => sendDailyDigests(database, slotOf(payload), context);
 *   schedules.push({ task: 'digest-daily', at: { hour: 7, minute: 30 } });
 *   schedules.push({ task: 'register-missing', everyMinutes: 1 });
 */
import type { Config } from './config';
import type { Database } from './db/client';
import { BACKUP_CHECK_MINUTES, BACKUP_TASK, runScheduledBackup } from './db/backup-schedule';
import type { Schedule, Task } from './jobs/runner';
import { slotOf } from './jobs/slots';
import { RETENTION_AT, RETENTION_TASK, retentionApplies, runRetention } from './modules/personal-data/retention';
import {
  alertContextOf,
  checkMissingRegisters,
  EVALUATE_ALERTS_TASK,
  evaluateRegister,
  registerKeyOf,
  sendDigests,
} from './modules/alerts/service';

export interface BackgroundJobs {
  tasks: Record<string, Task>;
  schedules: Schedule[];
}

export function backgroundJobs({
  database,
  config,
}: {
  database: Database;
  config: Pick<Config, 'backup' | 'retention' | 'alertThreshold' | 'timeZone' | 'publicUrl' | 'smtp' | 'secret'>;
}): BackgroundJobs {
  const tasks: Record<string, Task> = {};
  const schedules: Schedule[] = [];

  // Scheduled backups (PORTAL_BACKUP_DIR, PORTAL_BACKUP_AT or PORTAL_BACKUP_INTERVAL_HOURS,
  // PORTAL_BACKUP_KEEP): once a day at a time of day, or a look every few minutes whether the newest
  // backup in the folder is older than the interval.
  const { dir } = config.backup;
  if (dir !== undefined && config.backup.intervalHours > 0) {
    const settings = { ...config.backup, dir };
    tasks[BACKUP_TASK] = async (payload, { now, log }) => {
      const result = await runScheduledBackup({ database, settings, now, slot: slotOf(payload) });
      if (result.outcome === 'written') {
        log.info({ file: result.summary.file, bytes: result.summary.bytes, removed: result.removed }, 'scheduled backup written');
      }
    };
    if (settings.at) schedules.push({ task: BACKUP_TASK, at: settings.at });
    else schedules.push({ task: BACKUP_TASK, everyMinutes: Math.max(1, Math.min(BACKUP_CHECK_MINUTES, Math.floor(settings.intervalHours * 60))) });
  }

  // Retention of personal data, once a day (PORTAL_RETAIN_MESSAGES_DAYS, PORTAL_RETAIN_WITHDRAWN_DAYS).
  if (retentionApplies(config.retention)) {
    tasks[RETENTION_TASK] = async (payload, { now, log }) => {
      const result = await runRetention({ database, settings: config.retention, now, slot: slotOf(payload) });
      if (result.outcome === 'done') log.info({ messages: result.messages, erased: result.erased.length }, 'retention applied');
    };
    schedules.push({ task: RETENTION_TASK, at: RETENTION_AT });
  }

  // Alerts (decision 44): a saved register's students, the registers not taken (every minute), and
  // the digests of the notices not e-mailed yet, daily and on Mondays at 07:30. Each is safe to run
  // again: the episodes fire once, and a notice is marked e-mailed with the digest that holds it.
  const alerts = alertContextOf(database.db, config);
  tasks[EVALUATE_ALERTS_TASK] = async (payload) => {
    const register = registerKeyOf(payload);
    if (register) await evaluateRegister(database, await alerts(), register);
  };
  tasks[REGISTER_MISSING_TASK] = async (_payload, { now }) => {
    await checkMissingRegisters(database, { ...(await alerts()), now: () => now });
  };
  schedules.push({ task: REGISTER_MISSING_TASK, everyMinutes: 1 });
  tasks[DAILY_DIGEST_TASK] = async (_payload, { now, log }) => {
    const sent = await sendDigests(database, { ...(await alerts()), now: () => now }, 'daily');
    if (sent > 0) log.info({ sent }, 'daily alert digests queued');
  };
  schedules.push({ task: DAILY_DIGEST_TASK, at: DIGEST_AT });
  tasks[WEEKLY_DIGEST_TASK] = async (_payload, { now, log }) => {
    const sent = await sendDigests(database, { ...(await alerts()), now: () => now }, 'weekly');
    if (sent > 0) log.info({ sent }, 'weekly alert digests queued');
  };
  schedules.push({ task: WEEKLY_DIGEST_TASK, at: { ...DIGEST_AT, weekday: 1 } });

  return { tasks, schedules };
}

const REGISTER_MISSING_TASK = 'register-missing';
const DAILY_DIGEST_TASK = 'digest-daily';
const WEEKLY_DIGEST_TASK = 'digest-weekly';
/** The digests go at 07:30, portal time. */
const DIGEST_AT = { hour: 7, minute: 30 };
