import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { todayIn } from '../../shared/dates';
import { RecentMap } from '../db/recent-map';
import { compressBody, COMPRESS_THRESHOLD_BYTES, type Encoding, negotiateEncoding } from './compression';

/**
 * A computed answer with the headers that go with it (a report names its term in a header): its
 * body, which the route's serializer writes, or the JSON the route wrote itself (with its own
 * checks: the dashboard's, which keeps the JSON of its class rows).
 */
export type ReportAnswer<T> = { body: T; headers?: Record<string, string> } | { json: string; headers?: Record<string, string> };

/** What `reply.serialize` gives, as text (it may give bytes). */
export function serialized(json: unknown): string {
  return typeof json === 'string' ? json : Buffer.from(json as Uint8Array).toString('utf8');
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
 * Report answers that nothing has changed are not computed again (decision 14). Each answer is
 * tagged with the data versions it depends on (what this process knows of their rows, as the app
 * hands them over, or as a route names them for one answer: decision 52), the request's path and
 * query, and today's date in the portal's zone (the windows and the default term follow it). The tag is the ETag: a browser that has it gets 304 and no body; another
 * request with it is answered from memory, as the bytes sent the first time.
 *
 * The version is read before the answer is computed, so an answer cached under a version holds at
 * least that version's data. Guards and access checks run before `answer`. The HTTP of it stays
 * here: a route hands `answer` its service's plain data to compute.
 */
export class ReportCache {
  private readonly entries: RecentMap<string, StoredAnswer>;
  /** Each request's key (a digest of its path, query and date), kept as answers are. */
  private readonly keys: RecentMap<string, string>;

  constructor(
    /** The data versions a request arriving now must see, as one tag (`12.340`, say). */
    private readonly version: () => Promise<string | number>,
    private readonly timeZone: string,
    maxEntries = DEFAULT_ENTRIES,
    /** Told of each answer: `hit` when it was not computed (sent from memory, or 304), `miss` when it was. */
    private readonly count: (outcome: 'hit' | 'miss') => void = () => undefined,
  ) {
    this.entries = new RecentMap(maxEntries);
    this.keys = new RecentMap(maxEntries);
  }

  /** `versionOf`, where given, stands for the cache's own: the narrower versions this answer depends on. */
  async answer<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    compute: () => Promise<ReportAnswer<T>>,
    versionOf: () => Promise<string | number> = this.version,
  ): Promise<FastifyReply> {
    const version = await versionOf();
    // An answer to a query with a parameter its route does not read (a cache-busting `?_=…`, say)
    // is sent but not kept: no page asks for it again, and keeping it would push out the answers
    // that are, and churn memory (decision 14).
    const { key, keep } = this.keyOf(request);
    const tag = `"r${version}-${key}"`;
    // Stored only privately, and checked with the server before each use.
    reply.header('etag', tag).header('cache-control', 'private, no-cache');
    if (matches(request.headers['if-none-match'], tag)) {
      this.count('hit');
      return reply.code(304).send();
    }

    let stored = this.entries.get(tag);
    this.count(stored ? 'hit' : 'miss');
    if (!stored) {
      const computed = await compute();
      // The route's own serializer: the answer is checked against its schema once, here.
      const text = 'json' in computed ? computed.json : serialized(reply.serialize(computed.body));
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
