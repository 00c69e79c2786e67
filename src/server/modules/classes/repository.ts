import { asc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { classes } from '../../db/schema';

export type ClassRow = typeof classes.$inferSelect;

const inOrder = [asc(classes.position), asc(classes.name)];

/** Every class, archived ones included, in dashboard order. */
export function listClasses(db: Executor): Promise<ClassRow[]> {
  return db.select().from(classes).orderBy(...inOrder);
}

/** The classes in their dashboard order. */
export async function listClassNames(db: Executor): Promise<string[]> {
  const rows = await db.select({ name: classes.name }).from(classes).orderBy(...inOrder);
  return rows.map((row) => row.name);
}

/** The classes that are not archived, in dashboard order. */
export async function listActiveClassNames(db: Executor): Promise<string[]> {
  const rows = await db.select({ name: classes.name }).from(classes).where(isNull(classes.archivedAt)).orderBy(...inOrder);
  return rows.map((row) => row.name);
}

export async function findClass(db: Executor, name: string): Promise<ClassRow | undefined> {
  const [row] = await db.select().from(classes).where(eq(classes.name, name)).limit(1);
  return row;
}

/**
 * Locks a class's row until the transaction ends (FOR NO KEY UPDATE): register saves of one class
 * run one after another, and an archive or rename waits for a save in progress (and it for them).
 * Foreign-key checks on the class are not blocked.
 */
export async function lockClass(tx: Executor, name: string): Promise<ClassRow | undefined> {
  const [row] = await tx.select().from(classes).where(eq(classes.name, name)).for('no key update');
  return row;
}

export async function classExists(db: Executor, name: string): Promise<boolean> {
  return (await findClass(db, name)) !== undefined;
}

/** A class whose name equals `name` ignoring case, if any. */
export async function findClassNamedLike(db: Executor, name: string): Promise<ClassRow | undefined> {
  const [row] = await db
    .select()
    .from(classes)
    .where(sql`lower(${classes.name}) = lower(${name})`)
    .limit(1);
  return row;
}

/**
 * Makes changes to classes wait for each other until the transaction ends: names are unique
 * ignoring case, which no index enforces, and positions are renumbered as a whole.
 */
export async function lockClassesForChange(tx: Executor): Promise<void> {
  await tx.execute(sql`lock table classes in share row exclusive mode`);
}

export async function insertClass(db: Executor, name: string, position: number): Promise<ClassRow> {
  const [row] = await db.insert(classes).values({ name, position }).returning();
  if (!row) throw new Error('insert returned no class');
  return row;
}

/**
 * Renames a class. The registers, marks and roster that name it follow through their foreign
 * keys (ON UPDATE CASCADE), in the same statement.
 */
export async function renameClass(db: Executor, from: string, to: string): Promise<void> {
  await db.update(classes).set({ name: to }).where(eq(classes.name, from));
}

export async function setArchived(db: Executor, name: string, archivedAt: Date | null): Promise<void> {
  await db.update(classes).set({ archivedAt }).where(eq(classes.name, name));
}

export async function setPosition(db: Executor, name: string, position: number): Promise<void> {
  await db.update(classes).set({ position }).where(eq(classes.name, name));
}
