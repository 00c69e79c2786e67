import { and, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { auditLog } from '../../db/schema';

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;

/** The trail only grows: this module inserts and reads, and the database refuses the rest. */
export async function insertEntry(db: Executor, row: NewAuditRow): Promise<void> {
  await db.insert(auditLog).values(row);
}

export interface AuditFilter {
  action?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  timeZone: string;
  beforeId?: number | undefined;
  limit: number;
}

/** Newest first, by id (the order entries were written). */
export function listEntries(db: Executor, filter: AuditFilter): Promise<AuditRow[]> {
  const day = sql`(${auditLog.at} at time zone ${filter.timeZone})::date`;
  const conditions: SQL[] = [];
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.from) conditions.push(sql`${day} >= ${filter.from}::date`);
  if (filter.to) conditions.push(sql`${day} <= ${filter.to}::date`);
  if (filter.beforeId !== undefined) conditions.push(lt(auditLog.id, filter.beforeId));
  return db
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.id))
    .limit(filter.limit);
}
