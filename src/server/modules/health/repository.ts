import { queryRows, type Executor } from '../../db/client';

/** The time stamp of the newest migration applied to the database, or null when none is. */
export async function newestAppliedMigration(db: Executor): Promise<number | null> {
  const rows = await queryRows<{ applied: string | number | null }>(db, 'select max(created_at) as applied from drizzle.__drizzle_migrations');
  const applied = rows[0]?.applied;
  return applied === null || applied === undefined ? null : Number(applied);
}
