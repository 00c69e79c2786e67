import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKIN_EVENT, CheckinListSchema, type Checkin, type CheckinList } from '../../../shared/schemas/checkins';
import type { Listener } from '../../db/client';
import { putStudents } from '../roster/service';
import { addUser } from '../accounts/service';
import { listen, openStream, until, type Frame, type Stream } from '../../test/sse-client';
import { createTestContext, type ServersOnOneDatabase, startServersOnOneDatabase, TEST_PASSWORD, type TestContext } from '../../test/test-app';
import { CheckinWatch } from './live';

/** The check-in a stream's event carries; undefined for another frame. */
function listOf(frame: Frame): CheckinList | undefined {
  return frame.event === CHECKIN_EVENT && frame.data !== undefined ? CheckinListSchema.parse(JSON.parse(frame.data)) : undefined;
}

/** The newest list the stream has sent, once it satisfies `match`. */
async function listWhere(stream: Stream, match: (list: CheckinList) => boolean): Promise<CheckinList> {
  const frame = await stream.waitFor((f) => {
    const list = listOf(f);
    return list !== undefined && match(list);
  });
  return listOf(frame)!;
}

function inject(app: FastifyInstance, method: 'GET' | 'POST', url: string, cookie: string | undefined, payload?: object) {
  return app.inject({ method, url, ...(cookie ? { headers: { cookie } } : {}), ...(payload ? { payload } : {}) });
}

async function openCheckin(app: FastifyInstance, cookie: string, className: string): Promise<string> {
  const res = await inject(app, 'POST', '/api/checkins', cookie, { className });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

async function codeOf(app: FastifyInstance, cookie: string, id: string): Promise<NonNullable<Checkin['code']>> {
  const res = await inject(app, 'GET', `/api/checkins/${id}`, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as Checkin).code!;
}

describe('GET /api/checkins/:id/events', () => {
  let ctx: TestContext;
  let faculty: string;
  let baseUrl: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    faculty = await ctx.signIn('faculty');
    baseUrl = await listen(ctx.app);
  }, 60_000);
  afterAll(async () => ctx?.close());

  it('is for whoever may read the check-in: faculty and admins; a student is refused, the signed out asked to sign in', async () => {
    const id = await openCheckin(ctx.app, faculty, 'CSE2');
    const pupil = await ctx.signIn('student', { pin: 'LIVE09', className: 'CSE2' });
    for (const [cookie, status] of [[undefined, 401], [pupil, 403]] as const) {
      // The same answer as the check-in's own address gives.
      expect((await inject(ctx.app, 'GET', `/api/checkins/${id}`, cookie)).statusCode).toBe(status);
      const res = await inject(ctx.app, 'GET', `/api/checkins/${id}/events`, cookie);
      expect(res.statusCode).toBe(status);
      expect(res.headers['content-type']).toContain('application/json');
    }
    expect((await inject(ctx.app, 'GET', '/api/checkins/not-an-id/events', faculty)).statusCode).toBe(400);
    const unknown = await inject(ctx.app, 'GET', '/api/checkins/00000000-0000-4000-8000-000000000000/events', faculty);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'There is no such check-in' });

    // An admin, and a faculty member other than the one who opened it, follow it as they read it.
    for (const cookie of [await ctx.signIn('admin'), await ctx.signIn('faculty')]) {
      const stream = await openStream(`${baseUrl}/api/checkins/${id}/events`, cookie);
      try {
        expect(stream.status).toBe(200);
        await listWhere(stream, (list) => list.id === id);
      } finally {
        stream.close();
      }
    }
  });

  it('sends the list at once, then after each check-in, refusal, removal and the closing', async () => {
    const id = await openCheckin(ctx.app, faculty, 'CSE3');
    const [first, second, outsider] = await Promise.all([
      ctx.signIn('student', { pin: 'LIVE01', className: 'CSE3' }),
      ctx.signIn('student', { pin: 'LIVE02', className: 'CSE3' }),
      ctx.signIn('student', { pin: 'LIVE90', className: 'CSE4' }),
    ]);
    const stream = await openStream(`${baseUrl}/api/checkins/${id}/events`, faculty);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(stream.headers['cache-control']).toContain('no-transform');
      expect(stream.headers['x-accel-buffering']).toBe('no');
      const hello = await stream.waitFor((frame) => frame.comment === 'connected');
      expect(Number(hello.retry)).toBeGreaterThan(0);
      const opening = await listWhere(stream, () => true);
      expect(opening).toMatchObject({ id, class: 'CSE3', state: 'open', entries: [], checkedIn: 0, refusedCount: 0 });
      // The code never travels on the stream: the screen asks for it at each slot's end.
      expect(opening).not.toHaveProperty('code');
      expect(stream.frames.find((frame) => frame.event === CHECKIN_EVENT)?.data).not.toContain('token');

      const { token } = await codeOf(ctx.app, faculty, id);
      expect((await inject(ctx.app, 'POST', '/api/checkins/scan', first, { token })).statusCode).toBe(200);
      const checkedIn = await listWhere(stream, (list) => list.checkedIn === 1);
      expect(checkedIn.entries).toMatchObject([{ pin: 'LIVE01', name: 'Student LIVE01', status: 'present', flags: ['no-device-key'], removed: null }]);

      expect((await inject(ctx.app, 'POST', '/api/checkins/scan', outsider, { token })).statusCode).toBe(403);
      await listWhere(stream, (list) => list.refusedCount === 1);

      expect((await inject(ctx.app, 'POST', '/api/checkins/scan', second, { token })).statusCode).toBe(200);
      await listWhere(stream, (list) => list.checkedIn === 2);

      const removed = await inject(ctx.app, 'POST', `/api/checkins/${id}/remove`, faculty, { pin: 'LIVE01', reason: 'Not in the room' });
      expect(removed.statusCode).toBe(200);
      const afterRemoval = await listWhere(stream, (list) => list.checkedIn === 1 && list.entries.some((entry) => entry.removed !== null));
      expect(afterRemoval.entries.find((entry) => entry.pin === 'LIVE01')?.removed).toMatchObject({ reason: 'Not in the room' });

      expect((await inject(ctx.app, 'POST', `/api/checkins/${id}/close`, faculty)).statusCode).toBe(200);
      const closed = await listWhere(stream, (list) => list.state === 'closed');
      expect(closed).toMatchObject({ checkedIn: 1, refusedCount: 1, closedAt: expect.any(String) });
    } finally {
      stream.close();
    }
  });

  it("hears only its own check-in's changes", async () => {
    const mine = await openCheckin(ctx.app, faculty, 'CSE5');
    const theirs = await openCheckin(ctx.app, faculty, 'CSE6');
    const pupil = await ctx.signIn('student', { pin: 'LIVE60', className: 'CSE6' });
    const stream = await openStream(`${baseUrl}/api/checkins/${mine}/events`, faculty);
    try {
      await listWhere(stream, () => true);
      const { token } = await codeOf(ctx.app, faculty, theirs);
      expect((await inject(ctx.app, 'POST', '/api/checkins/scan', pupil, { token })).statusCode).toBe(200);
      // Closing its own check-in afterwards: by then the other's change would have arrived too.
      await inject(ctx.app, 'POST', `/api/checkins/${mine}/close`, faculty);
      await listWhere(stream, (list) => list.state === 'closed');
      const lists = stream.frames.map(listOf).filter((list) => list !== undefined);
      expect(lists.every((list) => list.id === mine && list.checkedIn === 0)).toBe(true);
    } finally {
      stream.close();
    }
  });
});

describe('CheckinWatch', () => {
  let ctx: TestContext;
  let faculty: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    faculty = await ctx.signIn('faculty');
  }, 60_000);
  afterAll(async () => ctx?.close());

  it("reads a burst of announcements once for every stream of the check-in, and none of another's", async () => {
    const id = await openCheckin(ctx.app, faculty, 'CSE7');
    // A hand-driven listener: the test decides when announcements arrive.
    let deliver: Listener = () => undefined;
    const watch = new CheckinWatch(ctx.database.db, {
      async listen(_channel, listener) {
        deliver = listener;
        return async () => undefined;
      },
    }, () => new Date());
    const heard: CheckinList[][] = [[], [], []];
    const stops: (() => void)[] = [];
    // One at a time, each hears the list as it is when it starts (and the earlier ones hear it again).
    for (const [index, lists] of heard.entries()) {
      stops.push(await watch.watch(id, (list) => lists.push(list)));
      await until(() => lists.length === 1 && heard.slice(0, index).every((earlier, at) => earlier.length === index - at + 1));
    }
    expect(heard.map((lists) => lists.length)).toEqual([3, 2, 1]);

    for (let i = 0; i < 5; i += 1) deliver(JSON.stringify({ id }));
    deliver(JSON.stringify({ id: '00000000-0000-4000-8000-000000000000' }));
    deliver('not json');
    await until(() => heard[2]!.length === 2);
    expect(heard.map((lists) => lists.length)).toEqual([4, 3, 2]);
    // One read, the same list for all three.
    expect(heard[0]!.at(-1)).toBe(heard[2]!.at(-1));
    expect(heard[1]!.at(-1)).toBe(heard[2]!.at(-1));

    expect(watch.size).toBe(3);
    for (const stop of stops) stop();
    expect(watch.size).toBe(0);
    deliver(JSON.stringify({ id }));
    await watch.close();
  });
});

/**
 * Two server processes on one PostgreSQL database: a check-in through one reaches the projector's
 * stream on the other through LISTEN/NOTIFY. PGlite is one process's embedded database.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('two servers on one PostgreSQL database (needs TEST_DATABASE_URL)', () => {
  const url = process.env.TEST_DATABASE_URL ?? '';
  let servers: ServersOnOneDatabase | undefined;
  let apps: FastifyInstance[] = [];

  beforeAll(async () => {
    servers = await startServersOnOneDatabase(url);
    apps = servers.apps;
    await putStudents(servers.db, [{ pin: 'TWO01', name: 'Two One', className: 'CSE8' }]);
    await addUser(servers.db, { email: 'two.faculty@test.university.edu', name: 'Two', role: 'faculty', password: TEST_PASSWORD });
    await addUser(servers.db, { email: 'two.student@test.university.edu', name: 'Two One', role: 'student', pin: 'TWO01', password: TEST_PASSWORD });
  }, 60_000);
  afterAll(async () => servers?.close());

  async function signIn(app: FastifyInstance, email: string, role: 'faculty' | 'student'): Promise<string> {
    const login = await inject(app, 'POST', '/api/auth/login', undefined, { email, password: TEST_PASSWORD, role, remember: false });
    expect(login.statusCode, login.body).toBe(200);
    return `portal_session=${login.cookies.find((c) => c.name === 'portal_session')!.value}`;
  }

  it('a student checked in through one server shows at once on a stream of the other', async () => {
    const [first, second] = apps as [FastifyInstance, FastifyInstance];
    // Sessions live in the database: a sign-in on one server is good on the other.
    const faculty = await signIn(first, 'two.faculty@test.university.edu', 'faculty');
    const pupil = await signIn(first, 'two.student@test.university.edu', 'student');
    const id = await openCheckin(first, faculty, 'CSE8');
    const stream = await openStream(`${await listen(second)}/api/checkins/${id}/events`, faculty);
    try {
      await listWhere(stream, (list) => list.checkedIn === 0);
      const { token } = await codeOf(first, faculty, id);
      expect((await inject(first, 'POST', '/api/checkins/scan', pupil, { token })).statusCode).toBe(200);
      const list = await listWhere(stream, (each) => each.checkedIn === 1);
      expect(list.entries.map((entry) => entry.name)).toEqual(['Two One']);
    } finally {
      stream.close();
    }
  });
});
