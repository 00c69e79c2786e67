import { toCsv } from '../../../shared/csv';
import { CLI_ACTOR, type AuditAction, type AuditEntry, type AuditPage, type AuditQuery } from '../../../shared/schemas/audit';
import type { Executor } from '../../db/client';
import * as repo from './repository';

/** Who did something: a signed-in account, or the `portal` command. */
export interface Actor {
  id: string | null;
  label: string;
}

export const CLI: Actor = { id: null, label: CLI_ACTOR };

/** The actor for a signed-in account. */
export function actorOf(user: { id: string; email: string }): Actor {
  return { id: user.id, label: user.email };
}

/**
 * Records one action in the trail. Call it with the transaction that makes the change, so that
 * the entry and the change are written together or not at all.
 */
export function recordAudit(
  db: Executor,
  actor: Actor,
  action: AuditAction,
  target: string,
  detail: Record<string, unknown> = {},
): Promise<void> {
  return repo.insertEntry(db, { actorId: actor.id, actor: actor.label, action, target, detail });
}

function toEntry(row: repo.AuditRow): AuditEntry {
  return {
    id: String(row.id),
    at: row.at.toISOString(),
    actor: row.actor,
    action: row.action as AuditAction,
    target: row.target,
    detail: row.detail,
  };
}

/** One page of the trail, newest first; `nextBefore` continues it. */
export async function listAudit(db: Executor, query: Omit<AuditQuery, 'format'>, timeZone: string): Promise<AuditPage> {
  const rows = await repo.listEntries(db, {
    action: query.action,
    from: query.from,
    to: query.to,
    timeZone,
    beforeId: query.before === undefined ? undefined : Number(query.before),
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit).map(toEntry);
  const last = page.at(-1);
  return { entries: page, nextBefore: rows.length > query.limit && last ? last.id : null };
}

/** The most entries one CSV download holds; narrow the dates for more. */
export const AUDIT_CSV_MAX = 100_000;

/** The trail as CSV, newest first, with the filters of the page (not its paging). */
export async function auditCsv(db: Executor, query: Omit<AuditQuery, 'format' | 'limit' | 'before'>, timeZone: string): Promise<string> {
  const rows = await repo.listEntries(db, { ...query, timeZone, limit: AUDIT_CSV_MAX });
  return toCsv(
    ['At', 'Actor', 'Action', 'Target', 'Detail'],
    rows.map((row) => [row.at.toISOString(), row.actor, row.action, row.target, JSON.stringify(row.detail)]),
  );
}
