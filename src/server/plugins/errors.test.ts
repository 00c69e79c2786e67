import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { REQUEST_TIMEOUT_MS } from '../app';
import { openDatabase } from '../db/client';
import { onPostgres } from '../test/postgres';
import { withFacultyApp, type TestContext } from '../test/test-app';
import { createPostgresCopy } from '../test/test-db';
import { errorsPlugin, TOO_LONG_MESSAGE } from './errors';

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
  /** A bare app with the API's error handler and one route that runs `work`. */
  async function appRunning(work: () => Promise<unknown>, handlerTimeout?: number) {
    const app = Fastify(handlerTimeout ? { handlerTimeout } : {});
    await app.register(errorsPlugin);
    app.get('/slow', async () => {
      await work();
      return { done: true };
    });
    return app;
  }

  it("sets the portal's limits: 30 s to answer, and to receive the request", () => {
    expect(ctx.app.initialConfig).toMatchObject({ handlerTimeout: REQUEST_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS });
    expect(REQUEST_TIMEOUT_MS).toBe(30_000);
  });

  it('answers 503 once the handler runs past its time', async () => {
    const app = await appRunning(() => new Promise((resolve) => setTimeout(resolve, 500)), 50);
    try {
      const res = await app.inject({ method: 'GET', url: '/slow' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: TOO_LONG_MESSAGE });
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
