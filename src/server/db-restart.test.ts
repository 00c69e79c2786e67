/**
 * PostgreSQL itself restarted under load: a throwaway cluster of its own (initdb, driven with
 * pg_ctl), two portal processes on it, register saves running throughout. While the database is
 * down readiness says so (503); the processes reconnect by themselves when it is back; live
 * updates resume; and every save that was acknowledged is stored.
 *
 * Runs in the scale-out project (once per run, in npm test) when PostgreSQL's server programs are
 * installed; skipped with the reason otherwise, except in CI, where it must run.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarkStatus } from '../shared/attendance-rules';
import { openDatabase } from './db/client';
import { addUser } from './modules/accounts/service';
import { putStudents } from './modules/roster/service';
import { freePort } from './test/free-port';
import { openEvents, sessionCookie, signIn } from './test/portal-client';
import { startPortalProcess, type PortalProcess } from './test/portal-process';
import { TEST_PASSWORD } from './test/test-app';

const CLASSES = ['CSE5', 'CSE6'] as const;
const STUDENTS_PER_CLASS = 5;
const FACULTY = 'restart@test.university.edu';
const STATUSES: MarkStatus[] = ['present', 'absent', 'late', 'excused'];

/** PostgreSQL's server programs: on the PATH, or in Debian's versioned folder. */
function serverPrograms(): { initdb: string; pgCtl: string } | undefined {
  const folders = ['', ...readdirSafe('/usr/lib/postgresql').sort().reverse().map((version) => `/usr/lib/postgresql/${version}/bin/`)];
  for (const folder of folders) {
    const initdb = `${folder}initdb`;
    const pgCtl = `${folder}pg_ctl`;
    const probe = spawnSync(initdb, ['--version'], { stdio: 'ignore' });
    if (!probe.error && probe.status === 0) return { initdb, pgCtl };
  }
  return undefined;
}

function readdirSafe(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

const programs = serverPrograms();
const reason = programs ? undefined : "PostgreSQL's server programs (initdb, pg_ctl) are not installed";
if (reason && process.env.CI) throw new Error(`The database restart test must run in CI, but ${reason}`);
if (reason) console.warn(`Skipped: PostgreSQL restarted under load, because ${reason}`);

/** PostgreSQL refuses to run as root: the cluster then belongs to the postgres user, who runs its programs. */
const asRoot = process.getuid?.() === 0;

function run(program: string, args: string[]): void {
  const [command, commandArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
  const result = spawnSync(command, commandArgs, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${program} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
}

function marksFor(className: string, seed: number): { pin: string; status: MarkStatus }[] {
  return Array.from({ length: STUDENTS_PER_CLASS }, (_, index) => ({
    pin: `RS${className}X${index}`,
    status: STATUSES[(seed + index) % STATUSES.length]!,
  }));
}

function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

async function readiness(address: string): Promise<{ status: number; body: { status?: string; reason?: string } }> {
  try {
    const response = await fetch(`${address}/api/ready`);
    return { status: response.status, body: (await response.json()) as { status?: string; reason?: string } };
  } catch {
    return { status: 0, body: {} };
  }
}

/** Asks `check` every 100 ms until it holds, for at most `withinMs`; fails with `what` otherwise. */
async function eventually(what: string, withinMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(reason !== undefined)('PostgreSQL restarted under load', () => {
  let folder = '';
  let dataDir = '';
  let port = 0;
  let databaseUrl = '';
  const processes: PortalProcess[] = [];

  const pgCtl = (...args: string[]) => run(programs!.pgCtl, ['-D', dataDir, ...args]);
  const startCluster = () => pgCtl('-l', path.join(folder, 'server.log'), '-o', `-p ${port} -k ${folder} -h 127.0.0.1`, '-w', 'start');
  const stopCluster = () => pgCtl('-m', 'fast', '-w', 'stop');

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'portal-restart-'));
    dataDir = path.join(folder, 'data');
    if (asRoot) {
      const owner = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
      const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
      chownSync(folder, Number(owner.stdout.trim()), Number(group.stdout.trim()));
    }
    chmodSync(folder, 0o755);
    port = await freePort();
    run(programs!.initdb, ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
    startCluster();
    const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    await admin.connect();
    await admin.query('create database portal');
    await admin.end();
    databaseUrl = `postgres://postgres@127.0.0.1:${port}/portal`;

    const database = await openDatabase({ databaseUrl });
    await putStudents(
      database.db,
      CLASSES.flatMap((className) =>
        marksFor(className, 0).map(({ pin }, index) => ({ pin, name: `Student ${index}`, className })),
      ),
    );
    await addUser(database.db, { email: FACULTY, name: 'Restart', role: 'faculty', password: TEST_PASSWORD });
    await database.close();

    const environment = {
      DATABASE_URL: databaseUrl,
      PORTAL_SECRET: randomBytes(32).toString('hex'),
    };
    await Promise.all([0, 1].map(async (index) => (processes[index] = await startPortalProcess(environment))));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(processes.filter(Boolean).map((p) => p.kill()));
    if (dataDir && existsSync(path.join(dataDir, 'postmaster.pid'))) {
      try {
        stopCluster();
      } catch {
        // Already stopped.
      }
    }
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  /** What the processes printed, for a failure's message. */
  const printed = () => processes.map((p, index) => `process ${index + 1} (exit ${p.child.exitCode ?? p.child.signalCode ?? 'none'}):\n${p.output().slice(-3000)}`).join('\n');

  it('says it is not ready while the database is down, reconnects by itself, resumes live updates and keeps every acknowledged save', async () => {
    const [writer, reader] = processes.map((p) => `http://127.0.0.1:${p.port}`) as [string, string];
    const cookie = sessionCookie(await signIn(writer, FACULTY, TEST_PASSWORD));
    for (const address of [writer, reader]) expect((await readiness(address)).status).toBe(200);

    // Saves run throughout, two at a time, each register on a date of its own.
    const outcomes: { className: string; date: string; seed: number; status: number }[] = [];
    let running = true;
    let next = 0;
    const save = async (className: string, date: string, seed: number) => {
      const response = await fetch(`${writer}/api/attendance/${className}/${date}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', cookie, origin: writer },
        body: JSON.stringify({ records: marksFor(className, seed) }),
      }).catch(() => undefined);
      return response?.status ?? 0;
    };
    const worker = async () => {
      while (running) {
        const index = next++;
        const className = CLASSES[index % CLASSES.length]!;
        const date = daysAgo(1 + Math.floor(index / CLASSES.length));
        outcomes.push({ className, date, seed: index, status: await save(className, date, index) });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const load = Promise.all([worker(), worker()]);
    const saved = () => outcomes.filter((o) => o.status === 200).length;
    try {
      await eventually('saves before the restart', 20_000, async () => saved() >= 5);

      stopCluster();
      for (const address of [writer, reader]) {
        await eventually(`${address} not ready while the database is down`, 15_000, async () => {
          const ready = await readiness(address);
          return ready.status === 503 && ready.body.reason === 'database unreachable';
        });
      }
      const whileDown = outcomes.length;
      await eventually('saves tried while the database is down', 10_000, async () => outcomes.length >= whileDown + 2);

      startCluster();
      for (const address of [writer, reader]) {
        await eventually(`${address} ready again`, 30_000, async () => (await readiness(address)).status === 200);
      }
      const before = saved();
      await eventually('saves after the restart', 20_000, async () => saved() >= before + 5);
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n${printed()}`);
    } finally {
      running = false;
      await load;
    }

    // A refused save is the database's absence said as such (503), never a 500 or a hang.
    const refused = outcomes.filter((o) => o.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const outcome of refused) expect(outcome.status, JSON.stringify(outcome)).toBe(503);

    // Live updates resume: a save through the writer reaches a stream on the reader, whose
    // connection for announcements came back by itself.
    const stream = await openEvents(reader, cookie);
    try {
      await stream.waitFor((frame) => frame.comment === 'connected', 10_000);
      let seed = 1000;
      await eventually('a live update on the other process', 40_000, async () => {
        seed += 1;
        const date = daysAgo(200);
        expect(await save('CSE5', date, seed)).toBe(200);
        return stream
          .waitFor((frame) => frame.event === 'attendance' && frame.data !== undefined && JSON.parse(frame.data).date === date, 2000)
          .then(
            () => true,
            () => false,
          );
      });
    } finally {
      stream.close();
    }

    // Every acknowledged save is stored, mark for mark (the last one of each register wins).
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const lastAcknowledged = new Map<string, (typeof outcomes)[number]>();
      for (const outcome of outcomes) if (outcome.status === 200) lastAcknowledged.set(`${outcome.className} ${outcome.date}`, outcome);
      for (const outcome of lastAcknowledged.values()) {
        const stored = await client.query<{ pin: string; status: string }>(
          'select pin, status from attendance_marks where class_name = $1 and date = $2 and period = 0 order by pin',
          [outcome.className, outcome.date],
        );
        expect(stored.rows, `${outcome.className} ${outcome.date}`).toEqual(marksFor(outcome.className, outcome.seed));
      }
    } finally {
      await client.end();
    }
  });
});
