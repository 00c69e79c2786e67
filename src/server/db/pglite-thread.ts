import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { isMainThread, parentPort, receiveMessageOnPort, Worker, workerData } from 'node:worker_threads';
import type * as PgliteModule from '@electric-sql/pglite';
import type { messages as PgliteMessages, PGlite, PGliteOptions, Transaction } from '@electric-sql/pglite';

/**
 * The embedded database in a thread of its own (docs/decisions/0023-pglite-thread.md).
 *
 * PGlite runs PostgreSQL compiled to WebAssembly inside the process that calls it: in the server's
 * one JavaScript thread, every query's execution held up every request, and a busy server on the
 * embedded database used one core of the machine while PostgreSQL's processes use the others. Here
 * the WebAssembly runs in a worker thread that does nothing else: it takes a protocol message,
 * runs it, and hands back the answer's bytes. Everything else stays in the server's thread, where
 * it was: PGlite's own query and transaction code (this class is a PGlite, built on the same base
 * class as PGlite's own worker client), its locks, the value parsers and serializers, the reading
 * of answers, errors with their codes, and the listeners of notifications.
 *
 * This module is both sides: imported, it exports `startPgliteThread`; run as the worker (the
 * worker is this same file, so the server's build needs no second entry), it opens the database.
 * Run as a child process, it makes a new data folder (`makeDatabaseFolder`).
 */

/** PGlite's two WebAssembly modules, compiled (docs/decisions/0023-pglite-thread.md). */
type Compiled = Required<Pick<PGliteOptions, 'pgliteWasmModule' | 'initdbWasmModule'>>;

/** What the worker opens. */
interface Opening {
  dataDir: string | undefined;
  /** With the compiled modules once a worker of this process has compiled them. */
  options: PGliteOptions;
}

/** Messages to the worker. */
type Request = { id: number; op: 'exec'; message: Uint8Array; sync: boolean } | { op: 'sync' } | { id: number; op: 'close' };

/** Messages from the worker. */
type Reply =
  | { type: 'ready'; compiled: Compiled }
  | { type: 'failed'; message: string; stack?: string | undefined }
  | { type: 'done'; id: number; data?: Uint8Array | undefined; error?: { message: string; stack?: string | undefined } };

const ROLE = 'portal-pglite';

/** How long the worker watches for the next request before it sleeps (see `drain`). */
const WATCH_MS = 0.5;

/**
 * The worker's JavaScript heap: its young generation (where short-lived objects go) kept small.
 * The worker makes little garbage (a few objects per request; answers are buffers outside the
 * heap), and V8's default let an idle server on the embedded database weigh some 20 MB more.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 4 };

/** An error as the other thread gets it: PGlite may throw objects that are not Errors (a file system's ErrnoError). */
const describe = (err: unknown) =>
  err instanceof Error ? { message: err.message, stack: err.stack } : { message: inspect(err, { breakLength: Infinity }), stack: undefined };

/** PGlite's WebAssembly, compiled here: what PGlite would do, but the modules can then be handed on. */
async function compile(): Promise<Compiled> {
  // The package exports both files by name.
  const module = async (name: string) => WebAssembly.compile(await readFile(new URL(import.meta.resolve(`@electric-sql/pglite/${name}`))));
  const [pgliteWasmModule, initdbWasmModule] = await Promise.all([module('pglite.wasm'), module('initdb.wasm')]);
  return { pgliteWasmModule, initdbWasmModule };
}

/** The worker's side: one PGlite, one message at a time, in the order sent. */
async function serveDatabase({ dataDir, options }: Opening): Promise<void> {
  const port = parentPort!;
  let database: PGlite;
  let compiled: Compiled;
  try {
    const given = options.pgliteWasmModule && options.initdbWasmModule ? (options as Compiled) : undefined;
    const [{ PGlite }, modules] = await Promise.all([import('@electric-sql/pglite'), given ?? compile()]);
    compiled = modules;
    database = dataDir ? new PGlite(dataDir, { ...options, ...compiled }) : new PGlite({ ...options, ...compiled });
    await database.waitReady;
  } catch (err) {
    port.postMessage({ type: 'failed', ...describe(err) } satisfies Reply);
    return;
  }
  let syncFailed: unknown;
  let closed = false;
  async function handle(request: Request): Promise<void> {
    try {
      if (syncFailed !== undefined && request.op !== 'sync') {
        const failed = syncFailed;
        syncFailed = undefined;
        throw failed;
      }
      if (request.op === 'exec') {
        // The answer comes in pieces that PGlite reuses: each is copied, and the whole sent as one
        // buffer that moves to the other thread without a further copy.
        const pieces: Uint8Array[] = [];
        let size = 0;
        await database.execProtocolRawStream(request.message, {
          syncToFs: request.sync,
          onRawData: (piece) => {
            pieces.push(piece.slice());
            size += piece.length;
          },
        });
        let data = pieces[0] ?? new Uint8Array(0);
        if (pieces.length > 1) {
          data = new Uint8Array(size);
          let at = 0;
          for (const piece of pieces) {
            data.set(piece, at);
            at += piece.length;
          }
        }
        port.postMessage({ type: 'done', id: request.id, data } satisfies Reply, [data.buffer as ArrayBuffer]);
      } else if (request.op === 'sync') {
        await database.syncToFs();
      } else {
        await database.close();
        closed = true;
        port.postMessage({ type: 'done', id: request.id } satisfies Reply);
        port.close();
      }
    } catch (err) {
      // No one waits for a sync: its failure is the answer to the next request instead.
      if (request.op === 'sync') syncFailed = err;
      else port.postMessage({ type: 'done', id: request.id, error: describe(err) } satisfies Reply);
    }
  }

  // Requests are handled one at a time, in the order sent. After the last one, the worker watches
  // for the next for a little while before it sleeps: waking a sleeping thread costs about 0.1-0.2
  // ms on the machines measured, more than a report's statement, and under load the next request
  // comes sooner than that.
  const queue: Request[] = [];
  let handling = false;
  async function drain(): Promise<void> {
    if (handling) return;
    handling = true;
    try {
      for (;;) {
        let request: Request | undefined;
        while ((request = queue.shift()) !== undefined) await handle(request);
        if (closed) break;
        const until = performance.now() + WATCH_MS;
        let next: { message: Request } | undefined;
        while ((next = receiveMessageOnPort(port) as { message: Request } | undefined) === undefined && performance.now() < until);
        if (next === undefined) break;
        queue.push(next.message);
      }
    } finally {
      handling = false;
    }
  }
  port.on('message', (request: Request) => {
    queue.push(request);
    void drain();
  });
  port.postMessage({ type: 'ready', compiled: { pgliteWasmModule: compiled.pgliteWasmModule, initdbWasmModule: compiled.initdbWasmModule } } satisfies Reply);
}

if (!isMainThread && (workerData as { role?: unknown } | null)?.role === ROLE) {
  void serveDatabase((workerData as { opening: Opening }).opening);
}

/** The environment variable that makes a child process of this file make a data folder (`FolderToMake`). */
const FOLDER_TO_MAKE = 'PORTAL_PGLITE_NEW_FOLDER';

/** What the child process makes: the folder, with PGlite's options, and the migrations to apply (none when absent). */
interface FolderToMake {
  dataDir: string;
  options: PGliteOptions;
  migrationsFolder?: string | undefined;
}

/** The child's side of `makeDatabaseFolder`: PGlite's initdb on the folder, the migrations, then close, and the reason if it cannot. */
async function makeFolder({ dataDir, options, migrationsFolder }: FolderToMake): Promise<void> {
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const database = new PGlite(dataDir, options);
    await database.waitReady;
    if (migrationsFolder !== undefined) {
      const [{ drizzle }, { migrate }, { migrationError }] = await Promise.all([
        import('drizzle-orm/pglite'),
        import('drizzle-orm/pglite/migrator'),
        import('./migration-error'),
      ]);
      await migrate(drizzle(database), { migrationsFolder }).catch((err: unknown) => {
        throw migrationError(err);
      });
    }
    await database.close();
    process.exit(0);
  } catch (err) {
    process.send!({ type: 'failed', ...describe(err) } satisfies Reply, () => process.exit(1));
  }
}

if (isMainThread && process.send && process.env[FOLDER_TO_MAKE]) {
  void makeFolder(JSON.parse(process.env[FOLDER_TO_MAKE]) as FolderToMake);
}

type Listener = (payload: string) => void;

/** A channel's name as PostgreSQL keeps it: folded to lower case unless quoted (as PGlite does). */
const postgresName = (channel: string) => (channel.startsWith('"') && channel.endsWith('"') ? channel.slice(1, -1) : channel.toLowerCase());

/** From the TypeScript source (tests, `npm run dev`, the `portal` command): JavaScript that registers tsx, then loads this file. */
function bootFromSource(): string | undefined {
  const file = import.meta.url;
  if (!file.endsWith('.ts')) return undefined;
  const tsx = import.meta.resolve('tsx/esm/api');
  return `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(file)}); });`;
}

/**
 * The worker: this module's own file. From the TypeScript source, tsx is registered in the worker
 * first; Node 20 does not pass `--import` on to a worker.
 */
function startWorker(opening: Opening): Worker {
  const data = { workerData: { role: ROLE, opening }, resourceLimits: WORKER_LIMITS };
  const boot = bootFromSource();
  return boot === undefined ? new Worker(new URL(import.meta.url), data) : new Worker(boot, { ...data, eval: true });
}

/**
 * Makes a new embedded database in `dataDir` (PostgreSQL's initdb) and applies the migrations of
 * `migrationsFolder` when given, in a child process that then ends: what initdb and the migrations
 * allocate stays with the process that ran them. In a thread, the WebAssembly memory went with the
 * thread, but the memory allocator kept what the thread's file reads and writes had taken (some 90
 * MB: a server's first start on a new folder weighed 285-320 MB, and 214-235 MB once restarted),
 * and migrations run by the serving thread kept some 30 MB more. Rejects with PGlite's reason when
 * the folder cannot be one, and as `migrateDatabase` does when a migration fails.
 */
export function makeDatabaseFolder(dataDir: string, options: PGliteOptions, migrationsFolder?: string): Promise<void> {
  const boot = bootFromSource();
  const args = boot === undefined ? [fileURLToPath(import.meta.url)] : ['--input-type=module', '--eval', boot];
  const folder: FolderToMake = { dataDir, options, migrationsFolder };
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [FOLDER_TO_MAKE]: JSON.stringify(folder) },
  });
  return new Promise<void>((resolve, reject) => {
    let failure: Error | undefined;
    child.on('message', (reply: Reply) => {
      if (reply.type === 'failed') failure = Object.assign(new Error(reply.message), { stack: reply.stack });
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(failure ?? new Error(`The embedded database could not be made (${signal ?? `exit code ${code}`})`));
    });
  });
}

/**
 * PGlite's WebAssembly as the first worker of this process compiled it, handed to the next ones:
 * a compiled module passes to a thread without a copy, and a worker given one starts about a
 * second sooner than one compiling its own (V8 keeps the optimised code with the module). The
 * first compiles its own, so that starting the server waits for nothing in this thread.
 */
let compiledBefore: Compiled | undefined;

/** What the client uses of PGlite's base class, which PGlite does not export by name: PGlite's prototype. */
interface PgliteBase {
  query: PGlite['query'];
  exec: PGlite['exec'];
  _initArrayTypes(): Promise<void>;
}

type Pglite = typeof PgliteModule;

/**
 * The server thread's side, a class made once PGlite's code is loaded: PGlite's code loads in
 * this thread while the worker starts, not before.
 */
function defineClient({ PGlite, Mutex, protocol, messages: backend }: Pglite) {
  const BasePGlite = Object.getPrototypeOf(PGlite) as abstract new () => PgliteBase;
  if (typeof (BasePGlite.prototype as Partial<PgliteBase>).query !== 'function') {
    throw new Error("This version of PGlite has no base class with PGlite's query API");
  }
  type BackendMessage = PgliteMessages.BackendMessage;

  return class PgliteThread extends BasePGlite {
    debug = 0 as const;
    readonly #worker: Worker;
    readonly #pending = new Map<number, { resolve: (data: Uint8Array | undefined) => void; reject: (err: Error) => void }>();
    #nextId = 0;
    /** Why the worker can no longer be used, once it cannot. */
    #stopped: Error | undefined;
    #closing = false;
    readonly #queryMutex = new Mutex();
    readonly #transactionMutex = new Mutex();
    readonly #listeners = new Map<string, Set<Listener>>();
    /** Until the worker's database is ready: what is sent meanwhile waits for it. */
    #starting: Promise<void> | undefined;

    constructor(worker: Worker, started: Promise<void>) {
      super();
      this.#worker = worker;
      this.#starting = started.then(
        () => {
          this.#starting = undefined;
          // Idle, the worker does not keep the process alive; while a request waits, it does.
          if (this.#pending.size === 0) worker.unref();
        },
        (err: unknown) => {
          this.#stopped ??= err instanceof Error ? err : new Error(String(err));
          throw this.#stopped;
        },
      );
      this.#starting.catch(() => undefined);
      worker.on('message', (reply: Reply) => {
        if (reply.type !== 'done') return;
        const waiting = this.#pending.get(reply.id);
        if (!waiting) return;
        this.#pending.delete(reply.id);
        if (this.#pending.size === 0) worker.unref();
        if (reply.error) waiting.reject(Object.assign(new Error(reply.error.message), { stack: reply.error.stack }));
        else waiting.resolve(reply.data);
      });
      const stop = (reason: Error) => {
        this.#stopped ??= reason;
        for (const waiting of this.#pending.values()) waiting.reject(this.#stopped);
        this.#pending.clear();
      };
      worker.on('error', (err) => stop(new Error(`The embedded database stopped: ${err.message}`, { cause: err })));
      worker.on('exit', (code) => stop(new Error(code === 0 ? 'PGlite is closed' : `The embedded database stopped (exit code ${code})`)));
    }

    /**
     * Sends a request (the worker answers in the order sent), once the database is ready; resolves
     * with its answer.
     */
    #call(request: Extract<Request, { id: number }>): Promise<Uint8Array | undefined> {
      if (this.#starting) return this.#starting.then(() => this.#call(request));
      if (this.#stopped) return Promise.reject(this.#stopped);
      return new Promise((resolve, reject) => {
        if (this.#pending.size === 0) this.#worker.ref();
        this.#pending.set(request.id, { resolve, reject });
        this.#worker.postMessage(request);
      });
    }

    async execProtocolRaw(message: Uint8Array, { syncToFs = true }: { syncToFs?: boolean } = {}): Promise<Uint8Array> {
      return (await this.#call({ id: (this.#nextId += 1), op: 'exec', message, sync: syncToFs })) ?? new Uint8Array(0);
    }

    async execProtocolRawStream(message: Uint8Array, { syncToFs = true, onRawData }: { syncToFs?: boolean; onRawData: (data: Uint8Array) => void }): Promise<void> {
      onRawData(await this.execProtocolRaw(message, { syncToFs }));
    }

    /** As PGlite's: the answer's messages, its first error thrown, notices and notifications handed on. */
    async execProtocolStream(
      message: Uint8Array,
      { syncToFs, throwOnError = true, onNotice }: { syncToFs?: boolean; throwOnError?: boolean; onNotice?: (notice: PgliteMessages.NoticeMessage) => void } = {},
    ): Promise<BackendMessage[]> {
      const data = await this.execProtocolRaw(message, { syncToFs: syncToFs ?? true });
      const messages: BackendMessage[] = [];
      let error: PgliteMessages.DatabaseError | undefined;
      new protocol.Parser().parse(data, (parsed) => {
        if (error) return;
        if (parsed instanceof backend.DatabaseError) {
          if (throwOnError) error = parsed;
        } else if (parsed instanceof backend.NoticeMessage) {
          onNotice?.(parsed);
        } else if (parsed instanceof backend.NotificationResponseMessage) {
          for (const listener of this.#listeners.get(parsed.channel) ?? []) queueMicrotask(() => listener(parsed.payload));
        }
        messages.push(parsed);
      });
      if (error) throw error;
      return messages;
    }

    async execProtocol(message: Uint8Array, options: { syncToFs?: boolean; throwOnError?: boolean } = {}) {
      const messages = await this.execProtocolStream(message, options);
      return { messages, data: new Uint8Array(0) };
    }

    /**
     * Asks the worker to write what PGlite keeps in memory to the data folder, after what was sent
     * before. Not waited for: on Node, PGlite's file systems (a folder, memory) write through and
     * their sync does nothing, and a round trip to the worker after every query would cost more
     * than the query.
     */
    async syncToFs(): Promise<void> {
      // Before the database is ready, nothing has been written yet.
      if (!this.#stopped && !this.#starting) this.#worker.postMessage({ op: 'sync' } satisfies Request);
    }

    async _handleBlob(blob?: unknown): Promise<void> {
      if (blob) throw new Error('Files attached to queries are not used by the portal');
    }

    async _getWrittenBlob(): Promise<undefined> {
      return undefined;
    }

    async _cleanupBlob(): Promise<void> {}

    async _checkReady(): Promise<void> {
      if (this.#starting) await this.#starting;
      if (this.#closing) throw new Error('PGlite is closing');
      if (this.#stopped) throw this.#stopped;
    }

    _runExclusiveQuery<T>(work: () => Promise<T>): Promise<T> {
      return this.#queryMutex.runExclusive(work);
    }

    _runExclusiveTransaction<T>(work: () => Promise<T>): Promise<T> {
      return this.#transactionMutex.runExclusive(work);
    }

    /**
     * Requests sent to the database's thread and not answered yet: the one it runs and those queued
     * behind it (kept statements are sent without waiting for the one before to be answered).
     */
    get queriesInProgress(): number {
      return this.#pending.size;
    }

    async listen(channel: string, callback: Listener, tx?: Transaction): Promise<(tx?: Transaction) => Promise<void>> {
      const name = postgresName(channel);
      const listeners = this.#listeners.get(name) ?? new Set<Listener>();
      this.#listeners.set(name, listeners);
      listeners.add(callback);
      try {
        await (tx ?? this).exec(`LISTEN ${channel}`);
      } catch (err) {
        listeners.delete(callback);
        if (listeners.size === 0) this.#listeners.delete(name);
        throw err;
      }
      return async (inTx?: Transaction) => {
        listeners.delete(callback);
        if (listeners.size === 0 && this.#listeners.get(name) === listeners) {
          this.#listeners.delete(name);
          await (inTx ?? this).exec(`UNLISTEN ${channel}`);
        }
      };
    }

    get closed(): boolean {
      return this.#stopped !== undefined;
    }

    /** Waits for the queries and transactions under way, then closes the database and ends the worker. */
    async close(): Promise<void> {
      await this._checkReady();
      await this.#transactionMutex.runExclusive(() => this.#queryMutex.runExclusive(async () => {
        await this._checkReady();
        this.#closing = true;
      }));
      try {
        await this.#call({ id: (this.#nextId += 1), op: 'close' });
        this.#listeners.clear();
        // The worker ends itself once the database is closed; until then it keeps the process alive.
        this.#worker.ref();
        await new Promise<void>((resolve) => {
          if (this.#stopped) resolve();
          else this.#worker.once('exit', () => resolve());
        });
      } finally {
        this.#closing = false;
        this.#stopped ??= new Error('PGlite is closed');
        await this.#worker.terminate();
      }
    }
  };
}

let client: Promise<ReturnType<typeof defineClient>> | undefined;
const clientClass = () => (client ??= import('@electric-sql/pglite').then(defineClient));

/** Resolves once the worker's database is ready; rejects with PGlite's reason when it cannot start. */
function startedIn(worker: Worker): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onMessage = (reply: Reply) => {
      if (reply.type === 'ready') {
        compiledBefore ??= reply.compiled;
        resolve();
      }
      else if (reply.type === 'failed') reject(Object.assign(new Error(reply.message), { stack: reply.stack }));
      else return;
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      worker.off('error', reject);
    };
    const onExit = (code: number) => reject(new Error(`The embedded database did not start (exit code ${code})`));
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.once('exit', onExit);
  });
}

/** The embedded database's thread being started: its client at once, and when it is ready. */
export interface StartingThread {
  /**
   * Used as a PGlite: Drizzle's driver and the portal's prepared statements see no difference.
   * What it is asked before `ready` waits for the database to start.
   */
  client: PGlite & { readonly queriesInProgress: number };
  /** Resolves once the database is open; rejects with PGlite's own message when it cannot start. */
  ready: Promise<void>;
}

/**
 * Starts the embedded database (a folder, or memory when `dataDir` is absent) in its own thread,
 * and gives its client as soon as PGlite's code is loaded in this thread (meanwhile, the worker
 * starts): a server builds its routes with it while the database opens. A database that cannot
 * start ends its worker, and its client refuses every query with the reason.
 */
export async function beginPgliteThread(dataDir: string | undefined, options: PGliteOptions): Promise<StartingThread> {
  const worker = startWorker({ dataDir, options: { ...options, ...compiledBefore } });
  const started = startedIn(worker);
  started.catch(() => undefined);
  let Client: ReturnType<typeof defineClient>;
  try {
    Client = await clientClass();
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  const thread = new Client(worker, started);
  const ready = started.then(
    () => thread._initArrayTypes(),
    async (err: unknown) => {
      await worker.terminate();
      throw err;
    },
  );
  ready.catch(() => undefined);
  return { client: thread as unknown as StartingThread['client'], ready };
}

/**
 * Starts the embedded database in its own thread (see `beginPgliteThread`) and resolves once it is
 * ready. Fails with PGlite's own message when the database cannot start.
 */
export async function startPgliteThread(dataDir: string | undefined, options: PGliteOptions): Promise<PGlite> {
  const { client, ready } = await beginPgliteThread(dataDir, options);
  await ready;
  return client;
}
