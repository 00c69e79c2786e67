import { queryRows, type Database } from './client';

/**
 * The planner's statistics on the embedded database. PostgreSQL's autovacuum analyzes a table
 * once enough of it has changed; PGlite runs no autovacuum, so a portal on it never had any: every
 * plan was made on default guesses, and the reports' computed reads ran at a quarter of their
 * speed on the demo data (the list below 75%: 136 requests a second, 551 once analyzed).
 *
 * `analyzeWhereStale` analyzes the portal's tables that were never analyzed, or that have grown by
 * more than a tenth (in pages) since they last were, as autovacuum would for inserts. The server
 * calls it once it is serving, after the demo data is made, and with its hourly clean-up. On
 * PostgreSQL it does nothing: autovacuum keeps the statistics there.
 */

/** How much a table grows (in pages) before it is analyzed again: autovacuum's default share. */
const GROWTH = 0.1;

/** Empty tables are left: there is nothing to sample. */
const MIN_PAGES = 1;

/** Analyzes the stale tables (embedded database only); returns their names, in the order analyzed. */
export async function analyzeWhereStale(database: Database): Promise<string[]> {
  if (database.kind !== 'pglite') return [];
  const stale = await queryRows<{ name: string }>(
    database.db,
    `select c.relname as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p')
        and pg_relation_size(c.oid) / current_setting('block_size')::int >= ${MIN_PAGES}
        and (c.reltuples < 0
          or pg_relation_size(c.oid) / current_setting('block_size')::int > c.relpages * ${1 + GROWTH})
      order by c.relname`,
  );
  for (const { name } of stale) {
    // One table at a time: the database answers other requests between them.
    await database.db.execute(`analyze "${name.replace(/"/g, '""')}"`);
  }
  return stale.map((row) => row.name);
}
