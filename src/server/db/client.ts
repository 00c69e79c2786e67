import { randomUUID } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { lockDataFolder, type DataFolderLock } from './data-folder-lock';
import { migrationError } from './migration-error';
import { PROJECT_ROOT } from '../project-root';
import { preparePglite, preparingClient } from './prepared-statements';
import type * as schemaModule from './schema';

type Schema = typeof schemaModule;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or a transaction on it: repositories accept both. */
export type Executor = Db | Tx;

export type DatabaseKind = 'pglite' | 'postgres';

/** Called with the payload of each notification on a channel. */
export type Listener = (payload: string) => void;

export interface Database {
  db: Db;
  kind: DatabaseKind;
  /**
   * This opening's own random name: a notification may carry it, so that of all the processes
   * that hear it, the one that sent it can tell (one of them, not every one, queues its job).
   */
  instance: string;
  /** Publish on a channel: PostgreSQL NOTIFY, so every server process on the database hears it. */
  notify(channel: string, payload: string): Promise<void>;
  /** Subscribe to a channel; returns the unsubscribe function. */
  listen(channel: string, listener: Listener): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** How busy its connections are now, for the metrics. */
  poolUse(): PoolUse;
}

/**
 * PostgreSQL: the pool's connections open, those running a query or transaction, and the queries
 * waiting for one. The embedded database has one session: `size` 1, `inUse` 0 or 1, and `waiting`
 * the queries queued behind the one it runs.
 */
export interface PoolUse {
  size: number;
  inUse: number;
  waiting: number;
}

export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'drizzle');

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** Folder for the embedded database; memory when absent. */
  dataDir?: string | undefined;
  /**
   * The lock on dataDir when the caller took it already (npm start takes it before the build).
   * The database then owns it and gives it up on close.
   */
  lock?: DataFolderLock | undefined;
  /** Bring the schema up to date (default). `portal pins fix` repairs data first, then migrates. */
  migrate?: boolean;
  /** Keep repeated statements prepared (default; docs/decisions/0020): PostgreSQL's connections, PGlite's session. */
  preparedStatements?: boolean | undefined;
  /** PostgreSQL: the most connections the pool opens (default 10). */
  poolSize?: number | undefined;
  /** PostgreSQL: the statement_timeout of every connection, in ms (default: none). */
  statementTimeoutMs?: number | undefined;
  /**
   * Where a backup is written before migrations change a database that holds data
   * (docs/decisions/0035-backups.md). The embedded database in a folder always writes one, by
   * default into `<data folder>/backups`; PostgreSQL only when this is set (PORTAL_BACKUP_DIR).
   */
  backupDir?: string | undefined;
}

/**
 * A database being opened. `database` can be handed out at once: the server builds its routes
 * with it while the database starts (docs/decisions/0015-built-server.md). Nothing may query it
 * before `opened` resolves, as the schema is brought up to date in between (a query sent earlier
 * to the embedded database waits for it to start, but not for the migrations). `opened` rejects
 * with why the database cannot be used, and the database is then closed.
 */
export interface Opening {
  database: Database;
  opened: Promise<Database>;
}

/**
 * Starts opening the configured database (see `Opening`). An embedded database in a folder is this
 * process's alone until close: opening a folder another live process holds throws
 * DataFolderLockedError before anything is read or written.
 */
export async function beginOpening(options: OpenOptions): Promise<Opening> {
  const migrationsFolder = options.migrate === false ? undefined : MIGRATIONS_DIR;
  const { database, started } = options.databaseUrl
    ? { database: await openPostgres(options.databaseUrl, options), started: Promise.resolve() }
    : await beginPglite(options.dataDir, options.lock, options.preparedStatements ?? true, migrationsFolder);
  const opened = (async () => {
    try {
      await started;
      const backupDir = options.backupDir ?? (!options.databaseUrl && options.dataDir ? path.join(options.dataDir, 'backups') : undefined);
      if (migrationsFolder !== undefined) await migrateDatabase(database, migrationsFolder, { backupDir });
    } catch (err) {
      await database.close().catch(() => undefined);
      throw err;
    }
    return database;
  })();
  // Its failure is the caller's to report, whenever it awaits it: never an unhandled rejection meanwhile.
  opened.catch(() => undefined);
  return { database, opened };
}

/** Opens the configured database and brings its schema up to date (see `beginOpening`). */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  return (await beginOpening(options)).opened;
}

/** The key of the advisory lock that migrations run under on PostgreSQL: one process migrates, the others wait for it. */
export const MIGRATION_LOCK = [0x706f7274, 1] as const;

/**
 * Applies the migrations not applied yet: every one in drizzle/, or those of another folder (tests).
 * On PostgreSQL they run under an advisory lock, so that processes started together on one new
 * database wait for the first to migrate instead of migrating at once. With `backupDir`, a
 * database that holds data is backed up there first.
 */
export async function migrateDatabase(
  database: Database,
  migrationsFolder = MIGRATIONS_DIR,
  options: { backupDir?: string | undefined } = {},
): Promise<void> {
  if (await isUpToDate(database, migrationsFolder)) return;
  if (database.kind === 'pglite') {
    await migrateNow(database, migrationsFolder, options.backupDir);
    return;
  }
  // The lock is held by a transaction on a connection of its own; the migrator uses others.
  await database.db.transaction(async (tx) => {
    // Waiting for another process's migrations, and holding the lock while this one's run (idle
    // in its transaction meanwhile), may take longer than a query is otherwise allowed.
    await tx.execute('set local statement_timeout = 0');
    await tx.execute('set local idle_in_transaction_session_timeout = 0');
    await tx.execute(`select pg_advisory_xact_lock(${MIGRATION_LOCK[0]}, ${MIGRATION_LOCK[1]})`);
    // Another process may have migrated while this one waited.
    if (await isUpToDate(database, migrationsFolder)) return;
    await migrateNow(database, migrationsFolder, options.backupDir);
  });
}

async function migrateNow(database: Database, migrationsFolder: string, backupDir: string | undefined): Promise<void> {
  if (backupDir !== undefined) {
    const { backupBeforeUpgrade } = await import('./backup');
    await backupBeforeUpgrade(database, backupDir);
  }
  try {
    // Each kind's migrator is loaded only for its kind: the other's driver is never loaded.
    if (database.kind === 'pglite') {
      const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
      await migratePglite(database.db as Parameters<typeof migratePglite>[0], { migrationsFolder });
    } else {
      const { migrate: migratePg } = await import('drizzle-orm/node-postgres/migrator');
      await migratePg(database.db as Parameters<typeof migratePg>[0], { migrationsFolder });
    }
  } catch (err) {
    throw migrationError(err);
  }
}

/**
 * Whether the newest migration of the folder is applied already: one read, where the migrator
 * would first create its schema and table if missing and then open a transaction (a start on a
 * database that is up to date, the usual one, is some 0.05-0.1 s sooner on the embedded database).
 * Drizzle's migrator applies the migrations dated after the newest one it recorded; when none
 * is, it has nothing to do. Any doubt (no journal, no table yet) is left to the migrator.
 */
async function isUpToDate(database: Database, migrationsFolder: string): Promise<boolean> {
  let newest: number;
  try {
    const journal = JSON.parse(await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
    newest = Math.max(...journal.entries.map((entry) => entry.when));
  } catch {
    return false;
  }
  try {
    const rows = await queryRows<{ applied: string | number | null }>(
      database.db,
      'select max(created_at) as applied from drizzle.__drizzle_migrations',
    );
    const applied = rows[0]?.applied;
    return applied !== null && applied !== undefined && Number(applied) >= newest;
  } catch {
    return false; // A new database: no table of migrations yet.
  }
}

async function beginPglite(
  dataDir: string | undefined,
  given: DataFolderLock | undefined,
  prepared: boolean,
  migrationsFolder: string | undefined,
): Promise<{ database: Database; started: Promise<void> }> {
  if (given && (!dataDir || realpathSync(path.resolve(dataDir)) !== given.dataDir)) {
    throw new Error('The lock given is not on the data folder being opened');
  }
  // The lock comes first: a second process must not even start the database on the folder.
  const lock = dataDir ? (given ?? lockDataFolder(dataDir)) : undefined;
  try {
    return await startPglite(dataDir, lock, prepared, migrationsFolder);
  } catch (err) {
    lock?.release();
    throw err;
  }
}

/**
 * The embedded database's settings. Its shared buffers live in the process's WebAssembly memory,
 * which grows as pages are read and never shrinks: PostgreSQL's default of 128 MB made an idle
 * server on PGlite weigh about 370 MB. A single process serving one university's reports from
 * counters reads far fewer pages than that; the operating system's file cache holds the rest.
 */
const PGLITE_OPTIONS = { postgresqlconf: ['shared_buffers=32MB'] };

async function startPglite(
  dataDir: string | undefined,
  lock: DataFolderLock | undefined,
  prepared: boolean,
  migrationsFolder: string | undefined,
): Promise<{ database: Database; started: Promise<void> }> {
  // Each driver is loaded on use: a refused open (or a server on PostgreSQL) never loads PGlite.
  // In a thread of its own (docs/decisions/0023-pglite-thread.md): its queries run beside the
  // server's requests instead of between them. The thread starts before Drizzle's driver and the
  // schema load (this module loads neither before: npm start's database opens meanwhile), and its
  // client is handed out before the database is ready.
  // A folder without a database yet is made by PostgreSQL's initdb, and what that takes stays with
  // whoever ran it (in the thread that then served, an idle server on a new folder weighed some
  // 800 MB, against 290 once restarted): a child process makes the folder, applies the migrations
  // (whose memory would stay too) and ends, and the thread opens what it made.
  const isNew = dataDir !== undefined && !existsSync(path.join(dataDir, 'PG_VERSION'));
  const thread = import('./pglite-thread').then(async ({ beginPgliteThread, makeDatabaseFolder }) => {
    if (isNew) await makeDatabaseFolder(dataDir, PGLITE_OPTIONS, migrationsFolder);
    return beginPgliteThread(dataDir, PGLITE_OPTIONS);
  });
  let db: Db;
  try {
    const [{ client }, { drizzle: drizzlePglite }, schema] = await Promise.all([thread, import('drizzle-orm/pglite'), import('./schema')]);
    if (prepared) await preparePglite(client);
    db = drizzlePglite(client, { schema }) as unknown as Db;
  } catch (err) {
    // The thread may have begun though the rest failed: it is closed before the caller lets the
    // folder's lock go, so that no database is left running on a folder another process may take.
    await thread.then(({ client }) => client.close()).catch(() => undefined);
    throw err;
  }
  const { client, ready } = await thread;
  const database: Database = {
    db,
    kind: 'pglite',
    instance: randomUUID(),
    async notify(channel, payload) {
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async listen(channel, listener) {
      const unsubscribe = await client.listen(channel, listener);
      return async () => unsubscribe();
    },
    async close() {
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
    poolUse() {
      const queries = client.queriesInProgress;
      return { size: 1, inUse: Math.min(queries, 1), waiting: Math.max(queries - 1, 0) };
    },
  };
  return { database, started: ready };
}

async function openPostgres(url: string, options: Pick<OpenOptions, 'preparedStatements' | 'poolSize' | 'statementTimeoutMs'>): Promise<Database> {
  const prepared = options.preparedStatements ?? true;
  const [{ default: pg }, { drizzle: drizzlePg }, schema] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('./schema'),
  ]);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    ...(options.statementTimeoutMs === undefined ? {} : { statement_timeout: options.statementTimeoutMs }),
    ...(prepared ? { Client: preparingClient(pg.Client) } : {}),
  });
  // An idle client that loses its connection must not crash the process; nor may one in use (a
  // transaction's, when the server shuts down under it): the pool has no listener on those, and an
  // 'error' with none ends the process. Its query fails with the error, and the pool drops it.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const listeners = new Map<string, Set<Listener>>();
  let listenClient: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let closed = false;
  const quoted = (channel: string) => `"${channel.replace(/"/g, '""')}"`;

  // One connection holds every LISTEN of this process. When it is lost (a database restart, a
  // network cut), it is opened again with growing pauses and every channel is listened to again.
  async function connectListener(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (message) => {
      for (const listener of listeners.get(message.channel) ?? []) listener(message.payload ?? '');
    });
    const lost = () => {
      if (listenClient !== client) return;
      listenClient = undefined;
      void client.end().catch(() => undefined);
      scheduleReconnect(500);
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    for (const channel of listeners.keys()) await client.query(`listen ${quoted(channel)}`);
    listenClient = client;
    return client;
  }

  function listenConnection(): Promise<pg.Client> {
    if (listenClient) return Promise.resolve(listenClient);
    connecting ??= connectListener().finally(() => {
      connecting = undefined;
    });
    return connecting;
  }

  function scheduleReconnect(delayMs: number): void {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      listenConnection().catch(() => scheduleReconnect(Math.min(delayMs * 2, 30_000)));
    }, delayMs);
    retryTimer.unref();
  }

  return {
    db,
    kind: 'postgres',
    instance: randomUUID(),
    async notify(channel, payload) {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async listen(channel, listener) {
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        const client = await listenConnection();
        // A fresh connection already listens to every known channel; an existing one needs this one.
        await client.query(`listen ${quoted(channel)}`);
      } else {
        await listenConnection();
      }
      set.add(listener);
      return async () => {
        set.delete(listener);
      };
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const client = listenClient;
      listenClient = undefined;
      await client?.end().catch(() => undefined);
      await pool.end();
    },
    poolUse() {
      return { size: pool.totalCount, inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount };
    },
  };
}

/** The rows of a raw SQL query: node-postgres and PGlite both answer with `rows`. */
export async function queryRows<T>(db: Executor, query: SQL | string): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
