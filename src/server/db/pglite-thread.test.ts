import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { migrationsUpTo } from '../test/old-schema';
import { MIGRATIONS_DIR } from './client';
import { preparePglite } from './prepared-statements';
import { beginPgliteThread, makeDatabaseFolder, startPgliteThread } from './pglite-thread';
import { onPostgres } from '../test/postgres';
import { copyMigratedFolderInto } from '../test/test-db';

// The embedded database in its own thread (docs/decisions/0023-pglite-thread.md), as the portal
// opens it: PGlite's API, with the portal's kept statements.
describe.skipIf(onPostgres)('the embedded database in its own thread', () => {
  let client: PGlite;
  beforeAll(async () => {
    client = await startPgliteThread(undefined, {});
    await preparePglite(client);
    await client.exec('create table items (id int primary key, label text not null)');
  });
  afterAll(async () => client.close());

  it('runs a query while the server thread goes on with its own work', async () => {
    // In the server's thread, PostgreSQL's sleep would hold every timer for its whole length.
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 10);
    try {
      await client.query('select pg_sleep(0.4)');
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThanOrEqual(10);
  });

  it('answers reads sent together each with its own answer, in any number', async () => {
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, index) => client.query<{ n: number; word: string }>('select $1::int * 2 as n, $2::text as word', [index, `w${index}`])),
    );
    answers.forEach((answer, index) => expect(answer.rows).toEqual([{ n: index * 2, word: `w${index}` }]));
  });

  it('keeps reads sent during a transaction out of it: they run after it ends', async () => {
    let outside: Promise<{ rows: { n: number }[] }> | undefined;
    await expect(
      client.transaction(async (tx) => {
        await tx.query('insert into items (id, label) values (1, $1)', ['uncommitted']);
        outside = client.query<{ n: number }>('select count(*)::int as n from items');
        // Long enough for the read to be answered, were it sent into the transaction.
        await new Promise((resolve) => setTimeout(resolve, 100));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await outside!).rows).toEqual([{ n: 0 }]);
  });

  it('rolls back a transaction whose statement failed, even if the failure was caught, and says so at commit', async () => {
    await expect(
      client.transaction(async (tx) => {
        await tx.query('insert into items (id, label) values (10, $1)', ['ten']);
        await tx.query('insert into items (id, label) values (10, $1)', ['again']).catch(() => undefined);
      }),
    ).rejects.toThrow(/aborted|rolled back/i);
    expect((await client.query('select count(*)::int as n from items where id = 10')).rows).toEqual([{ n: 0 }]);
    // The session is usable at once, in and out of transactions.
    await client.transaction(async (tx) => {
      await tx.exec("insert into items (id, label) values (11, 'eleven')");
    });
    expect((await client.query('select label from items where id = 11')).rows).toEqual([{ label: 'eleven' }]);
  });

  it("reports the database's errors with their code and constraint, for kept and other statements", async () => {
    await client.query('insert into items (id, label) values (2, $1)', ['two']);
    const kept = client.query('insert into items (id, label) values (2, $1)', ['again']);
    await expect(kept).rejects.toMatchObject({ code: '23505', constraint: 'items_pkey' });
    const other = client.exec("insert into items (id, label) values (2, 'again')");
    await expect(other).rejects.toMatchObject({ code: '23505', constraint: 'items_pkey' });
    // The session goes on after an error.
    expect((await client.query('select label from items where id = $1', [2])).rows).toEqual([{ label: 'two' }]);
  });

  it('hands notifications to listeners and stops when unlistened', async () => {
    const heard: string[] = [];
    const unlisten = await client.listen('probe', (payload) => heard.push(payload));
    await client.query("select pg_notify('probe', 'one')");
    await client.transaction(async (tx) => {
      await tx.query("select pg_notify('probe', 'two')");
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard).toEqual(['one', 'two']);
    await unlisten();
    await client.query("select pg_notify('probe', 'three')");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard).toEqual(['one', 'two']);
  });
});

describe.skipIf(onPostgres)('the thread of the embedded database, started and closed', () => {
  it("fails to start with PGlite's reason when the data folder cannot be one", async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'portal-thread-'));
    const file = path.join(folder, 'not-a-folder');
    writeFileSync(file, 'text');
    try {
      const failure = await startPgliteThread(file, {}).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(Error);
      // PGlite's file system throws an object that is not an Error: its name and number are kept.
      expect((failure as Error).message).toMatch(/ErrnoError.*errno/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  // npm start builds the server's routes with the client while the database starts.
  it('takes queries before the database is ready, and answers them once it is', async () => {
    const { client, ready } = await beginPgliteThread(undefined, {});
    let isReady = false;
    void ready.then(() => (isReady = true));
    const answer = await client.query<{ answer: number }>('select 41 + 1 as answer');
    expect(isReady).toBe(true);
    expect(answer.rows).toEqual([{ answer: 42 }]);
    await client.close();
  });

  it('refuses what was sent while it started with the reason it could not', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'portal-thread-'));
    const file = path.join(folder, 'not-a-folder');
    writeFileSync(file, 'text');
    try {
      const { client, ready } = await beginPgliteThread(file, {});
      const early = client.query('select 1').then(
        () => undefined,
        (err: unknown) => err,
      );
      await expect(ready).rejects.toThrow(/ErrnoError.*errno/);
      expect(await early).toBeInstanceOf(Error);
      expect((await early as Error).message).toMatch(/ErrnoError.*errno/);
      await expect(client.query('select 1')).rejects.toThrow(/ErrnoError.*errno/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('refuses queries once closed, without waiting', async () => {
    const client = await startPgliteThread(undefined, {});
    await client.query('select 1');
    await client.close();
    await expect(client.query('select 1')).rejects.toThrow(/closed/);
  });

  it('keeps a process alive while it starts, and not once its work is done, even left open', async () => {
    // A command that forgets to close the database must still end; one that asks before the
    // database is ready must get its answer (nothing else keeps this process alive meanwhile).
    const module = fileURLToPath(new URL('./pglite-thread.ts', import.meta.url));
    // A copy of the run's migrated folder: the child's start is the subject here, not initdb's.
    const folder = mkdtempSync(path.join(os.tmpdir(), 'portal-thread-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    copyMigratedFolderInto(folder);
    const code = `
      const { beginPgliteThread } = await import(${JSON.stringify(module)});
      const { client } = await beginPgliteThread(${JSON.stringify(folder)}, {});
      client.query('select 41 + 1 as answer').then(({ rows }) => console.log(rows[0].answer));`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(output.trim()).toBe('42');
    expect(exitCode).toBe(0);
  }, 60_000);
});

// A new data folder is made, and its migrations applied, in a child process that then ends (what
// initdb and the migrations allocate goes with it), and the thread opens what it made.
describe.skipIf(onPostgres)('a new data folder for the embedded database', { timeout: 60_000 }, () => {
  const scratch: string[] = [];
  afterEach(() => {
    for (const folder of scratch.splice(0)) rmSync(folder, { recursive: true, force: true });
  });
  /** A new temporary folder, removed after the test. */
  const newFolder = () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'portal-new-folder-'));
    scratch.push(folder);
    return folder;
  };
  /** `use` of the database in `dataDir`, opened in a thread and closed after. */
  async function inThread<T>(dataDir: string, options: PGliteOptions, use: (client: PGlite) => Promise<T>): Promise<T> {
    const client = await startPgliteThread(dataDir, options);
    try {
      return await use(client);
    } finally {
      await client.close();
    }
  }
  const journal = () =>
    JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: { idx: number; when: number; tag: string }[] };

  it('is made ready for a thread to open, with the settings asked, and keeps what is written', async () => {
    const dataDir = path.join(newFolder(), 'data');
    const options = { postgresqlconf: ['shared_buffers=32MB'] };
    await makeDatabaseFolder(dataDir, options);
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
    await inThread(dataDir, options, async (client) => {
      await client.exec('create table kept (id int primary key)');
      await client.exec('insert into kept values (7)');
      expect((await client.query('show shared_buffers')).rows).toEqual([{ shared_buffers: '32MB' }]);
    });
    // The folder keeps what was written: a second open finds it.
    await inThread(dataDir, options, async (client) => {
      expect((await client.query('select id from kept')).rows).toEqual([{ id: 7 }]);
    });
  });

  it('applies the migrations when asked, as opening the database would', async () => {
    const dataDir = path.join(newFolder(), 'data');
    await makeDatabaseFolder(dataDir, {}, MIGRATIONS_DIR);
    await inThread(dataDir, {}, async (client) => {
      const applied = await client.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
      expect(applied.rows).toEqual([{ n: journal().entries.length }]);
      const tables = await client.query<{ name: string }>(
        "select tablename as name from pg_tables where tablename in ('students', 'attendance_marks') order by tablename",
      );
      expect(tables.rows).toEqual([{ name: 'attendance_marks' }, { name: 'students' }]);
    });
  });

  it('fails as a migration that cannot run fails, with the reason the database gave', async () => {
    const entries = journal().entries;
    const migrations = migrationsUpTo(entries.at(-1)!.tag);
    scratch.push(migrations);
    const last = entries.at(-1)!;
    writeFileSync(
      path.join(migrations, 'meta', '_journal.json'),
      JSON.stringify({ ...journal(), entries: [...entries, { ...last, idx: last.idx + 1, when: last.when + 1000, tag: '9999_broken' }] }),
    );
    writeFileSync(path.join(migrations, '9999_broken.sql'), 'alter table no_such_table add column x integer;');
    await expect(makeDatabaseFolder(path.join(newFolder(), 'data'), {}, migrations)).rejects.toThrow(
      'The database could not be upgraded: relation "no_such_table" does not exist',
    );
  });

  it("fails with PGlite's reason when the folder cannot be one", async () => {
    const file = path.join(newFolder(), 'not-a-folder');
    writeFileSync(file, 'text');
    await expect(makeDatabaseFolder(file, {})).rejects.toThrow(/ErrnoError.*errno/);
  });
});
