import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { stopOnExit } from './children';
import { startNodeOptions } from './node-options';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface PortalProcessOptions {
  /** The server's environment beyond this process's own: the database, the zone, the demo switch. */
  env: Record<string, string>;
  port: number;
  /** What says it has started: `/api/health` (listening) or `/api/ready` (the database migrated and answering). */
  ready?: '/api/health' | '/api/ready';
  timeoutMs?: number;
}

/**
 * A portal process of the server's build, as `npm start` runs it, stopped with this process however
 * it ends. Warnings only on its log, and no scheduled backup: its snapshot would weigh on the
 * measures. Resolves once `ready` answers 200.
 */
export async function startPortalProcess(entry: string, { env, port, ready = '/api/health', timeoutMs = 180_000 }: PortalProcessOptions): Promise<ChildProcess> {
  const child = stopOnExit(
    spawn(process.execPath, [...startNodeOptions(), entry], {
      env: { ...process.env, LOG_LEVEL: 'warn', PORTAL_BACKUP_INTERVAL_HOURS: '0', ...env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
  const started = performance.now();
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}${ready}`)).ok) return child;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`the portal on port ${port} exited (${child.exitCode})`);
    if (performance.now() - started > timeoutMs) throw new Error(`the portal on port ${port} did not start within ${Math.round(timeoutMs / 1000)} s`);
    await delay(50);
  }
}

/** Stops a portal process as a service manager would (SIGTERM: it drains and closes), and waits for it. */
export async function stopPortalProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export interface ScratchPostgres {
  /** The new database's address on the same server. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A new database on the server at `serverUrl` (a copy of `template`, if named), dropped by `drop`.
 * A copy is made file by file where the server can (PostgreSQL 15 and later): its default writes
 * the whole database to the log, gigabytes that the checkpoints after it would still be writing
 * out while a benchmark measures.
 */
export async function scratchPostgres(serverUrl: string, prefix: string, template?: string): Promise<ScratchPostgres> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    if (template === undefined) await admin.query(`create database ${name}`);
    else {
      const { rows } = await admin.query<{ server_version_num: string }>('show server_version_num');
      const fileCopy = Number(rows[0]!.server_version_num) >= 150_000 ? ' strategy = file_copy' : '';
      await admin.query(`create database ${name} template ${template}${fileCopy}`);
    }
  } finally {
    await admin.end();
  }
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    name,
    async drop() {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`drop database if exists ${name} with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}
