import { and, desc, eq, gte, lte, ne, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { terms } from '../../db/schema';

export type TermRow = typeof terms.$inferSelect;
export type NewTermRow = Pick<typeof terms.$inferInsert, 'name' | 'startsOn' | 'endsOn'>;

/** Newest first: by first day, then last day. */
export function listTerms(db: Executor): Promise<TermRow[]> {
  return db.select().from(terms).orderBy(desc(terms.startsOn), desc(terms.endsOn), terms.name);
}

export async function findTerm(db: Executor, id: string): Promise<TermRow | undefined> {
  const [row] = await db.select().from(terms).where(eq(terms.id, id));
  return row;
}

/**
 * Serialises every change to the terms until the transaction ends, so that two concurrent saves
 * cannot both find no overlap. Plain reads (ACCESS SHARE) are not blocked; the mode conflicts
 * with itself, so a second writer waits for the first to commit and then sees its row. It also
 * conflicts with the FOR SHARE read by which a register save finds its term: a term change waits
 * for saves in progress, and saves wait for it, so counters are never filed under a moving term.
 */
export async function lockTermsForChange(tx: Executor): Promise<void> {
  await tx.execute(sql`lock table terms in exclusive mode`);
}

/** The first term (other than `exceptId`) sharing at least one day with the range, both ends included. */
export async function findOverlapping(db: Executor, startsOn: string, endsOn: string, exceptId?: string): Promise<TermRow | undefined> {
  const conditions: SQL[] = [lte(terms.startsOn, endsOn), gte(terms.endsOn, startsOn)];
  if (exceptId !== undefined) conditions.push(ne(terms.id, exceptId));
  const [row] = await db
    .select()
    .from(terms)
    .where(and(...conditions))
    .orderBy(terms.startsOn)
    .limit(1);
  return row;
}

/** A term (other than `exceptId`) whose name is the same, case aside. */
export async function findByName(db: Executor, name: string, exceptId?: string): Promise<TermRow | undefined> {
  const conditions: SQL[] = [sql`lower(${terms.name}) = lower(${name})`];
  if (exceptId !== undefined) conditions.push(ne(terms.id, exceptId));
  const [row] = await db
    .select()
    .from(terms)
    .where(and(...conditions))
    .limit(1);
  return row;
}

export async function insertTerm(db: Executor, row: NewTermRow): Promise<TermRow> {
  const [created] = await db.insert(terms).values(row).returning();
  if (!created) throw new Error('insert returned no row');
  return created;
}

export async function updateTerm(db: Executor, id: string, changes: Partial<NewTermRow>): Promise<TermRow | undefined> {
  const [updated] = await db.update(terms).set(changes).where(eq(terms.id, id)).returning();
  return updated;
}

/**
 * The reports' default term on `day` (decision 12), in one query: the term that holds `day`
 * (terms never overlap: at most one), else the one that ended last before it; none when every
 * term starts after `day`.
 */
export async function defaultTermOn(db: Executor, day: string): Promise<TermRow | undefined> {
  const [row] = await db
    .select()
    .from(terms)
    .where(lte(terms.startsOn, day))
    .orderBy(sql`${terms.endsOn} >= ${day} desc`, desc(terms.endsOn))
    .limit(1);
  return row;
}
