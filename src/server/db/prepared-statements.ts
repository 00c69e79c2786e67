import { createHash } from 'node:crypto';
import type { PGlite, QueryOptions, Results, Transaction, messages as PgliteMessages } from '@electric-sql/pglite';
import type pg from 'pg';
import { knownParsers, readResults } from './pglite-results';

/**
 * Statements the portal repeats, kept prepared (docs/decisions/0020-prepared-statements.md): the
 * database parses a statement once per connection and plans it for its parameters the first times,
 * then keeps a generic plan where that costs no more. For the reports' reads, parsing and planning
 * were most of the database's work per request, their execution a few index lookups.
 *
 * Kept: statements that read or write rows (`select`, `insert`, `update`, `delete`, `with`) with
 * at most MAX_PARAMETERS parameters (a list of as many PINs as a class has students varies with the
 * list), the first MAX_STATEMENTS texts of a process. Never: DDL, `lock`, `listen`, transaction
 * control. Drizzle writes one query shape as one text, so nothing in the modules changes.
 */
export const MAX_STATEMENTS = 500;
export const MAX_PARAMETERS = 64;

const ROWS = /^\s*(select|insert|update|delete|with)\b/i;
/** Statements that announce on a channel: PGlite's own reader hands their notifications to its listeners. */
const ANNOUNCES = /\bpg_notify\b/i;
/**
 * Statements that read: no sync of PGlite's file system after them. That sync writes out what an
 * in-memory file system holds (a browser's); the portal's are a folder, which PostgreSQL's own
 * writes go through to, and memory (tests), and for both it does nothing. On the embedded
 * database's thread it was one more message to the thread after every read, as many as the reads
 * themselves (docs/decisions/0023-pglite-thread.md).
 */
const READS = /^\s*select\b/i;
/** Statements that change the schema: a statement prepared before one may no longer fit it. */
const SCHEMA_CHANGE = /^\s*(alter|create|drop|truncate|comment|grant|revoke)\b/i;

/** Whether a statement of this text and number of parameters is one to keep prepared. */
export function isKept(text: string, parameters: number): boolean {
  return parameters <= MAX_PARAMETERS && ROWS.test(text);
}

/**
 * node-postgres's client with every kept statement named after a hash of its text: node-postgres
 * then parses it once per connection and sends only its parameters afterwards. Each connection of
 * the pool keeps the statements it has run, at most MAX_STATEMENTS of them.
 */
export function preparingClient(base: typeof pg.Client): typeof pg.Client {
  const names = new Map<string, string>();
  const nameOf = (text: string, parameters: number): string | undefined => {
    const known = names.get(text);
    if (known !== undefined || names.size >= MAX_STATEMENTS || !isKept(text, parameters)) return known;
    const name = `portal_${createHash('sha1').update(text).digest('base64url')}`;
    names.set(text, name);
    return name;
  };
  const query = base.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
  class PreparingClient extends base {}
  PreparingClient.prototype.query = function (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) {
    if (typeof config === 'object' && config !== null && !('submit' in config) && !('name' in config && config.name)) {
      const { text, values: inConfig } = config as { text?: unknown; values?: unknown };
      const given = Array.isArray(values) ? values : inConfig;
      const name = typeof text === 'string' ? nameOf(text, Array.isArray(given) ? given.length : 0) : undefined;
      if (name !== undefined) config = { ...config, name };
    }
    return query.call(this, config, values, callback);
  } as pg.Client['query'];
  return PreparingClient;
}

type BackendMessage = PgliteMessages.BackendMessage;

type Query = <T>(text: string, params?: unknown[], options?: QueryOptions) => Promise<Results<T>>;

interface Prepared {
  name: string;
  /** The parameters' type ids, which say how each value is written. */
  types: number[];
}

/**
 * The same for the embedded database, which has one session and no named statements in its query
 * API: PGlite's `query` (and a transaction's) are replaced, on this instance, by one that sends a
 * kept statement's Parse once and afterwards only Bind, Describe, Execute and Sync, with PGlite's
 * own protocol writer and value writers, sent under the same locks as its own `query` (given up
 * once sent: see `send`); the answer is read in place (pglite-results.ts), or by PGlite's parser
 * when it holds an error or announces.
 * Anything else goes to PGlite's `query` unchanged. A statement that changes the schema forgets
 * every prepared one (DEALLOCATE ALL): a migration may change what they return.
 */
export async function preparePglite(client: PGlite): Promise<void> {
  const { protocol, parse, messages: backend, types } = await import('@electric-sql/pglite');
  const { serialize } = protocol;
  const known = knownParsers(types);
  const statements = new Map<string, Prepared>();
  let nextName = 0;

  async function prepare(text: string, options: QueryOptions | undefined): Promise<Prepared> {
    const name = `portal_${(nextName += 1)}`;
    const messages = await client.execProtocolStream(
      Buffer.concat([serialize.parse({ name, text, types: options?.paramTypes }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    );
    const prepared = { name, types: parse.parseDescribeStatementResults(messages) };
    statements.set(text, prepared);
    return prepared;
  }

  /**
   * Sends a kept statement (prepared first when new), under PGlite's query lock; resolves once it
   * is sent, to its answer to come. The database runs what it is sent in order, each message ending
   * in its own Sync: the lock is given up before the answer comes, so that other requests' reads go
   * out meanwhile and the database's thread goes from one to the next without waiting for this
   * one's answer to come back to the server's thread (pglite-thread.ts).
   */
  async function send<T>(text: string, params: unknown[], options: QueryOptions | undefined): Promise<{ answer: Promise<Results<T>> }> {
    const { name, types } = statements.get(text) ?? (await prepare(text, options));
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const write = options?.serializers?.[types[index]!] ?? client.serializers[types[index]!];
      return write ? write(value) : String(value);
    });
    const message = Buffer.concat([serialize.bind({ statement: name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]);
    const [parsers, rest] = parsersFor(options);
    if (ANNOUNCES.test(text)) {
      const messages = await client.execProtocolStream(message, { syncToFs: false });
      return { answer: Promise.resolve(parse.parseResults(messages, parsers, rest)[0] as Results<T>) };
    }
    // The answer's bytes, read in place (pglite-results.ts); PGlite hands them over in pieces that
    // it may reuse, so each piece is copied once. The message is sent by this call.
    const pieces: Buffer[] = [];
    const sent = client.execProtocolRawStream(message, { syncToFs: false, onRawData: (piece) => pieces.push(Buffer.from(piece)) });
    return { answer: sent.then(() => read<T>(pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces), parsers, rest)) };
  }

  function read<T>(answer: Buffer, parsers: PGlite['parsers'], rest: QueryOptions | undefined): Results<T> {
    const results = readResults<T>(answer, parsers, known, rest?.rowMode);
    if (results !== undefined) return results;
    // An error (or an unexpected notification): PGlite's own parser makes the same objects as its `query`.
    const messages: BackendMessage[] = [];
    new protocol.Parser().parse(answer, (parsed) => messages.push(parsed));
    const error = messages.find((parsed) => parsed instanceof backend.DatabaseError);
    if (error) throw error;
    return parse.parseResults(messages, parsers, rest)[0] as Results<T>;
  }

  /**
   * The value parsers for a query: PGlite's, with the query's own (Drizzle passes its four for dates
   * and times with every query) in front. Given both, PGlite's result parser copies its map of some
   * 300 type parsers into a new object for every query, about 0.1 ms each; an object that inherits
   * PGlite's map costs nothing to make and reads the same.
   */
  const merged = new WeakMap<NonNullable<QueryOptions['parsers']>, PGlite['parsers']>();
  function parsersFor(options: QueryOptions | undefined): [PGlite['parsers'], QueryOptions | undefined] {
    if (!options?.parsers) return [client.parsers, options];
    // A query prepared by Drizzle brings the same parsers every time: their merge is made once.
    let parsers = merged.get(options.parsers);
    if (parsers === undefined) {
      parsers = Object.assign(Object.create(client.parsers) as PGlite['parsers'], options.parsers);
      merged.set(options.parsers, parsers);
    }
    return [parsers, { ...options, parsers: undefined }];
  }

  const forget = async (via: Query) => {
    statements.clear();
    await via('deallocate all');
  };

  /** `query` of PGlite or of a transaction, with kept statements prepared. */
  function preparing(original: Query, locked: <T>(work: () => Promise<T>) => Promise<T>, transaction?: Transaction): Query {
    return async <T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> => {
      if (transaction?.closed) throw new Error('Transaction is closed');
      const kept = statements.has(text) || (statements.size < MAX_STATEMENTS && isKept(text, params.length) && !options?.blob);
      if (!kept) {
        const results = await original<T>(text, params, options);
        if (SCHEMA_CHANGE.test(text) && statements.size > 0) await forget(original);
        return results;
      }
      const { answer } = await locked(() => send<T>(text, params, options));
      const results = await answer;
      // As PGlite's `query` does outside a transaction, but not after a read: see READS.
      if (!transaction && !READS.test(text)) await client.syncToFs();
      return results;
    };
  }

  const query = client.query.bind(client) as Query;
  client.query = preparing(query, (work) => client._runExclusiveTransaction(() => client._runExclusiveQuery(work))) as PGlite['query'];
  const transaction = client.transaction.bind(client);
  client.transaction = (<T>(work: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      const txQuery = tx.query.bind(tx) as Query;
      const wrapped: Transaction = Object.create(tx, {
        query: { value: preparing(txQuery, (inner) => client._runExclusiveQuery(inner), tx) },
      });
      return work(wrapped);
    })) as PGlite['transaction'];
}
