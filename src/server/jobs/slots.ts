/**
 * The due times ("slots") of scheduled work, and their claims (docs/decisions/0042-job-runner.md).
 * A slot is a time of day in the portal's zone (or a weekday and a time), or a step of every N
 * minutes. A task claims its slot in `job_slots` in the same transaction as its own writes: a
 * claim that commits says the slot is done; one that rolls back (the task failed, the process
 * died) leaves it for the next tick.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Database, type Executor } from '../db/client';

/** A time of day in the portal's zone (weekday 1 = Monday for a weekly run), or every N minutes. */
export type Schedule =
  | { task: string; at: { hour: number; minute: number; weekday?: number } }
  | { task: string; everyMinutes: number };

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * Claims `slot` of `task`: true when this call claimed it, false when it was done already. In a
 * transaction, another process claiming the same slot meanwhile waits for this one's outcome: it
 * gets false when this one commits, and the slot when this one rolls back.
 */
export async function claimSlot(tx: Executor, task: string, slot: Date): Promise<boolean> {
  const rows = await queryRows<{ task: string }>(
    tx,
    sql`insert into job_slots (task, slot) values (${task}, ${slot.toISOString()}) on conflict do nothing returning task`,
  );
  return rows.length > 0;
}

/**
 * Runs `work` once for a slot when what it does is not written through the claim's transaction (a
 * file, an e-mail): false when the slot was done already. On PostgreSQL the claim's transaction
 * stays open while the work runs, on a connection of its own, so that another process due the same
 * slot waits and then skips it; the work's failure rolls the claim back. The embedded database has
 * one process, whose runner runs one task at a time (and one session, which the work needs): the
 * slot is claimed once the work succeeded.
 */
export async function runSlotOnce(database: Database, task: string, slot: Date, work: () => Promise<void>): Promise<boolean> {
  if (database.kind === 'pglite') {
    if (await isSlotDone(database.db, task, slot)) return false;
    await work();
    await claimSlot(database.db, task, slot);
    return true;
  }
  return database.db.transaction(async (tx) => {
    // Idle while the work runs through other connections, for as long as it takes.
    await tx.execute(sql`set local idle_in_transaction_session_timeout = 0`);
    await tx.execute(sql`set local statement_timeout = 0`);
    if (!(await claimSlot(tx, task, slot))) return false;
    await work();
    return true;
  });
}

/** Whether `slot` of `task` is done (claimed by a committed transaction). */
export async function isSlotDone(db: Executor, task: string, slot: Date): Promise<boolean> {
  const rows = await queryRows<{ task: string }>(db, sql`select task from job_slots where task = ${task} and slot = ${slot.toISOString()}`);
  return rows.length > 0;
}

/** The slots of `task` done between `from` (excluded) and `to` (included), as times in ms. */
export async function doneSlots(db: Executor, task: string, from: Date, to: Date): Promise<Set<number>> {
  const rows = await queryRows<{ slot: string | Date }>(
    db,
    sql`select slot from job_slots where task = ${task} and slot > ${from.toISOString()} and slot <= ${to.toISOString()}`,
  );
  return new Set(rows.map((row) => new Date(row.slot).getTime()));
}

/** Forgets the slots older than `before`: those can no longer be due. */
export async function forgetSlotsBefore(db: Executor, before: Date): Promise<void> {
  await db.execute(sql`delete from job_slots where slot < ${before.toISOString()}`);
}

/** Why a schedule cannot be used, or undefined when it can. */
export function scheduleProblem(schedule: Schedule): string | undefined {
  if ('everyMinutes' in schedule) {
    const n = schedule.everyMinutes;
    return Number.isInteger(n) && n >= 1 && n <= 1440 ? undefined : `${schedule.task}: everyMinutes must be a whole number from 1 to 1440, not ${n}`;
  }
  const { hour, minute, weekday } = schedule.at;
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) return `${schedule.task}: the hour must be 0 to 23, not ${hour}`;
  if (!Number.isInteger(minute) || minute < 0 || minute > 59) return `${schedule.task}: the minute must be 0 to 59, not ${minute}`;
  if (weekday !== undefined && (!Number.isInteger(weekday) || weekday < 1 || weekday > 7)) {
    return `${schedule.task}: the weekday must be 1 (Monday) to 7 (Sunday), not ${weekday}`;
  }
  return undefined;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `timeZone` at `ms`, as the UTC time that reads the same (ms). */
function wallClock(timeZone: string, ms: number): number {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  const part: Record<string, number> = {};
  for (const { type, value } of format.formatToParts(new Date(ms))) if (type !== 'literal') part[type] = Number(value);
  return Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
}

/** The zone's offset from UTC at `ms`, in ms (+5:30 for Asia/Kolkata). */
function offsetAt(timeZone: string, ms: number): number {
  return wallClock(timeZone, Math.floor(ms / 1000) * 1000) - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant the zone's clocks read `wall` (a wall time written as UTC ms). A time the clocks
 * skip (moved forward) is taken at the offset before the change, so it falls as long after the
 * change as it was meant after its start (01:30 in London on the spring change is 02:30 summer
 * time); a time they read twice (moved back) is the earlier of the two.
 */
export function wallTimeToInstant(timeZone: string, wall: number): number {
  const before = offsetAt(timeZone, wall - DAY_MS);
  const after = offsetAt(timeZone, wall + DAY_MS);
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((instant) => wallClock(timeZone, instant) === wall)
    .sort((a, b) => a - b);
  return candidates[0] ?? wall - before;
}

/**
 * The due times of `schedule` after `from` and up to `to` (included), oldest first. A time of day
 * is the portal's wall clock in `timeZone` (computed with the zone's rules: a run at 07:30 stays at
 * 07:30 across a change to or from summer time); a weekday counts 1 = Monday to 7 = Sunday. Every N
 * minutes counts N minutes of real time from midnight UTC.
 */
export function dueSlots(schedule: Schedule, timeZone: string, from: Date, to: Date): Date[] {
  const problem = scheduleProblem(schedule);
  if (problem) throw new Error(problem);
  const start = from.getTime();
  const end = to.getTime();
  if (end <= start) return [];
  if ('everyMinutes' in schedule) {
    const step = schedule.everyMinutes * MINUTE_MS;
    const slots: Date[] = [];
    for (let t = Math.floor(start / step) * step + step; t <= end; t += step) slots.push(new Date(t));
    return slots;
  }
  const { hour, minute, weekday } = schedule.at;
  // Each local day the window touches, a day either side for the zone's offset.
  const firstDay = Math.floor(wallClock(timeZone, start) / DAY_MS) - 1;
  const lastDay = Math.floor(wallClock(timeZone, end) / DAY_MS) + 1;
  const slots: Date[] = [];
  for (let day = firstDay; day <= lastDay; day += 1) {
    const midnight = day * DAY_MS;
    // 1970-01-01 was a Thursday (4).
    const isoWeekday = ((((day + 3) % 7) + 7) % 7) + 1;
    if (weekday !== undefined && isoWeekday !== weekday) continue;
    const instant = wallTimeToInstant(timeZone, midnight + (hour * 60 + minute) * MINUTE_MS);
    if (instant > start && instant <= end) slots.push(new Date(instant));
  }
  return slots;
}

/** The slot a scheduled task's run is for: its payload's `slot`. */
export function slotOf(payload: Record<string, unknown>): Date {
  const slot = typeof payload.slot === 'string' ? new Date(payload.slot) : undefined;
  if (!slot || Number.isNaN(slot.getTime())) throw new Error(`A scheduled run needs its slot (an ISO time), not ${JSON.stringify(payload.slot)}`);
  return slot;
}
