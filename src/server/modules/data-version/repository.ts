import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client';

/** Every committed bump is announced on this channel as `name:version`. */
export const DATA_VERSION_CHANNEL = 'data_versions';

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
 * Bumps several versions in one statement (rows locked in the order given) and announces each, as
 * `bump` does. Returns the new values by name.
 */
export async function bumpEach(tx: Executor, names: readonly string[]): Promise<Map<string, number>> {
  const rows = await queryRows<{ name: string; version: string | number }>(
    tx,
    sql`with bumped as (
          insert into data_versions (name, version)
          select name, 1 from unnest(${sql.param([...names])}::text[]) with ordinality as given(name, position) order by position
          on conflict (name) do update set version = data_versions.version + 1
          returning name, version
        )
        select name, version, pg_notify(${DATA_VERSION_CHANNEL}, name || ':' || version) from bumped`,
  );
  return new Map(rows.map((row) => [row.name, Number(row.version)]));
}
