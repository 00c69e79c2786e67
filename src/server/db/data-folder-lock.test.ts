import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { DataFolderLockedError, LOCK_FILE, lockDataFolder, type DataFolderLock } from './data-folder-lock';
import { onPostgres } from '../test/postgres';
import { copyMigratedFolderInto } from '../test/test-db';

const message = (pid: number) => `The portal is running on this data folder (pid ${pid}): stop it first, or use the Admin pages.`;

const folders: string[] = [];
const children = new Set<ChildProcess>();
const locks: DataFolderLock[] = [];

function tempFolder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-lock-'));
  folders.push(dir);
  return dir;
}

function lockIn(dir: string): DataFolderLock {
  const lock = lockDataFolder(dir);
  locks.push(lock);
  return lock;
}

const lockFile = (dir: string) => path.join(dir, LOCK_FILE);
const ownerIn = (dir: string) => Number(readFileSync(lockFile(dir), 'utf8'));

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** The pid of a process that has surely ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await exited(child);
  return child.pid!;
}

/** A data folder with a copy of the run's migrated database (making one takes seconds). */
async function migratedFolder(): Promise<string> {
  const copy = tempFolder();
  copyMigratedFolderInto(copy);
  return copy;
}

afterEach(() => {
  for (const lock of locks.splice(0)) lock.release();
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all([...children].map(exited));
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

// The embedded database's own: the run on PostgreSQL leaves it out.
describe.skipIf(onPostgres)('the data folder lock', () => {
  it('is taken with this process id, refused to a second opener in this process, and released', () => {
    const dir = path.join(tempFolder(), 'data');
    const lock = lockIn(dir);
    expect(ownerIn(dir)).toBe(process.pid);
    expect(() => lockDataFolder(dir)).toThrow(new DataFolderLockedError(process.pid));
    lock.release();
    expect(existsSync(lockFile(dir))).toBe(false);
    lock.release();
    lockIn(dir);
    expect(ownerIn(dir)).toBe(process.pid);
  });

  it('is refused while another live process holds it, naming that process and changing nothing', async () => {
    const dir = tempFolder();
    const owner = spawn(process.execPath, ['-e', 'setTimeout(() => undefined, 60_000)']);
    children.add(owner);
    writeFileSync(lockFile(dir), `${owner.pid}\n`);
    expect(() => lockDataFolder(dir)).toThrow(message(owner.pid!));
    expect(ownerIn(dir)).toBe(owner.pid);
    owner.kill('SIGKILL');
    await exited(owner);
    // Once it has ended, its lock is stale.
    lockIn(dir);
    expect(ownerIn(dir)).toBe(process.pid);
  });

  it('is taken over from a dead process, from an earlier process with this pid, and from unreadable content', async () => {
    const dir = tempFolder();
    writeFileSync(lockFile(dir), `${await deadPid()}\n`);
    lockIn(dir).release();

    writeFileSync(lockFile(dir), `${process.pid}\n`);
    lockIn(dir).release();

    // Empty content is a lock being written at this instant, unless it is old.
    writeFileSync(lockFile(dir), '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockFile(dir), old, old);
    lockIn(dir);
    expect(ownerIn(dir)).toBe(process.pid);
  });

  it('goes to exactly one of several processes taking over the same dead lock at once', async () => {
    const dir = tempFolder();
    writeFileSync(lockFile(dir), `${await deadPid()}\n`);
    const moduleUrl = pathToFileURL(path.resolve('src/server/db/data-folder-lock.ts')).href;
    // Each one says when it is ready, then all try at the same moment; the winner holds the lock a while.
    const script = `
      const { lockDataFolder } = await import(${JSON.stringify(moduleUrl)});
      process.stdin.once('data', () => {
        try {
          const lock = lockDataFolder(${JSON.stringify(dir)});
          console.log('won ' + process.pid);
          setTimeout(() => lock.release(), 2_000);
        } catch (err) {
          console.log('lost ' + err.message);
        }
        process.stdin.destroy();
      });
      console.log('ready');`;
    const racers = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
      children.add(child);
      let out = '';
      const ready = new Promise<void>((resolve) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.startsWith('ready\n')) resolve();
        });
      });
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stdin.on('error', () => undefined);
      return { child, ready: Promise.race([ready, exited(child)]), outcome: exited(child).then(() => out.replace('ready\n', '').trim()) };
    });
    await Promise.all(racers.map((racer) => racer.ready));
    for (const racer of racers) racer.child.stdin.write('go\n');
    const runs = racers.map((racer) => racer.outcome);
    const outcomes = await Promise.all(runs);
    const winners = outcomes.filter((line) => line.startsWith('won '));
    expect(winners, outcomes.join('\n')).toHaveLength(1);
    const winner = Number(winners[0]!.slice('won '.length));
    expect(outcomes.filter((line) => line !== winners[0])).toEqual(Array(3).fill(`lost ${message(winner)}`));
    // The winner released it on its way out.
    expect(existsSync(lockFile(dir))).toBe(false);
  }, 60_000);

  it('is held by an embedded database from open to close, and not taken by an in-memory one', async () => {
    const dir = await migratedFolder();
    const database = await openDatabase({ dataDir: dir });
    try {
      expect(ownerIn(dir)).toBe(process.pid);
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(message(process.pid));
      const memory = await openDatabase({});
      await memory.close();
      expect(ownerIn(dir)).toBe(process.pid);
    } finally {
      await database.close();
    }
    expect(existsSync(lockFile(dir))).toBe(false);
    // Closed, the folder opens again in the same process.
    const again = await openDatabase({ dataDir: dir });
    await again.close();
    expect(existsSync(lockFile(dir))).toBe(false);
  }, 120_000);
});

// The real commands, each a process of its own, as an operator runs them.
const tsx = path.resolve('node_modules/.bin/tsx');

function environment(dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: '',
    PORTAL_DATA_DIR: dataDir,
    PORTAL_DEMO: 'false',
    LOG_LEVEL: 'warn',
    PORT: '0',
    // No web build needed: the API alone.
    PORTAL_WEB_DIR: path.join(dataDir, 'no-web-build'),
  };
}

interface Server {
  process: ChildProcess;
  url: string;
}

/**
 * The server as `tsx src/server/main.ts` runs it, but started by node itself so that the child's
 * pid is the server's (tsx would put a process of its own in between).
 */
async function startServer(dataDir: string): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { env: environment(dataDir) });
  children.add(child);
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /running at (http:\/\/localhost:\d+)/.exec(output);
      if (found) resolve(found[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`The server ended (${signal ?? code}) before serving:\n${output}`)));
  });
  const health = await fetch(`${url}/api/health`);
  expect(health.status).toBe(200);
  return { process: child, url };
}

async function stop(server: Server, signal: NodeJS.Signals): Promise<void> {
  server.process.kill(signal);
  await exited(server.process);
  children.delete(server.process);
}

function portal(dataDir: string, args: string[]) {
  const started = performance.now();
  const result = spawnSync(tsx, ['src/server/cli/portal.ts', ...args], {
    env: environment(dataDir),
    input: '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr, seconds: (performance.now() - started) / 1000 };
}

describe.skipIf(onPostgres)('one process per embedded data folder', () => {
  // How quickly it is refused (within 5 s, decision 9) is measured by bench/cli-refusal.ts, not here.
  it('refuses the portal command while the server runs, without changing anything', async () => {
    const dir = await migratedFolder();
    const server = await startServer(dir);
    const pid = server.process.pid!;
    const add = portal(dir, ['user', 'add', '--email', 'x@uni.edu', '--name', 'X', '--role', 'faculty', '--password', 'a-Long-unusual-pass-2026']);
    expect(add.err.trim()).toBe(message(pid));
    expect(add.code).toBe(1);
    expect(add.out).toBe('');

    await stop(server, 'SIGTERM');
    expect(existsSync(lockFile(dir))).toBe(false);
    const list = portal(dir, ['user', 'list']);
    expect(list.err).toBe('');
    expect(list.out).toContain('No accounts yet.');
  }, 180_000);

  it('takes over the lock of a server that was killed', async () => {
    const dir = await migratedFolder();
    const first = await startServer(dir);
    const killed = first.process.pid!;
    await stop(first, 'SIGKILL');
    expect(ownerIn(dir)).toBe(killed);

    const second = await startServer(dir);
    expect(ownerIn(dir)).toBe(second.process.pid);
    await stop(second, 'SIGTERM');
    expect(existsSync(lockFile(dir))).toBe(false);
  }, 180_000);
});
