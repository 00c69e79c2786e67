import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';

type Schema = typeof schema;
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
  /** Publish on a channel: PostgreSQL NOTIFY, so every server process on the database hears it. */
  notify(channel: string, payload: string): Promise<void>;
  /** Subscribe to a channel; returns the unsubscribe function. */
  listen(channel: string, listener: Listener): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const MIGRATIONS_DIR = path.resolve(here, '../../../drizzle');

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** Folder for the embedded database; memory when absent. */
  dataDir?: string | undefined;
}

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  const database = options.databaseUrl
    ? openPostgres(options.databaseUrl)
    : await openPglite(options.dataDir);
  await migrateDatabase(database);
  return database;
}

export async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as Parameters<typeof migratePglite>[0], {
      migrationsFolder: MIGRATIONS_DIR,
    });
  } else {
    await migratePg(database.db as Parameters<typeof migratePg>[0], { migrationsFolder: MIGRATIONS_DIR });
  }
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = dataDir ? new PGlite(dataDir) : new PGlite();
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    async notify(channel, payload) {
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async listen(channel, listener) {
      const unsubscribe = await client.listen(channel, listener);
      return async () => unsubscribe();
    },
    async close() {
      await client.close();
    },
  };
}

function openPostgres(url: string): Database {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  let listenClient: pg.Client | undefined;
  const listeners = new Map<string, Set<Listener>>();

  async function listenConnection(): Promise<pg.Client> {
    if (listenClient) return listenClient;
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => undefined);
    client.on('notification', (message) => {
      for (const listener of listeners.get(message.channel) ?? []) listener(message.payload ?? '');
    });
    await client.connect();
    listenClient = client;
    return client;
  }

  return {
    db,
    kind: 'postgres',
    async notify(channel, payload) {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async listen(channel, listener) {
      const client = await listenConnection();
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        await client.query(`listen "${channel.replace(/"/g, '')}"`);
      }
      set.add(listener);
      return async () => {
        set.delete(listener);
      };
    },
    async close() {
      await listenClient?.end().catch(() => undefined);
      await pool.end();
    },
  };
}
