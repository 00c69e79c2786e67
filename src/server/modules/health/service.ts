import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { NotReadyReason } from '../../../shared/schemas/health';
import { timingSafeEqual, createHash } from 'node:crypto';
import { MIGRATIONS_DIR, type Database } from '../../db/client';
import { databaseErrorCode } from '../../plugins/errors';
import { newestAppliedMigration } from './repository';

/** How long the readiness check waits for the database before calling it unreachable. */
export const READY_QUERY_TIMEOUT_MS = 5_000;

/** SQLSTATEs of a database without the migrations' table: nothing is migrated yet. */
const NO_MIGRATIONS_TABLE = new Set(['42P01', '3F000']);

/** The time stamp of the newest migration this build has (drizzle/meta/_journal.json). */
export function newestMigration(migrationsFolder = MIGRATIONS_DIR): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/**
 * Whether this process should be sent requests: not while it is stopping, nor while its database
 * does not answer (within READY_QUERY_TIMEOUT_MS) or lacks a migration of this build. One query
 * answers both of the latter.
 */
export class Readiness {
  #stopping = false;

  constructor(
    private readonly database: Pick<Database, 'db'>,
    private readonly newest: number,
    private readonly timeoutMs = READY_QUERY_TIMEOUT_MS,
  ) {}

  /** From now on the process is not ready: it is stopping. */
  stopping(): void {
    this.#stopping = true;
  }

  /** Undefined when ready, else why not. */
  async check(): Promise<NotReadyReason | undefined> {
    if (this.#stopping) return 'shutting down';
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.timeoutMs);
    });
    try {
      const applied = await Promise.race([newestAppliedMigration(this.database.db), late]);
      if (applied === 'late') return 'database unreachable';
      if (applied === null || applied < this.newest) return 'migrations pending';
      // Asked again: the process may have begun stopping while the database answered.
      return this.#stopping ? 'shutting down' : undefined;
    } catch (error) {
      return NO_MIGRATIONS_TABLE.has(databaseErrorCode(error) ?? '') ? 'migrations pending' : 'database unreachable';
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The addresses of a client on this machine, as the socket gives them. */
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export interface MetricsRequest {
  /** The socket's own address: never X-Forwarded-For. */
  socketAddress: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

/** Headers a proxy adds to say whom it forwards for. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether a request may read the metrics: one straight from this machine (the socket's address is
 * the loopback, and no proxy forwarded it: a proxy on the same machine would otherwise open the
 * metrics to everyone it serves), or one with `Authorization: Bearer <token>` when a token is set.
 */
export function mayReadMetrics(request: MetricsRequest, token: string | undefined): boolean {
  const forwarded = FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);
  if (!forwarded && request.socketAddress !== undefined && LOOPBACK.has(request.socketAddress)) return true;
  if (token === undefined) return false;
  const authorization = request.headers.authorization;
  if (typeof authorization !== 'string') return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}
