import { queryRows, type Database } from './client';

/**
 * The embedded database's upkeep, which PostgreSQL's autovacuum does on a server: PGlite runs no
 * autovacuum (docs/decisions/0024-embedded-statistics.md).
 *
 * - Statistics: without them every plan was made on default guesses, and the reports' computed
 *   reads ran at a quarter of their speed on the demo data (the list below 75%: 136 requests a
 *   second, 551 once analyzed). A table never analyzed, or grown by more than a tenth (in pages)
 *   since it last was, is analyzed, as autovacuum would for inserts.
 * - Vacuum: the space of deleted and replaced rows made reusable and their index entries removed
 *   (sessions, limits and counters are rewritten all term), and the pages whose rows every reader
 *   sees marked so, which lets a read answer from an index alone. The hourly upkeep vacuums every
 *   table; a table untouched since its last vacuum costs little (its pages are skipped).
 *
 * One table at a time: the database answers other requests between them. On PostgreSQL nothing is
 * done: autovacuum keeps the statistics and the space there.
 */

/** How much a table grows (in pages) before it is analyzed again: autovacuum's default share. */
const GROWTH = 0.1;

/** Empty tables are left: there is nothing to sample. */
const MIN_PAGES = 1;

export interface Upkeep {
  /** Vacuumed and analyzed: never analyzed, or grown by more than a tenth since. */
  analyzed: string[];
  /** Vacuumed only (with `everyTable`). */
  vacuumed: string[];
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Vacuums and analyzes the portal's stale tables (see above) on the embedded database, and with
 * `everyTable` vacuums the others too. The server calls it after making the demo data, once
 * serving (a folder whose tables grew while the portal was stopped), and hourly with `everyTable`.
 */
export async function tidyEmbeddedTables(database: Database, { everyTable = false }: { everyTable?: boolean } = {}): Promise<Upkeep> {
  const done: Upkeep = { analyzed: [], vacuumed: [] };
  if (database.kind !== 'pglite') return done;
  const tables = await queryRows<{ name: string; stale: boolean }>(
    database.db,
    `select c.relname as name,
            (c.reltuples < 0 or pg_relation_size(c.oid) / current_setting('block_size')::int > c.relpages * ${1 + GROWTH}) as stale
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p')
        and pg_relation_size(c.oid) / current_setting('block_size')::int >= ${MIN_PAGES}
      order by c.relname`,
  );
  for (const { name, stale } of tables) {
    if (stale) {
      await database.db.execute(`vacuum (analyze) ${quoted(name)}`);
      done.analyzed.push(name);
    } else if (everyTable) {
      await database.db.execute(`vacuum ${quoted(name)}`);
      done.vacuumed.push(name);
    }
  }
  return done;
}
