import type { Executor } from './client';

/**
 * Queries built once and run many times (docs/decisions/0020-prepared-statements.md): Drizzle's
 * `.prepare()` of a query written with `sql.placeholder`, kept per database or transaction and per
 * shape. Building a query (its builder, conditions and text) was a fifth of the server's work for a
 * student's record on the embedded database; a prepared one only fills in its placeholders.
 *
 * A prepared query runs on the database or transaction it was prepared on, so each executor has
 * its own: the database's last as long as the process, a transaction's go with it.
 */
const byExecutor = new WeakMap<Executor, Map<string, unknown>>();

/** The query of this shape (`key`, unique in the process) prepared on `db`, built the first time. */
export function preparedOn<Query>(db: Executor, key: string, build: (db: Executor) => Query): Query {
  let queries = byExecutor.get(db);
  if (queries === undefined) {
    queries = new Map();
    byExecutor.set(db, queries);
  }
  let query = queries.get(key) as Query | undefined;
  if (query === undefined) {
    query = build(db);
    queries.set(key, query);
  }
  return query;
}
