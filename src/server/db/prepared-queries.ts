import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
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

/** Written once for every raw statement: a dialect holds no state of a database. */
const dialect = new PgDialect();

/**
 * A raw statement (what `db.execute` runs) of this shape prepared on `db`, built the first time
 * with `sql.placeholder` for its values; `run` gives it the values and returns its rows. Drizzle
 * prepares only the query builder's queries, so this asks the executor's session, as `execute`
 * does, once instead of at every call.
 */
export function preparedStatement<Row>(db: Executor, key: string, build: () => SQL): { run(values: Record<string, unknown>): Promise<Row[]> } {
  return preparedOn(db, key, (on) => {
    const statement = on._.session.prepareQuery(dialect.sqlToQuery(build()), undefined, undefined, false);
    return {
      async run(values: Record<string, unknown>) {
        return ((await statement.execute(values)) as { rows: Row[] }).rows;
      },
    };
  });
}
