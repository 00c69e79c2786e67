import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../shared/dates';
import { openDatabase, type Database } from './db/client';
import { attendanceMarks, registers } from './db/schema';
import { addUser } from './modules/accounts/service';
import { putStudents } from './modules/roster/service';
import { startPortalProcess, type PortalProcess } from './test/portal-process';
import { TEST_PASSWORD } from './test/test-app';
import { copyMigratedFolderInto, createPostgresCopy } from './test/test-db';

/**
 * The portal as an operator runs it (`tsx src/server/main.ts`, started by node itself so that the
 * child's pid is the server's), stopped with SIGTERM in the middle of a burst of register saves.
 */

const CLASSES = ['CSE1', 'CSE2', 'CSE3', 'CSE4'];
const STUDENTS_PER_CLASS = 60;
const FACULTY = 'stopping@test.university.edu';
const today = todayIn('UTC');

const servers = new Set<PortalProcess>();
const cleanUps: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const server of servers) await server.kill();
  for (const cleanUp of cleanUps.splice(0)) await cleanUp();
});

/** Where the server's database is: an embedded data folder, or a PostgreSQL copy. */
async function serverDatabase(): Promise<{ env: NodeJS.ProcessEnv; open(): Promise<Database> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const copy = await createPostgresCopy(serverUrl);
    cleanUps.push(() => copy.drop());
    return { env: { DATABASE_URL: copy.url }, open: () => openDatabase({ databaseUrl: copy.url }) };
  }
  const folder = mkdtempSync(path.join(tmpdir(), 'portal-stop-'));
  cleanUps.push(() => rm(folder, { recursive: true, force: true }));
  const dataDir = path.join(folder, 'db');
  copyMigratedFolderInto(dataDir);
  return { env: { DATABASE_URL: '', PORTAL_DATA_DIR: dataDir }, open: () => openDatabase({ dataDir }) };
}

const pinOf = (className: string, index: number) => `${className}-S${String(index).padStart(2, '0')}`;

async function seed(database: Database): Promise<void> {
  await addUser(database.db, { email: FACULTY, name: 'Stopping Faculty', role: 'faculty', password: TEST_PASSWORD });
  await putStudents(
    database.db,
    CLASSES.flatMap((className) =>
      Array.from({ length: STUDENTS_PER_CLASS }, (_, index) => ({ pin: pinOf(className, index), name: `Student ${index}`, className })),
    ),
  );
}

interface Answer {
  status?: number;
  headers?: http.IncomingHttpHeaders;
  body?: string;
  error?: string;
}

/** One request on a connection of its own: a stop refuses new connections, not new requests on old ones. */
function send(port: number, method: string, url: string, body: unknown, cookie: string, id?: string): Promise<Answer> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent: false,
        headers: { cookie, ...(id ? { 'x-request-id': id } : {}), ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: text }));
        response.on('error', (err) => resolve({ error: err.message }));
      },
    );
    request.on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }));
    request.end(payload);
  });
}

async function signIn(port: number): Promise<string> {
  const answer = await send(port, 'POST', '/api/auth/login', { email: FACULTY, password: TEST_PASSWORD, role: 'faculty', remember: false }, '');
  expect(answer.status, answer.body).toBe(200);
  const cookie = (answer.headers?.['set-cookie'] ?? []).map((c) => c.split(';')[0]!).find((c) => c.startsWith('portal_session='));
  if (!cookie) throw new Error('no session cookie');
  return cookie;
}

interface Save {
  /** Its X-Request-Id, which the server's log names. */
  id: string;
  className: string;
  date: string;
  present: string[];
  answer: Answer;
}

describe('a stop in the middle of a burst of saves (SIGTERM)', () => {
  it('answers every save it had received, stores every save it answered 2xx, and then exits', async () => {
    const where = await serverDatabase();
    const setUp = await where.open();
    try {
      await seed(setUp);
    } finally {
      await setUp.close();
    }

    // Debug: each request's "incoming request" line says the server has it.
    const server = await startPortalProcess({ ...where.env, PORTAL_SHUTDOWN_GRACE_S: '10', LOG_LEVEL: 'debug' });
    servers.add(server);
    const cookie = await signIn(server.port);
    let stopAsked = false;
    const saves: Save[] = [];
    /** The saves the server has begun and not answered (by its log), and those it had when stopped. */
    const underWay = new Set<string>();
    let heldAtStop: string[] = [];
    let answered = 0;
    const STOP_AFTER = 8;
    server.onLog((line) => {
      if (!line.reqId?.startsWith('save-')) return;
      if (line.msg === 'incoming request') underWay.add(line.reqId);
      if (line.msg === 'request completed' || line.msg === 'request errored') underWay.delete(line.reqId);
      // The stop comes once some saves are done and several are under way on the server.
      if (!stopAsked && answered >= STOP_AFTER && underWay.size >= 3) {
        stopAsked = true;
        heldAtStop = [...underWay];
        server.child.kill('SIGTERM');
      }
    });

    // Each class saves its registers one date after another, further back each time, the four
    // classes side by side, until the server no longer takes requests.
    const worker = async (className: string) => {
      for (let day = 1; day <= 200; day += 1) {
        const date = addDays(today, -day);
        const pins = Array.from({ length: STUDENTS_PER_CLASS }, (_, index) => pinOf(className, index));
        const present = pins.filter((_, index) => (index + day) % 3 !== 0);
        const records = pins.map((pin) => ({ pin, present: present.includes(pin) }));
        const save: Save = { id: `save-${className}-${day}`, className, date, present, answer: {} };
        saves.push(save);
        save.answer = await send(server.port, 'PUT', `/api/attendance/${className}/${date}`, { records }, cookie, save.id);
        answered += 1;
        if (save.answer.status === undefined) return;
      }
    };
    await Promise.all(CLASSES.map(worker));
    if (!stopAsked) server.child.kill('SIGKILL');
    expect(stopAsked, 'the server never had three saves under way at once').toBe(true);
    const { code, signal } = await server.exit;
    expect({ code, signal }, server.output()).toEqual({ code: 0, signal: null });
    expect(server.output()).toContain('SIGTERM received, shutting down');

    // The saves the server was working on when it was stopped were finished and answered: none
    // was cut off.
    expect(heldAtStop.length).toBeGreaterThanOrEqual(3);
    for (const id of heldAtStop) expect(saves.find((save) => save.id === id)?.answer, id).toMatchObject({ status: 200 });
    // Every other save is either answered or refused (a new connection is not taken), never
    // left without an answer; and the stop did end the burst.
    for (const save of saves) expect(save.answer.status === 200 || save.answer.error !== undefined, JSON.stringify(save.answer)).toBe(true);
    expect(saves.filter((save) => save.answer.error !== undefined)).toHaveLength(CLASSES.length);

    // Every save answered 2xx is in the database, as it was sent.
    const database = await where.open();
    try {
      const acknowledged = saves.filter((save) => save.answer.status !== undefined && save.answer.status >= 200 && save.answer.status < 300);
      for (const save of acknowledged) {
        const [register] = await database.db
          .select({ id: registers.id })
          .from(registers)
          .where(and(eq(registers.className, save.className), eq(registers.date, save.date), eq(registers.period, 0)));
        expect(register, `${save.className} ${save.date}`).toBeDefined();
        const marks = await database.db
          .select({ pin: attendanceMarks.pin, status: attendanceMarks.status })
          .from(attendanceMarks)
          .where(eq(attendanceMarks.registerId, register!.id));
        expect(marks).toHaveLength(STUDENTS_PER_CLASS);
        expect(marks.filter((mark) => mark.status === 'present').map((mark) => mark.pin).sort()).toEqual([...save.present].sort());
      }
    } finally {
      await database.close();
    }
  }, 180_000);
});
