import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresCopy, createTestDatabase, type TestDatabase } from '../test/test-db';
import { openDatabase, queryRows, type Database } from './client';
import { terms } from './schema';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe('notifications', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database.destroy());

  it('reach a listener on the same database', async () => {
    let deliver: (payload: string) => void = () => undefined;
    const received = new Promise<string>((resolve) => {
      deliver = resolve;
    });
    await database.listen('probe', (payload) => deliver(payload));
    await database.notify('probe', 'hello');
    expect(await received).toBe('hello');
  });

  // PGlite has no connection (its thread belongs to the process): only PostgreSQL's can be cut.
  it.runIf(onPostgres)('resume after the listening connection is cut', async () => {
    const payloads: string[] = [];
    await database.listen('resilience', (payload) => payloads.push(payload));
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const cut = await admin.query(
        `select pg_terminate_backend(pid) as ok from pg_stat_activity
          where pid <> pg_backend_pid() and query ilike 'listen %resilience%'`,
      );
      expect(cut.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    const deadline = Date.now() + 15_000;
    let attempt = 0;
    while (!payloads.some((p) => p.startsWith('after-')) && Date.now() < deadline) {
      attempt += 1;
      await database.notify('resilience', `after-${attempt}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(payloads.some((p) => p.startsWith('after-'))).toBe(true);
  });
});

// PostgreSQL's pool keeps them per connection; PGlite's one session keeps them too.
describe('prepared statements', () => {
  let copy: Awaited<ReturnType<typeof createPostgresCopy>> | undefined;
  beforeAll(async () => {
    if (onPostgres) copy = await createPostgresCopy(process.env.TEST_DATABASE_URL!);
  });
  afterAll(async () => copy?.drop());

  // On PostgreSQL both settings open one database; on the embedded one each opens a copy of its own.
  const open = (preparedStatements?: boolean) =>
    copy ? openDatabase({ databaseUrl: copy.url, preparedStatements }) : createTestDatabase({ preparedStatements });

  /** Runs `work` on one connection (a transaction), then lists what that connection keeps prepared. */
  async function preparedAfter(database: Database, work: (tx: Parameters<Parameters<Database['db']['transaction']>[0]>[0]) => Promise<void>) {
    return database.db.transaction(async (tx) => {
      await work(tx);
      return (await queryRows<{ statement: string }>(tx, sql`select statement from pg_prepared_statements`)).map((row) => row.statement);
    });
  }

  const probe = (value: string) => sql`select count(*)::int as n from classes where name <> ${value}`;
  const isProbe = (text: string) => text.includes('from classes where name <> $1');

  it('keeps a repeated read prepared once, and not DDL nor a statement with a long list of parameters', async () => {
    const database = await open();
    try {
      const many = Array.from({ length: 65 }, (_, index) => `P${index}`);
      const kept = await preparedAfter(database, async (tx) => {
        for (let round = 0; round < 3; round += 1) await tx.execute(probe(`probe-${round}`));
        await tx.execute(sql`create temporary table probe_ddl (x int) on commit drop`);
        await tx.execute(probe('probe-after-ddl'));
        await tx.execute(sql`select count(*)::int as n from classes where name in (${sql.join(many.map((pin) => sql`${pin}`), sql`, `)})`);
      });
      expect(kept.filter(isProbe)).toHaveLength(1);
      expect(kept.some((text) => text.includes('probe_ddl'))).toBe(false);
      expect(kept.some((text) => text.includes('where name in ('))).toBe(false);
      // What it keeps answers as an unprepared statement does, in and out of a transaction.
      const [row] = await queryRows<{ n: number }>(database.db, probe('probe-read'));
      const [all] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from classes`);
      expect(row!.n).toBe(all!.n);
      expect(row!.n).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
  });

  it('gives every type of value as an unprepared statement does: the query\'s own parsers first, then the driver\'s', async () => {
    const read = async (database: Database, label: string) => {
      // Drizzle's own parsers keep dates and times as text; the driver's make the rest.
      const typed = sql`select ${'2026-11-26'}::date as day, ${'2026-11-26T10:00:00Z'}::timestamptz as at, interval '90 minutes' as span,
        ${7}::int as n, ${'12.50'}::numeric as exact, true as yes, ${'{"a":[1,2]}'}::jsonb as doc, ${'x'}::text as word,
        array[1, 2]::int[] as list, null::int as nothing, ${-42}::int as negative, ${-7}::smallint as small,
        ${'2147483647'}::int as top, ${'-2147483648'}::int as bottom, ${'9007199254740993'}::int8 as huge, ''::text as empty,
        ${'22A91A0501 Ananya Reddy'}::varchar as ascii, ${'Ślęzak'}::text as accented`;
      // Twice: the second time the statement is kept (when prepared statements are on).
      await database.db.execute(typed);
      const rows = [...(await queryRows<Record<string, unknown>>(database.db, typed)), ...(await database.db.transaction((tx) => queryRows<Record<string, unknown>>(tx, typed)))];
      // And through the query builder, whose columns map the driver's values (a date as text, a time as a Date).
      const name = `Probe term ${label}`;
      await database.db.insert(terms).values({ name, startsOn: '2031-01-05', endsOn: '2031-04-30' });
      const builder = () => database.db.select({ startsOn: terms.startsOn, createdAt: terms.createdAt }).from(terms).where(eq(terms.name, name));
      await builder();
      const [term] = await builder();
      await database.db.delete(terms).where(eq(terms.name, name));
      return { rows, term: term! };
    };
    const prepared = await open();
    const plain = await open(false);
    try {
      const [kept, unkept] = [await read(prepared, 'kept'), await read(plain, 'unkept')];
      expect(kept.rows).toEqual(unkept.rows);
      expect(kept.term.startsOn).toBe('2031-01-05');
      expect(unkept.term.startsOn).toBe('2031-01-05');
      for (const { term } of [kept, unkept]) expect(Number.isNaN(term.createdAt.getTime())).toBe(false);
      expect(kept.rows[0]).toMatchObject({ n: 7, yes: true, doc: { a: [1, 2] }, word: 'x', list: [1, 2], nothing: null });
      expect(kept.rows[0]).toMatchObject({ negative: -42, small: -7, top: 2147483647, bottom: -2147483648, empty: '', ascii: '22A91A0501 Ananya Reddy', accented: 'Ślęzak' });
      expect(typeof kept.rows[0]!.day).toBe('string');
    } finally {
      await Promise.all([prepared.close(), plain.close()]);
    }
  });

  it('reads long answers, text in any script, no rows and counts of changed rows as an unprepared statement does', async () => {
    const read = async (database: Database) => {
      // About 1 MB: the embedded database hands such an answer over in many pieces.
      const long = sql`select g as n, repeat(${'é日🎓'}, g % 50) || ${' Ślęzak'} as text, null::text as nothing, g as "n"
        from generate_series(1, ${4000}) g order by g`;
      // Some 20 kB: ASCII and other text side by side in one answer, each value read on its own or cut from the whole.
      const mixed = sql`select g as n, case when g % 3 = 0 then ${'Ñandú '} || g else ${'A student with a long name '} || g end as name,
        ${'CSE'} || (g % 8 + 1) as class, -g as minus
        from generate_series(1, ${300}) g order by g`;
      const none = sql`select name from classes where name = ${'NO SUCH CLASS'}`;
      const rename = sql`update classes set position = position where name like ${'CSE%'}`;
      const outcomes = [];
      for (let round = 0; round < 2; round += 1) {
        outcomes.push(await database.db.execute(long), await database.db.execute(none), await database.db.execute(rename), await database.db.execute(mixed));
      }
      return outcomes.map((outcome) => {
        const { rows, rowCount, affectedRows } = outcome as unknown as { rows: unknown[]; rowCount?: number; affectedRows?: number };
        return { rows, rowCount, affectedRows };
      });
    };
    const prepared = await open();
    const plain = await open(false);
    try {
      const [kept, unkept] = [await read(prepared), await read(plain)];
      expect(kept).toEqual(unkept);
      expect(kept[0]!.rows).toHaveLength(4000);
      expect(kept[0]!.rows[3999]).toEqual({ n: 4000, text: `${'é日🎓'.repeat(0)} Ślęzak`, nothing: null });
      expect(kept[0]!.rows[48]).toEqual({ n: 49, text: `${'é日🎓'.repeat(49)} Ślęzak`, nothing: null });
      expect(kept[1]!.rows).toEqual([]);
      expect(kept[3]!.rows).toHaveLength(300);
      expect(kept[3]!.rows.slice(1, 3)).toEqual([
        { n: 2, name: 'A student with a long name 2', class: 'CSE3', minus: -2 },
        { n: 3, name: 'Ñandú 3', class: 'CSE4', minus: -3 },
      ]);
      expect(kept[2]).toMatchObject(onPostgres ? { rowCount: 8 } : { rowCount: 8, affectedRows: 8 });
    } finally {
      await Promise.all([prepared.close(), plain.close()]);
    }
  });

  it("reports a kept statement's errors as the database's, with their code", async () => {
    const database = await open();
    try {
      const insert = (name: string) => database.db.execute(sql`insert into classes (name, position) values (${name}, ${99})`);
      await insert('PROBE1');
      const refused: unknown = await insert('PROBE1').catch((err: unknown) => err);
      let cause: unknown = refused;
      while (cause instanceof Error && !('code' in cause) && cause.cause) cause = cause.cause;
      expect((cause as { code?: string }).code).toBe('23505');
      // The session goes on: the next statement runs.
      const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from classes where name = ${'PROBE1'}`);
      expect(row!.n).toBe(1);
    } finally {
      await database.close();
    }
  });

  // A migration may change what a statement returns; PostgreSQL's server migrates before it serves.
  it.runIf(!onPostgres)('forgets every prepared statement on the embedded database when the schema changes', async () => {
    const database = await open();
    try {
      await database.db.execute(probe('before'));
      const listed = async () => (await queryRows<{ statement: string }>(database.db, sql`select statement from pg_prepared_statements`)).map((row) => row.statement);
      expect((await listed()).filter(isProbe)).toHaveLength(1);
      await database.db.execute(sql`create table probe_schema (x int)`);
      expect((await listed()).filter(isProbe)).toHaveLength(0);
      await database.db.execute(probe('after'));
      expect((await listed()).filter(isProbe)).toHaveLength(1);
    } finally {
      await database.close();
    }
  });

  // PGlite syncs its file system after every statement outside a transaction; after a read there is nothing to write out.
  it.runIf(!onPostgres)('asks the embedded database to sync its files after a kept write, not after a kept read', async () => {
    const database = await open();
    try {
      const client = (database.db as unknown as { $client: { syncToFs(): Promise<void> } }).$client;
      const sync = client.syncToFs.bind(client);
      let syncs = 0;
      client.syncToFs = () => {
        syncs += 1;
        return sync();
      };
      for (let round = 0; round < 3; round += 1) await database.db.execute(probe(`read-${round}`));
      expect(syncs).toBe(0);
      const rename = (name: string) => database.db.execute(sql`update classes set name = ${name} where name = ${name}`);
      await rename('CSE1');
      await rename('CSE1');
      expect(syncs).toBe(2);
    } finally {
      await database.close();
    }
  });

  it('keeps nothing prepared when turned off (PORTAL_PREPARED_STATEMENTS=false)', async () => {
    const database = await open(false);
    try {
      const kept = await preparedAfter(database, async (tx) => {
        await tx.execute(probe('probe-off'));
        await tx.execute(probe('probe-off'));
      });
      expect(kept).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
