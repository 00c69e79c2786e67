import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { contactMessages } from '../../db/schema';
import { queueMail } from '../mail/service';
import { createTestContext, type TestContext, TEST_APP_CONFIG } from '../../test/test-app';
import { openDatabase } from '../../db/client';
import { createPostgresCopy, createTestDatabase, type TestDatabase } from '../../test/test-db';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
const config = { ...TEST_APP_CONFIG } as const;
const TOKEN = 'metrics-token-0123456789abcdef0123456789';

/** Another machine's address, as the socket would give it. */
const ELSEWHERE = '192.0.2.10';

/** The value of one sample of the metrics' text (`name{labels} value`), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const has = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => has[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describe('liveness and readiness', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx.close());

  it('is ready on a migrated database, and says so without a sign-in', async () => {
    const ready = await ctx.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
    expect(ready.headers['cache-control']).toBe('no-store');
    const health = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json()).toEqual({ status: 'ok', database: engine });
  });

  it('answers health while the database is gone; readiness then says the database is unreachable', async () => {
    // A database this test closes itself: a PostgreSQL copy is dropped afterwards; an embedded
    // one's folder goes with its close.
    const serverUrl = process.env.TEST_DATABASE_URL;
    const copy = serverUrl ? await createPostgresCopy(serverUrl) : undefined;
    const database = copy ? await openDatabase({ databaseUrl: copy.url }) : await createTestDatabase();
    const app = await buildApp({ database, config });
    try {
      await database.close();
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'ok', database: engine });
      const ready = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'not ready', reason: 'database unreachable' });
    } finally {
      await app.close();
      await copy?.drop();
    }
  });

  it('is not ready while a migration of this build is missing from the database', async () => {
    const database = await createTestDatabase();
    const app = await buildApp({ database, config });
    try {
      await database.db.execute(sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`);
      const ready = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'not ready', reason: 'migrations pending' });
      await database.db.execute(sql`drop table drizzle.__drizzle_migrations`);
      expect((await app.inject({ method: 'GET', url: '/api/ready' })).json()).toEqual({ status: 'not ready', reason: 'migrations pending' });
    } finally {
      await app.close();
      await database.destroy();
    }
  });

  it('answers 503 "shutting down" to a request that arrives while the server stops', async () => {
    const database = await createTestDatabase();
    const app = await buildApp({ database, config });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const socket = connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      // The request has begun (so its connection is not idle) when the stop comes, and ends after.
      socket.write('GET /api/ready HTTP/1.1\r\nHost: portal\r\n');
      await new Promise((resolve) => setTimeout(resolve, 50));
      const closing = app.close();
      socket.write('\r\n');
      await ended;
      await closing;
      expect(answer).toMatch(/^HTTP\/1\.1 503 /);
      expect(answer.toLowerCase()).toContain('connection: close');
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ status: 'not ready', reason: 'shutting down' });
    } finally {
      await app.close();
      await database.destroy();
    }
  });
});

describe('metrics', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let faculty: string;
  beforeAll(async () => {
    const made = await createTestContext({
      metricsToken: TOKEN,
      // Forwarding on: the forwarder's outbox is reported (the forwarder itself runs in main.ts, not here).
      formService: { endpoint: 'http://127.0.0.1:9/form', accessKey: 'key' },
    });
    database = made.database;
    app = made.app;
    faculty = await made.signIn('faculty');
    return () => made.close();
  });

  const scrape = async (headers: Record<string, string> = {}, remoteAddress?: string) =>
    app.inject({ method: 'GET', url: '/metrics', headers, ...(remoteAddress ? { remoteAddress } : {}) });

  it('are open on the loopback address, in Prometheus text', async () => {
    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const family of [
      'portal_http_request_duration_seconds',
      'portal_db_pool_in_use',
      'portal_db_pool_waiting',
      'portal_db_pool_size',
      'portal_live_update_clients',
      'portal_event_loop_delay_seconds',
      'portal_report_cache_requests_total',
      'portal_contact_outbox_depth',
      'portal_contact_outbox_oldest_age_seconds',
      'portal_mail_outbox_depth',
      'portal_mail_outbox_oldest_age_seconds',
      'portal_backup_last_age_seconds',
    ]) {
      expect(res.body, family).toContain(`# TYPE ${family} `);
    }
  });

  it('need the token from another machine, or when a proxy forwarded the request', async () => {
    for (const [headers, remote] of [
      [{}, ELSEWHERE],
      [{ authorization: 'Bearer not-the-token' }, ELSEWHERE],
      [{ authorization: `Basic ${TOKEN}` }, ELSEWHERE],
      // A proxy on this machine forwards everyone's requests from the loopback address.
      [{ 'x-forwarded-for': '203.0.113.7' }, undefined],
      [{ forwarded: 'for=203.0.113.7' }, undefined],
      [{ 'x-real-ip': '203.0.113.7' }, undefined],
    ] as const) {
      const res = await scrape(headers, remote);
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json().message).toContain('Bearer');
    }
    const withToken = await scrape({ authorization: `Bearer ${TOKEN}` }, ELSEWHERE);
    expect(withToken.statusCode).toBe(200);
    expect(withToken.body).toContain('portal_db_pool_in_use');
  });

  it('are closed to other machines when no token is set', async () => {
    const other = await buildApp({ database, config });
    try {
      const res = await other.inject({ method: 'GET', url: '/metrics', remoteAddress: ELSEWHERE, headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toContain('PORTAL_METRICS_TOKEN');
      // The outbox is reported only where messages are forwarded.
      expect((await other.inject({ method: 'GET', url: '/metrics' })).body).not.toContain('portal_contact_outbox_depth');
    } finally {
      await other.close();
    }
  });

  it('time requests by route pattern, method and status, not by address', async () => {
    await app.inject({ method: 'GET', url: '/api/students/NO-SUCH-PIN-1', headers: { cookie: faculty } });
    await app.inject({ method: 'GET', url: '/api/students/NO-SUCH-PIN-2', headers: { cookie: faculty } });
    await app.inject({ method: 'GET', url: '/api/no-such-route' });
    const text = (await scrape()).body;
    const count = sample(text, 'portal_http_request_duration_seconds_count', { route: '/api/students/:pin', method: 'GET', status_code: '404' });
    expect(count).toBe(2);
    expect(text).not.toContain('NO-SUCH-PIN');
    expect(sample(text, 'portal_http_request_duration_seconds_count', { route: 'none', method: 'GET', status_code: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('/api/no-such-route');
  });

  it("count the report cache's hits and misses", async () => {
    const before = (await scrape()).body;
    const of = (text: string, outcome: string) => sample(text, 'portal_report_cache_requests_total', { cache: 'reports', outcome }) ?? 0;
    const first = await app.inject({ method: 'GET', url: '/api/reports/dashboard', headers: { cookie: faculty } });
    expect(first.statusCode).toBe(200);
    await app.inject({ method: 'GET', url: '/api/reports/dashboard', headers: { cookie: faculty } });
    await app.inject({ method: 'GET', url: '/api/reports/dashboard', headers: { cookie: faculty, 'if-none-match': first.headers.etag as string } });
    const after = (await scrape()).body;
    expect(of(after, 'miss') - of(before, 'miss')).toBe(1);
    expect(of(after, 'hit') - of(before, 'hit')).toBe(2);
  });

  it("report the forwarder's outbox: how many messages wait, and for how long the oldest has", async () => {
    const empty = (await scrape()).body;
    expect(sample(empty, 'portal_contact_outbox_depth')).toBe(0);
    expect(sample(empty, 'portal_contact_outbox_oldest_age_seconds')).toBe(0);
    const message = { email: 'a@example.com', subject: 'S', message: 'M' };
    await database.db.insert(contactMessages).values([
      { ...message, name: 'Waiting', createdAt: new Date(Date.now() - 120_000) },
      { ...message, name: 'Forwarded', forwardedAt: new Date(), createdAt: new Date(Date.now() - 3_600_000) },
      { ...message, name: 'Given up', forwardError: 'refused', nextAttemptAt: null, createdAt: new Date(Date.now() - 7_200_000) },
    ]);
    // Read a second later: the two families share one query a second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const text = (await scrape()).body;
    expect(sample(text, 'portal_contact_outbox_depth')).toBe(1);
    const age = sample(text, 'portal_contact_outbox_oldest_age_seconds')!;
    expect(age).toBeGreaterThanOrEqual(119);
    expect(age).toBeLessThan(3600);
  });

  it('report the mail outbox: how many e-mails wait, and for how long the oldest has', async () => {
    const before = (await scrape()).body;
    expect(sample(before, 'portal_mail_outbox_depth')).toBe(0);
    await queueMail(database.db, { to: 'a@example.com', subject: 'S', text: 'M' });
    await database.db.execute(sql`update mail_outbox set created_at = now() - interval '60 seconds'`);
    // Read a second later: the two families share one query a second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const text = (await scrape()).body;
    expect(sample(text, 'portal_mail_outbox_depth')).toBe(1);
    expect(sample(text, 'portal_mail_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(59);
  });

  it("report the database's connections", async () => {
    const text = (await scrape()).body;
    expect(sample(text, 'portal_db_pool_size')).toBeGreaterThanOrEqual(1);
    if (engine === 'pglite') expect(sample(text, 'portal_db_pool_size')).toBe(1);
    expect(sample(text, 'portal_db_pool_waiting')).toBe(0);
    expect(sample(text, 'portal_live_update_clients')).toBe(0);
  });
});
