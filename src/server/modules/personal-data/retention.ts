/**
 * Retention (decision 40): once a day, contact messages older than PORTAL_RETAIN_MESSAGES_DAYS are
 * deleted, and students withdrawn longer than PORTAL_RETAIN_WITHDRAWN_DAYS are erased as an admin
 * would erase them. Each day's run happens once whatever the number of processes: on PostgreSQL
 * one takes an advisory lock, and the day is claimed in the database before anything is done.
 */
import type { RetentionSettings } from '../../config';
import { startPeriodicTask } from '../../periodic-task';
import type { Database, Executor } from '../../db/client';
import type { Actor } from '../audit/service';
import * as repo from './repository';
import { eraseStudent } from './service';

/** The advisory lock held while retention runs on PostgreSQL (backups hold [.., 2]). */
export const RETENTION_LOCK = [0x706f7274, 40] as const;

/** Who the trail names for what retention does. */
export const RETENTION_ACTOR: Actor = { id: null, label: 'retention' };

const DAY_MS = 24 * 3600_000;

export type RetentionResult =
  | { outcome: 'done'; messages: number; erased: string[] }
  | { outcome: 'already-ran' | 'busy' };

/** The day `now` falls on, in UTC, as YYYYMMDD. */
function dayNumber(now: Date): number {
  return now.getUTCFullYear() * 10_000 + (now.getUTCMonth() + 1) * 100 + now.getUTCDate();
}

/** One day's retention, unless it already ran that day (`already-ran`) or runs in another process now (`busy`). */
export async function runRetention({
  database,
  settings,
  now = new Date(),
}: {
  database: Database;
  settings: RetentionSettings;
  now?: Date;
}): Promise<RetentionResult> {
  const work = async (claimWith: Executor): Promise<RetentionResult> => {
    if (!(await repo.claimRetentionDay(claimWith, dayNumber(now)))) return { outcome: 'already-ran' };
    const messages = settings.messagesDays === null ? 0 : await repo.deleteMessagesBefore(database.db, new Date(now.getTime() - settings.messagesDays * DAY_MS));
    const erased: string[] = [];
    if (settings.withdrawnDays !== null) {
      for (const pin of await repo.listWithdrawnBefore(database.db, new Date(now.getTime() - settings.withdrawnDays * DAY_MS))) {
        erased.push((await eraseStudent(database.db, RETENTION_ACTOR, pin, pin)).pseudonym);
      }
    }
    return { outcome: 'done', messages, erased };
  };
  // The embedded database has one process (its folder is locked).
  if (database.kind === 'pglite') return work(database.db);
  return database.db.transaction(async (tx) => {
    await tx.execute('set local idle_in_transaction_session_timeout = 0');
    const taken = (await tx.execute(`select pg_try_advisory_xact_lock(${RETENTION_LOCK[0]}, ${RETENTION_LOCK[1]}) as taken`)) as unknown as {
      rows: { taken: boolean }[];
    };
    if (!taken.rows[0]?.taken) return { outcome: 'busy' as const };
    // The day is claimed in the lock's transaction, and so seen by the others once the run ends.
    return work(tx);
  });
}

interface Log {
  info(obj: object, message: string): void;
  warn(obj: object, message: string): void;
}

/** How often a running portal looks whether the day's retention has run. */
const CHECK_EVERY_MS = 60 * 60 * 1000;
const FIRST_CHECK_MS = 2 * 60 * 1000;

/** Starts the timer of the daily retention; `stop` ends it. Nothing runs when both periods are off. */
export function scheduleRetention(
  database: Database,
  settings: RetentionSettings,
  log: Log,
  { firstCheckMs = FIRST_CHECK_MS }: { firstCheckMs?: number } = {},
): { stop(): void } {
  if (settings.messagesDays === null && settings.withdrawnDays === null) return { stop: () => undefined };
  return startPeriodicTask(
    async () => {
      const result = await runRetention({ database, settings });
      if (result.outcome === 'done') log.info({ messages: result.messages, erased: result.erased.length }, 'retention applied');
    },
    { firstMs: firstCheckMs, everyMs: CHECK_EVERY_MS, onError: (err) => log.warn({ err }, 'retention failed') },
  );
}
