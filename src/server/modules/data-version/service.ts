import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { todayIn } from '../../../shared/dates';
import type { Executor } from '../../db/client';
import * as repo from './repository';

/**
 * The reports' data version (DESIGN.md 7.4): a number in a database row that every write feeding
 * a report bumps in its own transaction. Cached report answers are keyed by it, and it is their
 * ETag, so a process can never serve figures older than the last committed write.
 */
export const REPORTS = 'reports';

/** Bumps the version inside the writer's transaction; returns the new version. */
export function bumpDataVersion(tx: Executor, name = REPORTS): Promise<number> {
  return repo.bump(tx, name);
}

/** The current version (0 before any write). */
export function readDataVersion(db: Executor, name = REPORTS): Promise<number> {
  return repo.read(db, name);
}

/** A computed answer with the headers that go with it (a report names its term in a header). */
export interface ReportAnswer<T> {
  body: T;
  headers?: Record<string, string>;
}

/** How many answers a process keeps; the least recently used goes first. */
const DEFAULT_ENTRIES = 500;

/**
 * Report answers that nothing has changed are not computed again (DESIGN.md 7.4). Each answer is
 * tagged with the reports' data version (read from its database row on every request, so that no
 * process can serve figures older than the last committed write, whatever happened to a
 * notification), the request's path and query, and today's date in the portal's zone (the windows
 * and the default term follow it). The tag is the ETag: a browser that has it gets 304 and no body;
 * another request with it is answered from memory.
 *
 * The version is read before the answer is computed, so an answer cached under a version holds at
 * least that version's data. Guards and access checks run before `answer`.
 */
export class ReportCache {
  private readonly entries = new Map<string, ReportAnswer<unknown>>();

  constructor(
    private readonly db: Executor,
    private readonly timeZone: string,
    private readonly maxEntries = DEFAULT_ENTRIES,
  ) {}

  async answer<T>(request: FastifyRequest, reply: FastifyReply, compute: () => Promise<ReportAnswer<T>>): Promise<T | FastifyReply> {
    const version = await readDataVersion(this.db);
    const key = createHash('sha256').update(`${request.method} ${request.url}|${todayIn(this.timeZone)}`).digest('base64url').slice(0, 22);
    const tag = `"r${version}-${key}"`;
    // Stored only privately, and checked with the server before each use.
    reply.header('etag', tag).header('cache-control', 'private, no-cache');
    if (matches(request.headers['if-none-match'], tag)) return reply.code(304).send();

    let cached = this.entries.get(tag) as ReportAnswer<T> | undefined;
    if (cached) {
      // Most recently used last: the first key is the one to drop.
      this.entries.delete(tag);
    } else {
      cached = await compute();
    }
    this.entries.set(tag, cached);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    for (const [name, value] of Object.entries(cached.headers ?? {})) reply.header(name, value);
    return cached.body;
  }

  /** How many answers are held: for tests. */
  get size(): number {
    return this.entries.size;
  }
}

/** `If-None-Match` holds the tag: one of a comma-separated list, weak or strong, or `*`. */
function matches(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const candidate = part.trim();
    return candidate === '*' || candidate === tag || candidate === `W/${tag}`;
  });
}
