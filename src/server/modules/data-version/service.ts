import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { todayIn } from '../../../shared/dates';
import type { Database, Executor } from '../../db/client';
import { FreshReads } from '../../db/fresh-reads';
import { compressBody, COMPRESS_THRESHOLD_BYTES, type Encoding, negotiateEncoding } from '../../plugins/compression';
import { RecentMap } from '../../db/recent-map';
import * as repo from './repository';

/**
 * Data versions (DESIGN.md 7.4): numbers in database rows that every write feeding a cached answer
 * bumps in its own transaction. `reports` covers every report; `sign-ins` every write that ends a
 * sign-in session or changes what a session carries (an account's role, name, PIN, state, TOTP).
 */
export const REPORTS = 'reports';
export const SIGN_INS = 'sign-ins';

/**
 * Versions this process has bumped and not yet seen committed, with when: until a read of the row
 * shows them, this process reads the row for every request, so whoever wrote sees their write at
 * once. A bump whose transaction rolled back is forgotten after a while.
 */
const written = new Map<string, { version: number; at: number }>();
const FORGET_UNSEEN_WRITE_MS = 10_000;

/** Bumps a version inside the writer's transaction (announced when it commits); returns the new version. */
export async function bumpDataVersion(tx: Executor, name = REPORTS): Promise<number> {
  const version = await repo.bump(tx, name);
  if (version > (written.get(name)?.version ?? 0)) written.set(name, { version, at: Date.now() });
  return version;
}

/** How many remembered values (DataVersions.remember) a process keeps; the oldest goes first. */
const REMEMBERED_VALUES = 100;

/** How long a version read from its row is trusted, when no notification says otherwise. */
const DEFAULT_TRUST_MS = 1000;

/**
 * What one server process knows of the data versions, so that a request that nothing changed
 * costs no database read:
 *
 * - a version read from its row is trusted for a second (`trustMs`), then read again;
 * - every committed bump in any process is announced (NOTIFY) and raises the version here at once;
 *   a lost notification costs at most that second, as the row is read again anyway;
 * - a bump made by this process is not trusted away: until the row shows it, every request reads
 *   the row, so a save's author never gets figures from before their save.
 *
 * Reads of the row are shared by the requests that ask at the same moment (FreshReads), never one
 * that began before they asked. A version read is always older than or equal to the data read after
 * it, so an answer cached under a version holds at least that version's data.
 */
export class DataVersions {
  private readonly known = new Map<string, { version: number; readAt: number }>();
  private readonly remembered = new RecentMap<string, { version: number; value: unknown }>(REMEMBERED_VALUES);
  private readonly reads: FreshReads<string, number>;
  private unlisten: Promise<(() => Promise<void>) | null> | null = null;

  constructor(
    private readonly database: Pick<Database, 'db' | 'listen'>,
    private readonly trustMs = DEFAULT_TRUST_MS,
  ) {
    this.reads = new FreshReads((name) => this.readRow(name));
  }

  /** Starts listening for the announcements of other processes. */
  async start(): Promise<void> {
    this.unlisten ??= this.database.listen(repo.DATA_VERSION_CHANNEL, (payload) => this.announced(payload)).catch(() => null);
    await this.unlisten;
  }

  async close(): Promise<void> {
    const unlisten = await this.unlisten;
    this.unlisten = null;
    await unlisten?.();
  }

  /** The version of `name` that a request arriving now must see. */
  current(name: string): Promise<number> {
    const known = this.known.get(name);
    const now = Date.now();
    const mine = written.get(name);
    if (mine && now - mine.at > FORGET_UNSEEN_WRITE_MS) written.delete(name);
    const unseenWrite = mine !== undefined && (known === undefined || known.version < mine.version);
    if (known && !unseenWrite && now - known.readAt < this.trustMs) return Promise.resolve(known.version);
    return this.reads.get(name);
  }

  /**
   * A value read from the data that the version `name` covers (the reports' default term, say),
   * read again only once that version has changed. The version is read first, so the value kept
   * under it holds at least that version's data, as ReportCache's answers do.
   */
  async remember<T>(name: string, key: string, read: () => Promise<T>): Promise<T> {
    const version = await this.current(name);
    const id = `${name}\u0000${key}`;
    const kept = this.remembered.get(id);
    if (kept && kept.version === version) return kept.value as T;
    const value = await read();
    this.remembered.set(id, { version, value });
    return value;
  }

  private async readRow(name: string): Promise<number> {
    const readAt = Date.now();
    const version = await repo.read(this.database.db, name);
    const known = this.known.get(name);
    this.known.set(name, { version: Math.max(version, known?.version ?? 0), readAt });
    return Math.max(version, known?.version ?? 0);
  }

  private announced(payload: string): void {
    const separator = payload.lastIndexOf(':');
    const name = payload.slice(0, separator);
    const version = Number(payload.slice(separator + 1));
    const known = this.known.get(name);
    // A newer version only; when it was read stays as it was, so the row is still read every second.
    if (separator > 0 && Number.isSafeInteger(version) && known && version > known.version) {
      this.known.set(name, { version, readAt: known.readAt });
    }
  }
}

/** A computed answer with the headers that go with it (a report names its term in a header). */
export interface ReportAnswer<T> {
  body: T;
  headers?: Record<string, string>;
}

/** An answer as it is sent: serialised once (its size counted once), compressed at most once per encoding. */
interface StoredAnswer {
  body: string | Buffer;
  bytes: number;
  headers: Record<string, string>;
  compressed: Partial<Record<Encoding, Buffer>>;
}

/**
 * Whether Fastify sends a Buffer as bytes here: it knows one by `instanceof ArrayBuffer`, which
 * fails where the globals differ (the component tests run the server under jsdom) and would
 * serialise it as an object. Where it does, an answer is kept as bytes, so that sending it again
 * does not encode its text again; elsewhere as text.
 */
const SENDS_BUFFERS = Buffer.from('{}').buffer instanceof ArrayBuffer;

/** How many answers a process keeps; the least recently used goes first. */
const DEFAULT_ENTRIES = 500;

/**
 * Report answers that nothing has changed are not computed again (DESIGN.md 7.4). Each answer is
 * tagged with the reports' data version (DataVersions: what this process knows of its row), the
 * request's path and query, and today's date in the portal's zone (the windows
 * and the default term follow it). The tag is the ETag: a browser that has it gets 304 and no body;
 * another request with it is answered from memory, as the bytes sent the first time.
 *
 * The version is read before the answer is computed, so an answer cached under a version holds at
 * least that version's data. Guards and access checks run before `answer`.
 */
export class ReportCache {
  private readonly entries: RecentMap<string, StoredAnswer>;
  /** Each request's key (a digest of its path, query and date), kept as answers are. */
  private readonly keys: RecentMap<string, string>;

  constructor(
    private readonly versions: DataVersions,
    private readonly timeZone: string,
    maxEntries = DEFAULT_ENTRIES,
  ) {
    this.entries = new RecentMap(maxEntries);
    this.keys = new RecentMap(maxEntries);
  }

  async answer<T>(request: FastifyRequest, reply: FastifyReply, compute: () => Promise<ReportAnswer<T>>): Promise<FastifyReply> {
    const version = await this.versions.current(REPORTS);
    // An answer to a query with a parameter its route does not read (a cache-busting `?_=…`, say)
    // is sent but not kept: no page asks for it again, and keeping it would push out the answers
    // that are, and churn memory (decision 14).
    const { key, keep } = this.keyOf(request);
    const tag = `"r${version}-${key}"`;
    // Stored only privately, and checked with the server before each use.
    reply.header('etag', tag).header('cache-control', 'private, no-cache');
    if (matches(request.headers['if-none-match'], tag)) return reply.code(304).send();

    let stored = this.entries.get(tag);
    if (!stored) {
      const computed = await compute();
      // The route's own serializer: the answer is checked against its schema once, here.
      const json = reply.serialize(computed.body);
      const text = typeof json === 'string' ? json : Buffer.from(json as Uint8Array).toString('utf8');
      const bytes = Buffer.byteLength(text);
      stored = { body: SENDS_BUFFERS ? Buffer.from(text) : text, bytes, headers: computed.headers ?? {}, compressed: {} };
    }
    // Most recently used last: the first key is the one to drop.
    if (keep) this.entries.set(tag, stored);
    reply.headers(stored.headers).type('application/json; charset=utf-8');
    if (stored.bytes < COMPRESS_THRESHOLD_BYTES) return reply.send(stored.body);
    // As the compression plugin would, but once per answer and encoding rather than per request.
    reply.header('vary', 'accept-encoding');
    const encoding = negotiateEncoding(request.headers['accept-encoding']);
    if (!encoding) return reply.send(stored.body);
    stored.compressed[encoding] ??= compressBody(stored.body, encoding);
    return reply.header('content-encoding', encoding).send(stored.compressed[encoding]);
  }

  /**
   * The request's path, query and today's date, as a digest that fits in a tag, and whether its
   * answer is kept. Only the keys of kept answers are remembered, so a remembered key needs no
   * second look at its query.
   */
  private keyOf(request: FastifyRequest): { key: string; keep: boolean } {
    const plain = `${request.method} ${request.url}|${todayIn(this.timeZone)}`;
    const known = this.keys.get(plain);
    if (known !== undefined) return { key: known, keep: true };
    const key = createHash('sha256').update(plain).digest('base64url').slice(0, 22);
    const keep = readsEveryParameter(request);
    if (keep) this.keys.set(plain, key);
    return { key, keep };
  }

  /** How many answers are held: for tests. */
  get size(): number {
    return this.entries.size;
  }
}

/**
 * Whether the route reads every parameter of the request's query: its schema's checked query
 * (which leaves out what the schema does not name) holds each name of the raw one.
 */
function readsEveryParameter(request: FastifyRequest): boolean {
  const at = request.url.indexOf('?');
  if (at === -1) return true;
  const read = typeof request.query === 'object' && request.query !== null ? request.query : {};
  for (const name of new URLSearchParams(request.url.slice(at + 1)).keys()) {
    if (!Object.hasOwn(read, name)) return false;
  }
  return true;
}

/** `If-None-Match` holds the tag: one of a comma-separated list, weak or strong, or `*`. */
function matches(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const candidate = part.trim();
    return candidate === '*' || candidate === tag || candidate === `W/${tag}`;
  });
}
