import type { Database, Executor } from '../../db/client';
import { FreshReads } from '../../db/fresh-reads';
import { RecentMap } from '../../db/recent-map';
import * as repo from './repository';

/**
 * Data versions (decisions 14, 28, 52): numbers in database rows that every write feeding a cached
 * answer bumps in its own transaction. `reports` covers every report, and is bumped by every such
 * write but a register's save; a save bumps `marks` (the reports that sum marks) and `marks:<class>`
 * for each class whose students' marks it changed (their records), so that a save in one class
 * leaves the records of every other class's students cached; a save of an earlier day also bumps
 * `marks-earlier-days` (the dashboard series' earlier days, decision 54). `sign-ins` covers every write that
 * ends a sign-in session or changes what a session carries (an account's role, name, PIN, state, TOTP).
 */
export const REPORTS = 'reports';
export const MARKS = repo.MARKS_VERSION;
/**
 * Bumped with `marks` by a save of a day before the saver's today: the dashboard's series keeps
 * the sums of the days before yesterday under it (decision 54). Not `marks:...`, which names classes.
 */
export const MARKS_OF_EARLIER_DAYS = 'marks-earlier-days';
export const SIGN_INS = 'sign-ins';

/** The version of the marks of one class's students (decision 52). */
export function marksOfClass(className: string): string {
  return `${MARKS}:${className}`;
}

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
  noteWritten(name, version);
  return version;
}

/**
 * A register save's bumps: `marks`, then that of the earlier days when the register's day is
 * before today, then each class's (always in this order, as every save takes them, so that two
 * saves never wait for each other's rows crosswise). The others take the new `marks` value
 * (decision 55): the classes saved since a `marks` value are those whose version is above it.
 */
export async function bumpMarkVersions(tx: Executor, classNames: Iterable<string>, options: { earlierDay: boolean }): Promise<void> {
  const names = [...(options.earlierDay ? [MARKS_OF_EARLIER_DAYS] : []), ...[...new Set(classNames)].sort().map(marksOfClass)];
  for (const [name, version] of await repo.bumpWithMarks(tx, names)) noteWritten(name, version);
}

/** Remembers a bump of this process until a read of its row shows it (see `written`). */
function noteWritten(name: string, version: number): void {
  if (version > (written.get(name)?.version ?? 0)) written.set(name, { version, at: Date.now() });
}

/** How many remembered values (DataVersions.remember) a process keeps; the oldest goes first. */
const REMEMBERED_VALUES = 100;
/** How many values kept per key (DataVersions.rememberPerKey, such as a student's class) a process keeps. */
const REMEMBERED_PER_KEY = 10_000;

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
  private readonly rememberedPerKey = new RecentMap<string, { version: number; value: unknown }>(REMEMBERED_PER_KEY);
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
  remember<T>(name: string, key: string, read: () => Promise<T>): Promise<T> {
    return this.rememberIn(this.remembered, name, key, read);
  }

  /**
   * As `remember`, for values of which there is one per student or such (thousands): they are kept
   * apart, so that they never push out the few values every request needs.
   */
  rememberPerKey<T>(name: string, key: string, read: () => Promise<T>): Promise<T> {
    return this.rememberIn(this.rememberedPerKey, name, key, read);
  }

  private async rememberIn<T>(store: RecentMap<string, { version: number; value: unknown }>, name: string, key: string, read: () => Promise<T>): Promise<T> {
    const version = await this.current(name);
    const id = `${name}\u0000${key}`;
    const kept = store.get(id);
    if (kept && kept.version === version) return kept.value as T;
    const value = await read();
    store.set(id, { version, value });
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
