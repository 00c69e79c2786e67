import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client';

/** Every committed bump is announced on this channel as `name:version`. */
export const DATA_VERSION_CHANNEL = 'data_versions';

/** The version every register save bumps (the service's MARKS). */
export const MARKS_VERSION = 'marks';

/**
 * Adds one to a version (creating its row at 1) and announces it: the notification goes out when
 * the transaction commits, and never if it rolls back. Returns the new value.
 */
export async function bump(tx: Executor, name: string): Promise<number> {
  const [row] = await queryRows<{ version: string | number }>(
    tx,
    sql`with bumped as (
          insert into data_versions (name, version) values (${name}, 1)
          on conflict (name) do update set version = data_versions.version + 1
          returning version
        )
        select version, pg_notify(${DATA_VERSION_CHANNEL}, ${name} || ':' || version) from bumped`,
  );
  return Number(row?.version ?? 0);
}

/** A version's value (0 before its first bump). */
export async function read(db: Executor, name: string): Promise<number> {
  const [row] = await queryRows<{ version: string | number }>(db, sql`select version from data_versions where name = ${name}`);
  return Number(row?.version ?? 0);
}

/**
 * A save's bumps (decision 55): `marks` by one, then each of `names` (in the order given) to the
 * new `marks` value, or one more than its own where that is higher. Every name bumped with `marks`
 * thus carries the `marks` value of the save that last bumped it, so that the names bumped since a
 * `marks` value read earlier are those above it. Announced as `bump` does; returns the new values.
 */
export async function bumpWithMarks(tx: Executor, names: readonly string[]): Promise<Map<string, number>> {
  const rows = await queryRows<{ name: string; version: string | number }>(
    tx,
    sql`with marks as (
          insert into data_versions (name, version) values (${MARKS_VERSION}, 1)
          on conflict (name) do update set version = data_versions.version + 1
          returning name, version
        ), others as (
          insert into data_versions (name, version)
          select name, (select version from marks) from unnest(${sql.param([...names])}::text[]) with ordinality as given(name, position) order by position
          on conflict (name) do update set version = greatest(data_versions.version + 1, excluded.version)
          returning name, version
        ), bumped as (select * from marks union all select * from others)
        select name, version, pg_notify(${DATA_VERSION_CHANNEL}, name || ':' || version) from bumped`,
  );
  return new Map(rows.map((row) => [row.name, Number(row.version)]));
}
