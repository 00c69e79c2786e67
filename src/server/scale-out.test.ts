/**
 * Scale-out, proven: a real nginx with the shipped proxy rules (deploy/nginx/proxy.conf) in front
 * of three portal processes on one PostgreSQL database, everything checked through the proxy.
 *
 * Runs in `npm test` (its own vitest project, not the server project that runs again on
 * PostgreSQL) when nginx is installed and PostgreSQL answers at TEST_DATABASE_URL, else at
 * postgres://postgres@127.0.0.1:5432/postgres; it makes a database of its own there and drops it
 * afterwards. Without either it is skipped with the reason, except in CI, where it must run.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarkStatus } from '../shared/attendance-rules';
import type { Checkin } from '../shared/schemas/checkins';
import { openDatabase, type Database } from './db/client';
import { addUser } from './modules/accounts/service';
import { putStudents } from './modules/roster/service';
import { findNginx, startProxy, type Proxy } from './test/nginx';
import { openEvents, sessionCookie, signIn } from './test/portal-client';
import { openStream, type Frame } from './test/sse-client';
import { startPortalProcess, type PortalProcess } from './test/portal-process';
import { withDatabase } from './test/postgres';
import { TEST_PASSWORD } from './test/test-app';

const SERVER_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const CLASSES = ['CSE5', 'CSE6', 'CSE7'] as const;
const STUDENTS_PER_CLASS = 4;
const STATUSES: MarkStatus[] = ['present', 'absent', 'late', 'excused'];
const FACULTY = 'scale-out@test.university.edu';

async function whyNotHere(): Promise<{ reason?: string; nginx?: string }> {
  const nginx = findNginx();
  if (!nginx) return { reason: 'nginx is not installed (Debian: apt-get install nginx-light)' };
  const client = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
  } catch (err) {
    return { reason: `PostgreSQL does not answer at ${SERVER_URL} (${err instanceof Error ? err.message : String(err)})` };
  }
  return { nginx };
}

const { reason, nginx } = await whyNotHere();
if (reason && process.env.CI) throw new Error(`The scale-out test must run in CI, but ${reason}`);
if (reason) console.warn(`Skipped: three portal processes behind nginx, because ${reason}`);

function pinOf(className: string, index: number): string {
  return `SO${className}X${index}`;
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/** One register's marks: each student's status picked from `seed`, so that different saves differ. */
function marksFor(className: string, seed: number): { pin: string; status: MarkStatus }[] {
  return Array.from({ length: STUDENTS_PER_CLASS }, (_, index) => ({
    pin: pinOf(className, index),
    status: STATUSES[(seed + index * (seed % 3 + 1)) % STATUSES.length]!,
  }));
}

async function saveRegister(address: string, cookie: string, className: string, date: string, seed: number): Promise<Response> {
  return fetch(`${address}/api/attendance/${className}/${date}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', cookie, origin: address },
    body: JSON.stringify({ records: marksFor(className, seed) }),
  });
}

describe.skipIf(reason !== undefined)('three portal processes behind nginx on one PostgreSQL database', () => {
  const name = `portal_scale_${randomBytes(5).toString('hex')}`;
  const databaseUrl = withDatabase(SERVER_URL, name);
  let database: Database | undefined;
  const processes: PortalProcess[] = [];
  let proxy: Proxy | undefined;

  async function asAdmin(statement: string): Promise<void> {
    const admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  }

  beforeAll(async () => {
    await asAdmin(`create database ${name}`);
    // Migrated here once, as the first process to start would; the three then find it up to date.
    database = await openDatabase({ databaseUrl });
    await putStudents(
      database.db,
      CLASSES.flatMap((className) =>
        Array.from({ length: STUDENTS_PER_CLASS }, (_, index) => ({ pin: pinOf(className, index), name: `Student ${index}`, className })),
      ),
    );
    await addUser(database.db, { email: FACULTY, name: 'Scale Out', role: 'faculty', password: TEST_PASSWORD });
    const environment = {
      DATABASE_URL: databaseUrl,
      PORTAL_SECRET: randomBytes(32).toString('hex'),
      // The proxy's address: the client's address and scheme come from its headers.
      PORTAL_TRUST_PROXY: '127.0.0.1',
    };
    // Each kept as it comes up, so that afterAll stops those started even if another fails to.
    await Promise.all([0, 1, 2].map(async (index) => (processes[index] = await startPortalProcess(environment))));
    proxy = await startProxy(nginx!, processes.map((p) => p.port));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(processes.filter(Boolean).map((p) => p.kill()));
    await proxy?.stop();
    await database?.close();
    await asAdmin(`drop database if exists ${name} with (force)`);
  });

  it('keeps a sign-in made through one process good on the others', async () => {
    const [first, second, third] = proxy!.direct as [string, string, string];
    const response = await signIn(first, FACULTY, TEST_PASSWORD);
    expect(response.status).toBe(200);
    const cookie = sessionCookie(response);
    for (const address of [second, third, proxy!.balanced]) {
      const me = await fetch(`${address}/api/auth/me`, { headers: { cookie } });
      expect(await me.json()).toMatchObject({ user: { email: FACULTY } });
    }
  });

  it('wakes the live updates of clients connected to other processes within 2 s of a save', async () => {
    const [first, second, third] = proxy!.direct as [string, string, string];
    const cookie = sessionCookie(await signIn(second, FACULTY, TEST_PASSWORD));
    const streams = [await openEvents(second, cookie), await openEvents(third, cookie)];
    try {
      await Promise.all(streams.map((stream) => stream.waitFor((frame) => frame.comment === 'connected', 10_000)));
      const date = today();
      const saved = await saveRegister(first, cookie, 'CSE7', date, 1);
      expect(saved.status).toBe(200);
      const isThisSave = (frame: { event?: string; data?: string }) =>
        frame.event === 'attendance' && frame.data !== undefined && JSON.parse(frame.data).class === 'CSE7' && JSON.parse(frame.data).date === date;
      await Promise.all(streams.map((stream) => stream.waitFor(isThisSave, 2000)));
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it("brings a check-in's list to the projector through the proxy at once, from a check-in on another process", async () => {
    const student = 'scale-out.student@test.university.edu';
    await addUser(database!.db, { email: student, name: 'Student 0', role: 'student', pin: pinOf('CSE5', 0), password: TEST_PASSWORD });
    const [first] = proxy!.direct as [string];
    const cookie = sessionCookie(await signIn(first, FACULTY, TEST_PASSWORD));
    const opened = await fetch(`${first}/api/checkins`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: first },
      body: JSON.stringify({ className: 'CSE5' }),
    });
    expect(opened.status).toBe(201);
    const { id } = (await opened.json()) as { id: string };
    const stream = await openStream(`${proxy!.balanced}/api/checkins/${id}/events`, cookie);
    const checkedIn = (count: number) => (frame: Frame) => frame.event === 'checkin' && (JSON.parse(frame.data!) as { checkedIn: number }).checkedIn === count;
    try {
      expect(stream.status).toBe(200);
      await stream.waitFor(checkedIn(0), 10_000);
      // The student checks in through a process other than the one holding the stream.
      const holder = Number(String(stream.headers['x-upstream']).split(':').pop());
      const other = proxy!.direct[processes.findIndex((p) => p.port !== holder)]!;
      const pupil = sessionCookie(await signIn(other, student, TEST_PASSWORD, 'student'));
      const { code } = (await (await fetch(`${other}/api/checkins/${id}`, { headers: { cookie } })).json()) as Checkin;
      const scanned = await fetch(`${other}/api/checkins/scan`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: pupil, origin: other },
        body: JSON.stringify({ token: code!.token }),
      });
      expect(scanned.status).toBe(200);
      await stream.waitFor(checkedIn(1), 2000);
    } finally {
      stream.close();
    }
  });

  it('serves a cached report fresh on every process after a save through one of them', async () => {
    const cookie = sessionCookie(await signIn(proxy!.balanced, FACULTY, TEST_PASSWORD));
    const presentDays = async (address: string) => {
      const response = await fetch(`${address}/api/reports/students?class=CSE6`, { headers: { cookie } });
      expect(response.status).toBe(200);
      const rows = (await response.json()) as { pin: string; presentDays: number; absentDays: number }[];
      return rows.map((row) => `${row.pin}:${row.presentDays}/${row.absentDays}`).sort();
    };
    // Each process computes the report and keeps it: no marks yet, so no student in it.
    for (const address of proxy!.direct) {
      expect(await presentDays(address)).toEqual([]);
      expect(await presentDays(address)).toEqual([]);
    }

    // Everyone present: one present day each.
    const saved = await fetch(`${proxy!.direct[1]}/api/attendance/CSE6/${today()}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ records: Array.from({ length: STUDENTS_PER_CLASS }, (_, index) => ({ pin: pinOf('CSE6', index), status: 'present' })) }),
    });
    expect(saved.status).toBe(200);
    const after = Array.from({ length: STUDENTS_PER_CLASS }, (_, index) => `${pinOf('CSE6', index)}:1/0`);
    // The writer at once; the others on the save's announcement, and within a second even if one
    // were lost (decision 28): each is asked until it agrees, for at most 2 s.
    for (const address of proxy!.direct) {
      const deadline = Date.now() + 2000;
      let figures = await presentDays(address);
      while (JSON.stringify(figures) !== JSON.stringify(after) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        figures = await presentDays(address);
      }
      expect(figures, address).toEqual(after);
    }
  });

  it('adds up failed sign-ins made through different processes', async () => {
    const email = 'limited@test.university.edu';
    await addUser(database!.db, { email, name: 'Limited', role: 'faculty', password: TEST_PASSWORD });
    const [first, second, third] = proxy!.direct as [string, string, string];
    // Five failures for one e-mail, the limit, spread over the three processes.
    for (const address of [first, second, third, first, second]) {
      expect((await signIn(address, email, 'not the password at all')).status).toBe(401);
    }
    // The sixth attempt is refused on a process that saw only one of them, right password or not.
    expect((await signIn(third, email, TEST_PASSWORD)).status).toBe(429);
    expect((await signIn(proxy!.balanced, email, TEST_PASSWORD)).status).toBe(429);
  });

  it('loses only the requests a killed process held, and keeps every save it acknowledged', async () => {
    const cookie = sessionCookie(await signIn(proxy!.balanced, FACULTY, TEST_PASSWORD));
    const SAVES = 60;
    const CONCURRENT = 6;
    const start = today();
    const saves = Array.from({ length: SAVES }, (_, index) => ({
      className: CLASSES[index % CLASSES.length]!,
      date: daysBefore(start, 1 + Math.floor(index / CLASSES.length)),
      seed: index,
    }));
    const outcomes: { index: number; status: number; upstream: string; startedAt: number; endedAt: number }[] = [];
    let killedAt = Number.POSITIVE_INFINITY;
    let next = 0;
    const victim = processes[1]!;
    const worker = async () => {
      for (let index = next++; index < SAVES; index = next++) {
        const save = saves[index]!;
        const startedAt = performance.now();
        const { status, upstream } = await saveRegister(proxy!.balanced, cookie, save.className, save.date, save.seed).then(
          (response) => ({ status: response.status, upstream: response.headers.get('x-upstream') ?? '' }),
          () => ({ status: 0, upstream: '' }),
        );
        outcomes.push({ index, status, upstream, startedAt, endedAt: performance.now() });
        // A third of the way through, one process dies without a word.
        if (outcomes.length === Math.floor(SAVES / 3) && killedAt === Number.POSITIVE_INFINITY) {
          killedAt = performance.now();
          victim.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENT }, worker));
    await victim.exit;
    expect(outcomes).toHaveLength(SAVES);
    // It had its share of the burst before it died (nginx takes the three in turn).
    const victimAddress = `127.0.0.1:${victim.port}`;
    expect(outcomes.filter((o) => o.endedAt < killedAt && o.upstream === victimAddress).length).toBeGreaterThan(0);

    // Only requests under way when it died may have failed, and as the proxy's 502, not as a hang or
    // an error of the portal's. (nginx sends a save that the dead process held to the next one, a
    // PUT being idempotent, so usually none fails.)
    const failed = outcomes.filter((o) => o.status < 200 || o.status > 299);
    for (const failure of failed) {
      expect(failure.status).toBe(502);
      expect(failure.startedAt).toBeLessThan(killedAt);
      expect(failure.endedAt).toBeGreaterThanOrEqual(killedAt);
    }
    expect(failed.length).toBeLessThanOrEqual(CONCURRENT);

    // Every acknowledged save is in the database, mark for mark.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      for (const outcome of outcomes.filter((o) => o.status === 200)) {
        const save = saves[outcome.index]!;
        const stored = await client.query<{ pin: string; status: string }>(
          'select pin, status from attendance_marks where class_name = $1 and date = $2 and period = 0 order by pin',
          [save.className, save.date],
        );
        expect(stored.rows, `${save.className} ${save.date}`).toEqual(marksFor(save.className, save.seed));
      }
      // And no register is half there: each stored one has every student's mark.
      const partial = await client.query(
        'select r.id from attendance_sessions r left join attendance_marks m on m.session_id = r.id group by r.id having count(m.pin) <> $1',
        [STUDENTS_PER_CLASS],
      );
      expect(partial.rows).toEqual([]);
    } finally {
      await client.end();
    }

    // The two left serve on, through the balanced address too.
    for (const address of [proxy!.direct[0]!, proxy!.direct[2]!, proxy!.balanced]) {
      expect((await fetch(`${address}/api/auth/me`, { headers: { cookie } })).status).toBe(200);
    }
  });
});
