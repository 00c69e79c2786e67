/**
 * Retention (decision 40): once a day, contact messages older than PORTAL_RETAIN_MESSAGES_DAYS are
 * deleted, and students withdrawn longer than PORTAL_RETAIN_WITHDRAWN_DAYS are erased as an admin
 * would erase them. The job runner (decision 42) runs it at RETENTION_AT in the portal's zone; each
 * day's run is a slot of the task `retention`, claimed in the transaction of its deletions, so it
 * happens once whatever the number of processes, and a run that fails half-way leaves nothing done
 * and is tried again at the next minute's tick.
 */
import type { RetentionSettings } from '../../config';
import type { Database } from '../../db/client';
import { claimSlot } from '../../jobs/slots';
import type { Actor } from '../audit/service';
import * as repo from './repository';
import { eraseStudent } from './service';

/** The job runner's task of retention. */
export const RETENTION_TASK = 'retention';

/** When retention runs each day, in the portal's zone: at night, before the day's registers. */
export const RETENTION_AT = { hour: 3, minute: 0 } as const;

/** Who the trail names for what retention does. */
export const RETENTION_ACTOR: Actor = { id: null, label: 'retention' };

const DAY_MS = 24 * 3600_000;

export type RetentionResult = { outcome: 'done'; messages: number; erased: string[] } | { outcome: 'already-ran' };

/** Whether retention has anything to do: not when both periods are off. */
export function retentionApplies(settings: RetentionSettings): boolean {
  return settings.messagesDays !== null || settings.withdrawnDays !== null;
}

/**
 * One day's retention, the run of `slot` (its periods counted back from `now`), unless that slot
 * ran already (`already-ran`). Another process running the same slot meanwhile waits for this one.
 */
export async function runRetention({
  database,
  settings,
  now = new Date(),
  slot = now,
}: {
  database: Database;
  settings: RetentionSettings;
  now?: Date;
  slot?: Date;
}): Promise<RetentionResult> {
  return database.db.transaction(async (tx) => {
    if (!(await claimSlot(tx, RETENTION_TASK, slot))) return { outcome: 'already-ran' as const };
    const messages = settings.messagesDays === null ? 0 : await repo.deleteMessagesBefore(tx, new Date(now.getTime() - settings.messagesDays * DAY_MS));
    const erased: string[] = [];
    if (settings.withdrawnDays !== null) {
      for (const pin of await repo.listWithdrawnBefore(tx, new Date(now.getTime() - settings.withdrawnDays * DAY_MS))) {
        erased.push((await eraseStudent(tx, RETENTION_ACTOR, pin, pin)).pseudonym);
      }
    }
    return { outcome: 'done' as const, messages, erased };
  });
}
