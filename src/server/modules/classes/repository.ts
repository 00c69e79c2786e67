import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { classes } from '../../db/schema';

/** The classes in their dashboard order. */
export async function listClassNames(db: Executor): Promise<string[]> {
  const rows = await db.select({ name: classes.name }).from(classes).orderBy(asc(classes.position), asc(classes.name));
  return rows.map((row) => row.name);
}

export async function classExists(db: Executor, name: string): Promise<boolean> {
  const [row] = await db.select({ name: classes.name }).from(classes).where(eq(classes.name, name)).limit(1);
  return row !== undefined;
}
