import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { addDays, todayIn } from '../../../shared/dates';
import type { Database, Listener } from '../../db/client';
import { students, users } from '../../db/schema';
import { authPlugin } from '../../plugins/auth';
import { errorsPlugin } from '../../plugins/errors';
import { EventStreams } from '../../plugins/event-stream';
import { Metrics } from '../../plugins/metrics';
import { listen, openStream as openEventStream, until, type Frame } from '../../test/sse-client';
import { createTestDatabase } from '../../test/test-db';
import { createTestContext, type ServersOnOneDatabase, startServersOnOneDatabase, TEST_PASSWORD, type TestContext } from '../../test/test-app';
import { authRoutes } from '../auth/routes';
import { resolveSignIn, SESSION_COOKIE } from '../auth/service';
import { addUser } from '../accounts/service';
import { eventRoutes, type EventRoutesOptions } from './routes';
import { AttendanceEventHub, parseAttendanceEvent } from './service';

const today = todayIn('UTC');
const ROSTER = ['E1', 'E2', 'E3'];

/** The live updates' stream of the server at `baseUrl`. */
const openStream = (baseUrl: string, cookie: string) => openEventStream(`${baseUrl}/api/events`, cookie);

const isAttendance = (className: string, date: string) => (frame: Frame) =>
  frame.event === 'attendance' && frame.data === JSON.stringify({ class: className, date, period: 0 });

function saveRegister(app: FastifyInstance, cookie: string, className: string, date: string, present: string[]) {
  return app.inject({
    method: 'PUT',
    url: `/api/attendance/${className}/${date}`,
    headers: { cookie },
    payload: { records: ROSTER.map((pin) => ({ pin, present: present.includes(pin) })) },
  });
}

describe('parseAttendanceEvent', () => {
  it('reads a class and a date and drops anything else', () => {
    expect(parseAttendanceEvent('{"class":"CSE1","date":"2026-03-02"}')).toEqual({ class: 'CSE1', date: '2026-03-02' });
    expect(parseAttendanceEvent('not json')).toBeNull();
    expect(parseAttendanceEvent('{"class":"CSE1"}')).toBeNull();
    expect(parseAttendanceEvent('{"class":"CSE1","date":"2026-02-30"}')).toBeNull();
  });
});

describe('AttendanceEventHub', () => {
  function fakeDatabase() {
    const listeners: Listener[] = [];
    let stopped = 0;
    return {
      listeners,
      stopped: () => stopped,
      async listen(_channel: string, listener: Listener) {
        listeners.push(listener);
        return async () => {
          stopped += 1;
        };
      },
    };
  }

  it('holds one database listener for any number of subscribers and fans each event out to all', async () => {
    const database = fakeDatabase();
    const hub = new AttendanceEventHub(database);
    const seen: string[] = [];
    const stops = await Promise.all(
      ['a', 'b', 'c'].map((name) => hub.subscribe((event) => seen.push(`${name}:${event.class}`))),
    );
    expect(database.listeners).toHaveLength(1);
    database.listeners[0]!('{"class":"CSE2","date":"2026-03-02"}');
    expect(seen).toEqual(['a:CSE2', 'b:CSE2', 'c:CSE2']);

    stops[1]!();
    database.listeners[0]!('{"class":"CSE3","date":"2026-03-02"}');
    database.listeners[0]!('garbage');
    expect(seen.slice(3)).toEqual(['a:CSE3', 'c:CSE3']);
    expect(hub.size).toBe(2);
    await hub.close();
    expect(database.stopped()).toBe(1);
    expect(hub.size).toBe(0);
  });

  it('keeps delivering to the others when one subscriber throws', async () => {
    const database = fakeDatabase();
    const errors: unknown[] = [];
    const hub = new AttendanceEventHub(database, (err) => errors.push(err));
    const seen: string[] = [];
    await hub.subscribe(() => {
      throw new Error('socket gone');
    });
    await hub.subscribe((event) => seen.push(event.date));
    database.listeners[0]!('{"class":"CSE2","date":"2026-03-02"}');
    expect(seen).toEqual(['2026-03-02']);
    expect(errors).toHaveLength(1);
  });

  it('tries the database listener again after a failed start', async () => {
    let attempts = 0;
    const hub = new AttendanceEventHub({
      async listen() {
        attempts += 1;
        if (attempts === 1) throw new Error('database down');
        return async () => undefined;
      },
    });
    await expect(hub.subscribe(() => undefined)).rejects.toThrow('database down');
    await hub.subscribe(() => undefined);
    expect(attempts).toBe(2);
    expect(hub.size).toBe(1);
  });
});

describe('GET /api/events through the whole app', () => {
  let ctx: TestContext;
  let faculty: string;
  let baseUrl: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    await ctx.database.db.insert(students).values(ROSTER.map((pin) => ({ pin, name: `Name ${pin}`, className: 'CSE6' })));
    faculty = await ctx.signIn('faculty');
    baseUrl = await listen(ctx.app);
  });
  afterAll(async () => ctx.close());

  it('asks a signed-out caller to sign in; a student hears their own notices and no register saved', async () => {
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/events' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: 'Please sign in' });
    const student = await ctx.signIn('student', { email: 'events.student@uni.edu', pin: 'E1', className: 'CSE6' });
    const [account] = await ctx.database.db.select({ id: users.id }).from(users).where(eq(users.email, 'events.student@uni.edu'));
    const stream = await openStream(baseUrl, student);
    try {
      expect(stream.status).toBe(200);
      await stream.waitFor((frame) => frame.comment === 'connected');
      expect((await saveRegister(ctx.app, faculty, 'CSE6', addDays(today, -3), ['E1'])).statusCode).toBe(200);
      // Another account's notice, then the student's own: only the second reaches this stream.
      await ctx.database.notify('notifications', JSON.stringify({ userId: '00000000-0000-0000-0000-000000000000' }));
      await ctx.database.notify('notifications', JSON.stringify({ userId: account!.id }));
      await stream.waitFor((frame) => frame.event === 'notification');
      expect(stream.frames.filter((frame) => frame.event !== undefined).map((frame) => frame.event)).toEqual(['notification']);
    } finally {
      stream.close();
    }
  });

  it('streams an attendance event with the class and date each time a register is saved', async () => {
    const stream = await openStream(baseUrl, faculty);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(stream.headers['cache-control']).toContain('no-transform');
      expect(stream.headers['x-accel-buffering']).toBe('no');
      // The stream writes its own head: the request's id is in it all the same.
      expect(stream.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const hello = await stream.waitFor((frame) => frame.comment === 'connected');
      expect(Number(hello.retry)).toBeGreaterThan(0);

      expect((await saveRegister(ctx.app, faculty, 'CSE6', today, ['E1'])).statusCode).toBe(200);
      await stream.waitFor(isAttendance('CSE6', today));
      // A replacement of the same register is news too.
      expect((await saveRegister(ctx.app, faculty, 'CSE6', today, ['E1', 'E2'])).statusCode).toBe(200);
      await until(() => stream.frames.filter(isAttendance('CSE6', today)).length === 2);
    } finally {
      stream.close();
    }
  });

  it('reaches every open stream', async () => {
    const streams = await Promise.all([openStream(baseUrl, faculty), openStream(baseUrl, faculty)]);
    try {
      await Promise.all(streams.map((s) => s.waitFor((frame) => frame.comment === 'connected')));
      await saveRegister(ctx.app, faculty, 'CSE6', today, []);
      await Promise.all(streams.map((s) => s.waitFor(isAttendance('CSE6', today))));
    } finally {
      for (const s of streams) s.close();
    }
  });
});

describe('event streams over time', () => {
  let database: Database;
  let app: FastifyInstance;
  let hub: AttendanceEventHub;
  let cookie: string;
  let baseUrl: string;
  let notify: Listener = () => undefined;

  /** Just sign-in and the event route, with timings short enough to watch. */
  async function eventsApp(options: Omit<EventRoutesOptions, 'database'>): Promise<FastifyInstance> {
    const instance = Fastify().withTypeProvider<ZodTypeProvider>();
    instance.setValidatorCompiler(validatorCompiler);
    instance.setSerializerCompiler(serializerCompiler);
    await instance.register(errorsPlugin);
    await instance.register(fastifyCookie, { secret: 'a test key of more than thirty-two characters' });
    await instance.register(authPlugin, {
      cookieName: SESSION_COOKIE,
      authenticate: (token: string) => resolveSignIn(database.db, token),
    });
    await instance.register(authRoutes, { db: database.db });
    await instance.register(eventRoutes, { database, ...options });
    return instance;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    await addUser(database.db, { email: 'sse@test.university.edu', name: 'SSE', role: 'faculty', password: TEST_PASSWORD });
    // A hub over a hand-driven listener: the test decides when a notification arrives.
    hub = new AttendanceEventHub({
      async listen(_channel, listener) {
        notify = listener;
        return async () => undefined;
      },
    });
    app = await eventsApp({ hub, streams: new EventStreams({ heartbeatMs: 40, maxStreamMs: 400, retryMs: 1234 }) });
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'sse@test.university.edu', password: TEST_PASSWORD, role: 'faculty', remember: false },
    });
    cookie = `portal_session=${login.cookies.find((c) => c.name === 'portal_session')!.value}`;
    baseUrl = await listen(app);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('sends the retry delay and a heartbeat comment while idle', async () => {
    const stream = await openStream(baseUrl, cookie);
    try {
      expect((await stream.waitFor((f) => f.retry !== undefined)).retry).toBe('1234');
      await stream.waitFor((f) => f.comment === 'heartbeat');
    } finally {
      stream.close();
    }
  });

  it('stops listening for a client that disconnects', async () => {
    const stream = await openStream(baseUrl, cookie);
    await stream.waitFor((f) => f.comment === 'connected');
    await until(() => hub.size === 1);
    stream.close();
    await until(() => hub.size === 0);
    // A notification after the client left goes nowhere and breaks nothing.
    notify('{"class":"CSE1","date":"2026-03-02"}');
  });

  it('ends a long-lived stream so that the browser reconnects and signs in afresh', async () => {
    const stream = await openStream(baseUrl, cookie);
    await stream.waitFor((f) => f.comment === 'connected');
    await stream.ended;
    await until(() => hub.size === 0);
  });

  it('ends open streams when the server closes, instead of waiting for them, with a hint to reconnect', async () => {
    const localHub = new AttendanceEventHub({ listen: async () => async () => undefined });
    const metrics = new Metrics();
    const local = await eventsApp({ hub: localHub, streams: new EventStreams({ retryMs: 1000, metrics }) });
    const url = await listen(local);
    const stream = await openStream(url, cookie);
    await stream.waitFor((f) => f.comment === 'connected');
    expect(await metrics.text()).toContain('portal_live_update_clients 1');
    await local.close();
    await stream.ended;
    expect(localHub.size).toBe(0);
    // The last frame: reconnect after a delay spread between once and twice the usual one.
    const last = stream.frames.at(-1)!;
    expect(last.comment).toBe('closing');
    expect(Number(last.retry)).toBeGreaterThanOrEqual(1000);
    expect(Number(last.retry)).toBeLessThan(2000);
    expect(await metrics.text()).toContain('portal_live_update_clients 0');
  });
});

/**
 * Two server processes on one PostgreSQL database: a save on one must reach a stream on the
 * other through LISTEN/NOTIFY. PGlite is one process's embedded database, so there is nothing to
 * share there.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('two servers on one PostgreSQL database (needs TEST_DATABASE_URL)', () => {
  const url = process.env.TEST_DATABASE_URL ?? '';
  let servers: ServersOnOneDatabase | undefined;
  let apps: FastifyInstance[] = [];

  beforeAll(async () => {
    servers = await startServersOnOneDatabase(url);
    apps = servers.apps;
    await servers.db.insert(students).values(ROSTER.map((pin) => ({ pin, name: `Name ${pin}`, className: 'CSE7' })));
    await addUser(servers.db, { email: 'two@test.university.edu', name: 'Two', role: 'faculty', password: TEST_PASSWORD });
  });
  afterAll(async () => servers?.close());

  it('a register saved through one server reaches a stream opened on the other', async () => {
    const [first, second] = apps as [FastifyInstance, FastifyInstance];
    // Sessions live in the database: a sign-in on the first server is good on the second.
    const login = await first.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'two@test.university.edu', password: TEST_PASSWORD, role: 'faculty', remember: false },
    });
    const cookie = `portal_session=${login.cookies.find((c) => c.name === 'portal_session')!.value}`;
    const onSecond = await openStream(await listen(second), cookie);
    const onFirst = await openStream(await listen(first), cookie);
    try {
      await Promise.all([onSecond, onFirst].map((s) => s.waitFor((f) => f.comment === 'connected')));
      expect((await saveRegister(first, cookie, 'CSE7', today, ['E3'])).statusCode).toBe(200);
      await onSecond.waitFor(isAttendance('CSE7', today));
      await onFirst.waitFor(isAttendance('CSE7', today));
    } finally {
      onSecond.close();
      onFirst.close();
    }
  });
});
