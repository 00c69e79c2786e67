import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client';

/**
 * The reports' data version (DESIGN.md 7.4): a number in a database row that every write feeding
 * a report bumps in its own transaction. Cached report answers are keyed by it, and it is their
 * ETag, so a process can never serve figures older than the last committed write.
 */
export const REPORTS = 'reports';

/** Bumps the version inside the writer's transaction; returns the new version. */
export async function bumpDataVersion(tx: Executor, name = REPORTS): Promise<number> {
  const [row] = await queryRows<{ version: string | number }>(
    tx,
    sql`insert into data_versions (name, version) values (${name}, 1)
        on conflict (name) do update set version = data_versions.version + 1
        returning version`,
  );
  return Number(row?.version ?? 0);
}

/** The current version (0 before any write). */
export async function readDataVersion(db: Executor, name = REPORTS): Promise<number> {
  const [row] = await queryRows<{ version: string | number }>(db, sql`select version from data_versions where name = ${name}`);
  return Number(row?.version ?? 0);
}
