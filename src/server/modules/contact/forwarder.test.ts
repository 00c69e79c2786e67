import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ContactMessage } from '../../../shared/schemas/contact';
import { buildApp } from '../../app';
import { openDatabase, type Database } from '../../db/client';
import { contactMessages } from '../../db/schema';
import { withDatabase } from '../../test/postgres';
import { createTestContext, type TestContext, TEST_APP_CONFIG } from '../../test/test-app';
import { ContactForwarder, retryDelay, type ForwarderLog, type ForwarderOptions } from './forwarder';
import { claimDue, insertMessage } from './repository';

const ACCESS_KEY = 'test-access-key-5f2c9e';

interface Received {
  contentType: string | undefined;
  body: Record<string, unknown>;
}

type Reply = (res: ServerResponse, index: number) => void;

/** A stand-in for the form-submission service on 127.0.0.1; `reply` decides each answer. */
async function startFakeService(reply: Reply) {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const index = received.length;
      received.push({
        contentType: req.headers['content-type'],
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
      });
      reply(res, index);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/submit`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const ok = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
const serverError = (res: ServerResponse) => res.writeHead(500).end('boom');

function recordingLog(): ForwarderLog & { lines: string[] } {
  const lines: string[] = [];
  const write = (obj: object, msg: string) => lines.push(`${msg} ${JSON.stringify(obj)}`);
  return { lines, info: write, warn: write, error: write };
}

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let ctx: TestContext;
let fake: Awaited<ReturnType<typeof startFakeService>> | undefined;
const forwarders: ContactForwarder[] = [];
const extraDatabases: Database[] = [];

// One database for the file; each test starts with no messages and stops its workers.
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await ctx.database.db.delete(contactMessages);
});
afterEach(async () => {
  await Promise.all(forwarders.splice(0).map((f) => f.stop()));
  await Promise.all(extraDatabases.splice(0).map((d) => d.close()));
  await fake?.close();
  fake = undefined;
});

function forwarder(options: Partial<ForwarderOptions> = {}): ContactForwarder {
  if (!fake) throw new Error('start the fake service first');
  const created = new ContactForwarder({
    database: ctx.database,
    service: { endpoint: fake.url, accessKey: ACCESS_KEY },
    log: recordingLog(),
    pollIntervalMs: 20,
    retryBaseMs: 50,
    retryMaxMs: 200,
    requestTimeoutMs: 2_000,
    ...options,
  });
  forwarders.push(created);
  return created;
}

let counter = 0;
function store(database: Pick<Database, 'db'> = ctx.database, subject?: string) {
  counter += 1;
  return insertMessage(database.db, {
    name: 'Rahul Verma',
    email: 'rahul.verma@example.com',
    phone: counter % 2 ? '+91 91234 56789' : null,
    subject: subject ?? `Hostel enquiry ${counter}`,
    message: 'Is there a hostel for first-year students?',
  });
}

async function row(id: number) {
  const [found] = await ctx.database.db.select().from(contactMessages).where(eq(contactMessages.id, id));
  if (!found) throw new Error('message disappeared');
  return found;
}

/**
 * The database a second worker uses: on PostgreSQL a connection pool of its own to the same
 * database, like a second server process; the embedded database has one connection to share.
 */
async function secondWorkerDatabase(): Promise<Pick<Database, 'db' | 'listen'>> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url || ctx.database.kind !== 'postgres') return ctx.database;
  const result = await ctx.database.db.execute<{ name: string }>(sql`select current_database() as name`);
  const name = (result as unknown as { rows: { name: string }[] }).rows[0]!.name;
  const other = await openDatabase({ databaseUrl: withDatabase(url, name) });
  extraDatabases.push(other);
  return other;
}

describe('retryDelay', () => {
  it('doubles from the base and stops at the cap', () => {
    expect([1, 2, 3, 4].map((n) => retryDelay(n, 5_000, 3_600_000))).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(retryDelay(12, 5_000, 3_600_000)).toBe(3_600_000);
    expect(retryDelay(500, 5_000, 3_600_000)).toBe(3_600_000);
  });
});

describe('forwarding contact messages', () => {
  it('sends a stored message once, with the access key and the five fields', async () => {
    fake = await startFakeService(ok);
    const message = await store();
    await forwarder().start();
    await eventually(async () => (await row(message.id)).forwardedAt !== null, 'the message is forwarded');

    expect(fake.received).toHaveLength(1);
    expect(fake.received[0]!.contentType).toBe('application/json');
    expect(fake.received[0]!.body).toEqual({
      access_key: ACCESS_KEY,
      name: 'Rahul Verma',
      email: 'rahul.verma@example.com',
      phone: message.phone ?? '',
      subject: message.subject,
      message: 'Is there a hostel for first-year students?',
    });
    const after = await row(message.id);
    expect(after).toMatchObject({ forwardError: null, forwardAttempts: 1, nextAttemptAt: null });

    // Many more polls, and a restart: a forwarded message is never sent again.
    await pause(200);
    await forwarders[0]!.stop();
    await forwarder().start();
    await pause(200);
    expect(fake.received).toHaveLength(1);
  });

  it('sends an empty phone as an empty text', async () => {
    fake = await startFakeService(ok);
    counter = 1; // the next message has no phone
    const message = await store();
    expect(message.phone).toBeNull();
    await forwarder().start();
    await eventually(async () => (await row(message.id)).forwardedAt !== null, 'the message is forwarded');
    expect(fake.received[0]!.body.phone).toBe('');
  });

  it('retries after a 500 and then forwards the message exactly once', async () => {
    fake = await startFakeService((res, index) => (index === 0 ? serverError(res) : ok(res)));
    const message = await store();
    const log = recordingLog();
    await forwarder({ log }).start();

    await eventually(async () => (await row(message.id)).forwardError !== null, 'the failure is recorded');
    const failed = await row(message.id);
    expect(failed.forwardError).toBe('The form service answered 500 Internal Server Error');
    expect(failed.forwardAttempts).toBe(1);
    expect(failed.forwardedAt).toBeNull();

    await eventually(async () => (await row(message.id)).forwardedAt !== null, 'the retry succeeds');
    const after = await row(message.id);
    expect(after).toMatchObject({ forwardError: null, forwardAttempts: 2, nextAttemptAt: null });
    await pause(200);
    expect(fake.received).toHaveLength(2);
    expect(fake.received.filter((r) => r.body.subject === message.subject)).toHaveLength(2);
    expect(log.lines.some((line) => line.includes('will retry'))).toBe(true);
  });

  it('records a timeout and keeps the message stored for a later try', async () => {
    const hanging: ServerResponse[] = [];
    fake = await startFakeService((res) => hanging.push(res));
    const message = await store();
    await forwarder({ requestTimeoutMs: 150, retryBaseMs: 60_000, retryMaxMs: 60_000 }).start();

    await eventually(async () => (await row(message.id)).forwardError !== null, 'the timeout is recorded');
    const after = await row(message.id);
    expect(after.forwardError).toBe('The form service did not answer within 0.2 s');
    expect(after.forwardAttempts).toBe(1);
    expect(after.forwardedAt).toBeNull();
    expect(after.message).toBe('Is there a hostel for first-year students?');
    // The next try waits for the back-off: about a minute away.
    expect(after.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 30_000);
    await pause(150);
    expect(fake.received).toHaveLength(1);
  });

  it('records an unreachable service without leaking the key, and gives up after the last try', async () => {
    fake = await startFakeService(ok);
    const log = recordingLog();
    const message = await store();
    const unreachable = new ContactForwarder({
      database: ctx.database,
      // Port 9 on the loopback address: nothing listens there.
      service: { endpoint: 'http://127.0.0.1:9/submit', accessKey: ACCESS_KEY },
      log,
      pollIntervalMs: 20,
      retryBaseMs: 10,
      retryMaxMs: 20,
      maxAttempts: 3,
    });
    forwarders.push(unreachable);
    await unreachable.start();
    await eventually(async () => (await row(message.id)).forwardAttempts === 3, 'three tries are made');
    await pause(150);
    const after = await row(message.id);
    expect(after).toMatchObject({ forwardAttempts: 3, forwardedAt: null, nextAttemptAt: null });
    expect(after.forwardError).toMatch(/^Could not reach the form service/);
    expect(log.lines.some((line) => line.includes('giving up'))).toBe(true);
    expect(log.lines.join('\n')).not.toContain(ACCESS_KEY);

    // The inbox of a portal with a form service shows it as failed, with the reason.
    const app = await buildApp({
      database: ctx.database,
      config: {
        ...TEST_APP_CONFIG,
        formService: { endpoint: 'http://127.0.0.1:9/submit', accessKey: ACCESS_KEY },
      },
    });
    try {
      const cookie = await ctx.signIn('faculty');
      const res = await app.inject({ method: 'GET', url: '/api/contact', headers: { cookie } });
      const listed = res.json<ContactMessage[]>().find((m) => m.id === message.id);
      expect(listed).toMatchObject({ forwardStatus: 'failed', forwardAttempts: 3, forwardedAt: null });
      expect(listed!.forwardError).toMatch(/^Could not reach the form service/);
      expect(res.body).not.toContain(ACCESS_KEY);
    } finally {
      await app.close();
    }
  });

  it('treats an answer of success: false as a failure and never records the key', async () => {
    fake = await startFakeService((res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ success: false, message: `Invalid access key ${ACCESS_KEY}` })),
    );
    const message = await store();
    const log = recordingLog();
    await forwarder({ log, retryBaseMs: 60_000, retryMaxMs: 60_000 }).start();
    await eventually(async () => (await row(message.id)).forwardError !== null, 'the refusal is recorded');
    const after = await row(message.id);
    expect(after.forwardError).toBe('The form service refused the message: Invalid access key ***');
    expect(after.forwardedAt).toBeNull();
    expect(log.lines.join('\n')).not.toContain(ACCESS_KEY);
  });

  it('starts right after a message is sent, without waiting for the next poll', async () => {
    fake = await startFakeService(ok);
    // With a one-minute poll, only the nudge can forward the message within the test.
    await forwarder({ pollIntervalMs: 60_000 }).start();
    await pause(100);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: {
        name: 'Sneha Iyer',
        email: 'sneha@example.com',
        subject: 'Nudge',
        message: 'Hello',
        phone: '',
      },
    });
    expect(res.statusCode).toBe(201);
    await eventually(async () => fake!.received.length === 1, 'the message reaches the service', 5_000);
    expect(fake.received[0]!.body).toMatchObject({ subject: 'Nudge', name: 'Sneha Iyer', phone: '' });
  });

  it('answers the visitor at once even when the service is slow', async () => {
    const hanging: ServerResponse[] = [];
    fake = await startFakeService((res) => hanging.push(res));
    await forwarder({ requestTimeoutMs: 1_500 }).start();
    const started = Date.now();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { name: 'A', email: 'a@example.com', subject: 'Slow', message: 'Hi' },
    });
    expect(res.statusCode).toBe(201);
    expect(Date.now() - started).toBeLessThan(1_000);
    await eventually(async () => fake!.received.length === 1, 'the service is called');
  });

  it('waits for a send in progress when it stops, and records its outcome', async () => {
    fake = await startFakeService((res) => setTimeout(() => ok(res), 300));
    const message = await store();
    const worker = forwarder();
    await worker.start();
    await eventually(async () => fake!.received.length === 1, 'the send has begun');
    await worker.stop();
    const after = await row(message.id);
    expect(after.forwardedAt).not.toBeNull();
  });

  it('never sends one message twice when two workers share the database', async () => {
    fake = await startFakeService((res) => setTimeout(() => ok(res), 15));
    const second = await secondWorkerDatabase();
    const stored = [];
    for (let i = 0; i < 30; i += 1) stored.push(await store(ctx.database, `Pair ${i}`));

    await Promise.all([
      forwarder({ pollIntervalMs: 5, batchSize: 3 }).start(),
      forwarder({ database: second, pollIntervalMs: 5, batchSize: 3 }).start(),
    ]);
    await eventually(async () => {
      const [pending] = await ctx.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(contactMessages)
        .where(sql`${contactMessages.forwardedAt} is null`);
      return pending!.n === 0;
    }, 'every message is forwarded');
    await pause(100);

    const subjects = fake.received.map((r) => r.body.subject);
    expect(subjects).toHaveLength(30);
    expect(new Set(subjects).size).toBe(30);
    const rows = await ctx.database.db.select().from(contactMessages);
    expect(rows.every((r) => r.forwardAttempts === 1)).toBe(true);
  });

  it('hides a claimed message from other claims until its lease runs out', async () => {
    const message = await store();
    const first = await claimDue(ctx.database.db, { limit: 5, leaseMs: 300, maxAttempts: 10 });
    expect(first.map((r) => r.id)).toEqual([message.id]);
    expect(await claimDue(ctx.database.db, { limit: 5, leaseMs: 300, maxAttempts: 10 })).toEqual([]);
    await pause(400);
    const again = await claimDue(ctx.database.db, { limit: 5, leaseMs: 300, maxAttempts: 10 });
    expect(again.map((r) => r.id)).toEqual([message.id]);
  });

  it('gives two claims made at the same moment different messages', async () => {
    const second = await secondWorkerDatabase();
    for (let i = 0; i < 40; i += 1) await store();
    const claimed: number[] = [];
    for (let round = 0; round < 10; round += 1) {
      const results = await Promise.all(
        [ctx.database, second, ctx.database, second].map((d) => claimDue(d.db, { limit: 2, leaseMs: 60_000, maxAttempts: 10 })),
      );
      claimed.push(...results.flat().map((r) => r.id));
    }
    expect(claimed).toHaveLength(40);
    expect(new Set(claimed).size).toBe(40);
  });
});
