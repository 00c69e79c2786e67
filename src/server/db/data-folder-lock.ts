import { closeSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * One process at a time on an embedded data folder (decision record 9).
 *
 * The lock is a file in the folder holding the owner's pid. It is created exclusively; a lock
 * whose pid is no longer alive (a crash, a kill -9) is taken over. Takeovers are serialised by a
 * second, short-lived file, so two processes finding the same dead owner never both win.
 */

export const LOCK_FILE = 'portal.lock';

/** A takeover holds its file for microseconds: one this old belongs to a process that died in it. */
const STALE_TAKEOVER_MS = 2_000;
/** A lock being created is empty for an instant; one still empty after this is left over. */
const STALE_EMPTY_MS = 2_000;
/** How long to wait for another process's takeover (or creation) to finish. */
const WAIT_MS = 3_000;

export class DataFolderLockedError extends Error {
  constructor(readonly pid: number) {
    super(`The portal is running on this data folder (pid ${pid}): stop it first, or use the Admin pages.`);
    this.name = 'DataFolderLockedError';
  }
}

export interface DataFolderLock {
  /** The folder, as a real path. */
  readonly dataDir: string;
  /** Gives the folder up; calling it again does nothing. */
  release(): void;
}

/** The locks this process holds, by lock file. */
const held = new Map<string, DataFolderLock>();

/** Whether a process with this pid exists: EPERM means it does, owned by another user. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function errorCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

type Owner =
  | { kind: 'pid'; pid: number }
  /** No lock file. */
  | { kind: 'none' }
  /** Empty or unreadable content: being created right now, or left over when old. */
  | { kind: 'unknown'; ageMs: number };

function readOwner(file: string): Owner {
  let text: string;
  let ageMs: number;
  try {
    text = readFileSync(file, 'utf8').trim();
    ageMs = Date.now() - statSync(file).mtimeMs;
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return { kind: 'none' };
    throw err;
  }
  // Only a positive pid: process.kill(0, …) would signal our own process group.
  if (/^[1-9]\d*$/.test(text)) return { kind: 'pid', pid: Number(text) };
  return { kind: 'unknown', ageMs };
}

/**
 * Whether the lock in this file may be replaced ('stale'); 'retry' when it is missing or being
 * created this instant. Throws DataFolderLockedError when another live process holds it.
 */
function checkOwner(file: string): 'stale' | 'retry' {
  const owner = readOwner(file);
  if (owner.kind === 'none') return 'retry';
  if (owner.kind === 'unknown') return owner.ageMs < STALE_EMPTY_MS ? 'retry' : 'stale';
  // Our own pid in a lock we do not hold was written by an earlier process that had this pid
  // (containers restart with the same pids).
  if (owner.pid !== process.pid && isAlive(owner.pid)) throw new DataFolderLockedError(owner.pid);
  return 'stale';
}

function create(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (err) {
    if (errorCode(err) === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } catch (err) {
    closeSync(fd);
    rmSync(file, { force: true });
    throw err;
  }
  closeSync(fd);
  return true;
}

/**
 * Replaces a lock left by a dead process with ours. Only one process at a time does this (the
 * takeover file), and it checks the owner again once it holds it. A lock that is missing or
 * being created is left alone: the caller goes back to creating it exclusively.
 */
function takeOver(file: string): boolean {
  const guard = `${file}.takeover`;
  if (!create(guard)) {
    try {
      if (Date.now() - statSync(guard).mtimeMs > STALE_TAKEOVER_MS) rmSync(guard, { force: true });
    } catch (err) {
      if (errorCode(err) !== 'ENOENT') throw err;
    }
    return false;
  }
  try {
    if (checkOwner(file) !== 'stale') return false;
    const temp = `${file}.${process.pid}.tmp`;
    const fd = openSync(temp, 'w');
    try {
      writeSync(fd, `${process.pid}\n`);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
    return true;
  } finally {
    rmSync(guard, { force: true });
  }
}

function releaseAll(): void {
  for (const lock of [...held.values()]) lock.release();
}

let exitHook = false;

/**
 * Takes the data folder for this process, creating the folder if needed. Throws
 * DataFolderLockedError when another live process holds it, including this process itself
 * (two embedded databases on one folder would corrupt it). Released by release() or when the
 * process exits normally; a crash leaves the file, and the next process takes it over.
 */
export function lockDataFolder(dataDir: string): DataFolderLock {
  mkdirSync(dataDir, { recursive: true });
  const dir = realpathSync(dataDir);
  const file = path.join(dir, LOCK_FILE);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    if (held.has(file)) throw new DataFolderLockedError(process.pid);
    if (create(file) || (checkOwner(file) === 'stale' && takeOver(file))) break;
    if (Date.now() > deadline) {
      throw new Error(`Could not lock the data folder ${dir}: another process kept ${LOCK_FILE} busy`);
    }
    sleep(25);
  }

  if (!exitHook) {
    exitHook = true;
    process.on('exit', releaseAll);
  }
  const lock: DataFolderLock = {
    dataDir: dir,
    release() {
      if (held.get(file) !== lock) return;
      held.delete(file);
      try {
        const owner = readOwner(file);
        if (owner.kind === 'pid' && owner.pid === process.pid) rmSync(file, { force: true });
      } catch {
        // Runs at exit too: a lock that cannot be removed is taken over by the next process.
      }
    },
  };
  held.set(file, lock);
  return lock;
}
