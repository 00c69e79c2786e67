import { PassThrough } from 'node:stream';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { REQUEST_TIMEOUT_MS } from '../app';
import { openDatabase, queryRows } from '../db/client';
import { onPostgres } from '../test/postgres';
import { withFacultyApp, type TestContext } from '../test/test-app';
import { createPostgresCopy } from '../test/test-db';
import { CONFLICT_MESSAGE, DATABASE_UNAVAILABLE_MESSAGE, errorsPlugin, isDatabaseUnavailable, TOO_LONG_MESSAGE } from './errors';
import { requestTimeoutPlugin } from './request-timeout';

let ctx: TestContext;
let faculty: string;
withFacultyApp((made) => ({ ctx, faculty } = made));

describe('requests PostgreSQL could not store get a 400, never a 500', () => {
  it('refuses the NUL character in a body, a path and a query, on public and faculty routes', async () => {
    const requests = [
      { method: 'POST' as const, url: '/api/contact', payload: { name: 'a\u0000', email: 'a@b.co', subject: 's', message: 'm' } },
      { method: 'POST' as const, url: '/api/registrations', payload: { name: 'a', designation: 'd', pin: 'P1', github: 'https://a.b/\u0000' } },
      { method: 'GET' as const, url: '/api/attendance/%00/2024-01-01', headers: { cookie: faculty } },
      { method: 'GET' as const, url: '/api/reports/dashboard?class=%00', headers: { cookie: faculty } },
    ];
    for (const request of requests) {
      const res = await ctx.app.inject(request);
      expect(res.statusCode, request.url).toBe(400);
      expect(res.json()).toEqual({ message: 'Text may not contain the NUL character' });
    }
  });

  it('answers router errors in the API error shape', async () => {
    const badEscape = await ctx.app.inject({ method: 'GET', url: '/api/attendance/%E0%A4%A/2024-01-01', headers: { cookie: faculty } });
    expect(badEscape.statusCode).toBe(400);
    expect(badEscape.json()).toEqual({ message: 'The address is not valid' });
    const longParam = await ctx.app.inject({ method: 'GET', url: `/api/students/${'P'.repeat(150)}`, headers: { cookie: faculty } });
    expect(longParam.statusCode).toBeLessThan(500);
    expect(Object.keys(longParam.json())).toEqual(['message']);
  });
});

describe('who may ask comes before what is asked', () => {
  it('a signed-out client gets 401 even with malformed parameters', async () => {
    for (const url of ['/api/attendance/CSE1/not-a-date', '/api/classes/NOPE/students', '/api/students/%20', '/api/reports/dashboard?class=NOPE']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
    }
  });
});

describe('a request that takes too long gets 503, never a 500', () => {
  /** A bare app with the API's error handler, the request time limit, and routes that take their time. */
  async function appRunning(work: () => Promise<unknown>, timeoutMs = REQUEST_TIMEOUT_MS) {
    const app = Fastify();
    await app.register(errorsPlugin);
    await app.register(requestTimeoutPlugin, { timeoutMs });
    app.get('/slow', async () => {
      await work();
      return { done: true };
    });
    app.get('/slow-by-design', { config: { untimed: true } }, async () => {
      await work();
      return { done: true };
    });
    // An answer that begins at once and takes longer than the limit to end.
    app.get('/stream', async (_request, reply) => {
      const stream = new PassThrough();
      stream.write('first ');
      setTimeout(() => stream.end('last'), timeoutMs * 4);
      return reply.type('text/plain').send(stream);
    });
    return app;
  }

  it("sets the portal's limit: 30 s to receive a request, and to begin its answer", () => {
    expect(REQUEST_TIMEOUT_MS).toBe(30_000);
    expect(ctx.app.initialConfig).toMatchObject({ requestTimeout: REQUEST_TIMEOUT_MS });
  });

  it('answers 503 when the answer has not begun in time, and leaves a begun one alone', async () => {
    const app = await appRunning(() => new Promise((resolve) => setTimeout(resolve, 500)), 50);
    try {
      const res = await app.inject({ method: 'GET', url: '/slow' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: TOO_LONG_MESSAGE });
      const streamed = await app.inject({ method: 'GET', url: '/stream' });
      expect(streamed.statusCode).toBe(200);
      expect(streamed.body).toBe('first last');
      // A route marked untimed (a backup's download) takes the time it needs.
      const untimed = await app.inject({ method: 'GET', url: '/slow-by-design' });
      expect(untimed.statusCode).toBe(200);
      expect(untimed.json()).toEqual({ done: true });
    } finally {
      await app.close();
    }
  });

  it.runIf(onPostgres)('answers 503 when PostgreSQL cancels a statement past PORTAL_STATEMENT_TIMEOUT_MS', async () => {
    const copy = await createPostgresCopy(process.env.TEST_DATABASE_URL!);
    const database = await openDatabase({ databaseUrl: copy.url, statementTimeoutMs: 100 });
    const app = await appRunning(() => Promise.resolve(database.db.execute(sql`select pg_sleep(2)`)));
    try {
      const res = await app.inject({ method: 'GET', url: '/slow' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: TOO_LONG_MESSAGE });
    } finally {
      await app.close();
      await database.close();
      await copy.drop();
    }
  });
});

describe('a database that is not there gets 503, never a 500', () => {
  it('knows a lost or refused connection, however it is wrapped, from a fault of the query', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    for (const error of [
      refused,
      shutdown,
      new Error('Failed query', { cause: shutdown }),
      new Error('Connection terminated unexpectedly'),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
    ]) {
      expect(isDatabaseUnavailable(error), error.message).toBe(true);
    }
    for (const error of [new Error('boom'), Object.assign(new Error('duplicate key'), { code: '23505' }), Object.assign(new Error('canceled'), { code: '57014' })]) {
      expect(isDatabaseUnavailable(error), error.message).toBe(false);
    }
  });

  it('answers 503 with words a user can act on', async () => {
    const app = Fastify();
    await app.register(errorsPlugin);
    app.get('/down', async () => {
      throw new Error('Failed query', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }) });
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/down' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: DATABASE_UNAVAILABLE_MESSAGE });
    } finally {
      await app.close();
    }
  });
});


describe('a transaction PostgreSQL rolled back for a conflict gets 503, never a 500', () => {
  it.runIf(onPostgres)('answers a deadlock so, with nothing of the request kept', async () => {
    const copy = await createPostgresCopy(process.env.TEST_DATABASE_URL!);
    const database = await openDatabase({ databaseUrl: copy.url });
    const app = Fastify();
    await app.register(errorsPlugin);
    // Each request takes one lock, waits until the other holds its own, then asks for the other's.
    let arrived = 0;
    let bothHold!: () => void;
    const holding = new Promise<void>((resolve) => (bothHold = resolve));
    app.post<{ Params: { first: string; second: string } }>('/lock/:first/:second', async (request) => {
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into audit_log (actor, action, target) values ('test', 'conflict', ${request.params.first})`);
        await tx.execute(sql`select pg_advisory_xact_lock(${Number(request.params.first)})`);
        if ((arrived += 1) === 2) bothHold();
        await holding;
        await tx.execute(sql`select pg_advisory_xact_lock(${Number(request.params.second)})`);
      });
      return { done: true };
    });
    try {
      const answers = await Promise.all([app.inject({ method: 'POST', url: '/lock/1/2' }), app.inject({ method: 'POST', url: '/lock/2/1' })]);
      expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 503]);
      expect(answers.find((res) => res.statusCode === 503)!.json()).toEqual({ message: CONFLICT_MESSAGE });
      // The refused one's row went with its transaction.
      const [row] = await queryRows<{ count: number }>(database.db, sql`select count(*)::int as count from audit_log where action = 'conflict'`);
      expect(row!.count).toBe(1);
    } finally {
      await app.close();
      await database.close();
      await copy.drop();
    }
  });
});
