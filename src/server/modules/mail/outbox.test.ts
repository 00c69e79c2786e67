import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CreatedUserSchema, SetPasswordLinkSchema, UsersPageSchema, type AdminUser } from '../../../shared/schemas/admin-users';
import { buildApp } from '../../app';
import { openDatabase, type Database } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import { onPostgres } from '../../test/postgres';
import { startSmtp, unusedPort, type TestSmtp } from '../../test/smtp';
import { TEST_PASSWORD, TEST_APP_CONFIG } from '../../test/test-app';
import { createPostgresCopy, createTestDatabase, type TestDatabase } from '../../test/test-db';
import { addUser } from '../accounts/service';
import { MailSender, retryDelay } from './sender';
import { outboxStats, queueMail } from './service';

const FROM = 'office@example.edu';
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

let database: TestDatabase;
let app: FastifyInstance;
let admin: string;
/** What each test starts, stopped after it. */
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({
    database,
    config: {
      ...TEST_APP_CONFIG,
      publicUrl: 'https://attendance.example.edu',
      // E-mail is on; the senders below are each given the SMTP server of their test.
      smtp: { url: 'smtp://127.0.0.1:25', from: FROM },
    },
  });
  await addUser(database.db, { email: 'outbox.admin@test.university.edu', name: 'Outbox Admin', role: 'admin', password: TEST_PASSWORD });
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'outbox.admin@test.university.edu', password: TEST_PASSWORD, role: 'faculty', remember: false },
  });
  admin = `portal_session=${login.cookies.find((c) => c.name === 'portal_session')!.value}`;
}, 60_000);
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await app.close();
  await database.destroy();
});

function senderFor(url: string, on: Pick<Database, 'db' | 'listen'> = database, options: Partial<ConstructorParameters<typeof MailSender>[0]> = {}) {
  const sender = new MailSender({ database: on, smtp: { url, from: FROM }, log: quiet, retryBaseMs: 1, ...options });
  cleanups.push(() => sender.stop());
  return sender;
}

async function smtpServer(options: Parameters<typeof startSmtp>[0] = {}): Promise<TestSmtp> {
  const smtp = await startSmtp(options);
  cleanups.push(() => smtp.close());
  return smtp;
}

async function createAccount(email: string) {
  const answer = await app.inject({ method: 'POST', url: '/api/admin/users', headers: { cookie: admin }, payload: { email, name: 'Mail Person', role: 'faculty' } });
  expect(answer.statusCode, answer.body).toBe(201);
  return CreatedUserSchema.parse(answer.json());
}

async function listed(email: string): Promise<AdminUser> {
  const answer = await app.inject({ method: 'GET', url: `/api/admin/users?q=${encodeURIComponent(email)}`, headers: { cookie: admin } });
  const user = UsersPageSchema.parse(answer.json()).users.find((u) => u.email === email);
  expect(user, email).toBeDefined();
  return user!;
}

const subjectOf = (data: string) => /^Subject: (.*)$/m.exec(data)?.[1];

describe('the set-password e-mail, through the outbox and a real SMTP server', () => {
  it('is queued with the account while SMTP is down, shown as failing with the reason, and sent once SMTP is back', async () => {
    const port = await unusedPort();
    const sender = senderFor(`smtp://127.0.0.1:${port}`);
    const { user, setPasswordUrl, emailed } = await createAccount('while.down@test.university.edu');
    expect(emailed).toBe(true);
    // The admin has the link at once, and its e-mail waits.
    expect(setPasswordUrl).toMatch(/^https:\/\/attendance\.example\.edu\/set-password#token=/);
    expect(user.setPasswordMail).toMatchObject({ state: 'queued', attempts: 0, sentAt: null, lastError: null });

    expect(await sender.sendDue()).toBe(1);
    const failing = (await listed('while.down@test.university.edu')).setPasswordMail;
    expect(failing).toMatchObject({ state: 'failing', attempts: 1, sentAt: null });
    expect(failing?.lastError).toMatch(/^Could not reach the mail server: .*ECONNREFUSED/);
    expect(failing?.nextAttemptAt).not.toBeNull();
    expect(await outboxStats(database.db)).toMatchObject({ depth: 1 });

    const smtp = await smtpServer({ port });
    expect(await sender.sendDue()).toBe(1);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.from).toBe(FROM);
    expect(mail.to).toEqual(['while.down@test.university.edu']);
    expect(subjectOf(mail.data)).toBe('Your University Portal account: choose your password');
    expect(mail.data).toContain(setPasswordUrl);
    expect(mail.data).toContain('72 hours');

    const sent = (await listed('while.down@test.university.edu')).setPasswordMail;
    expect(sent).toMatchObject({ state: 'sent', attempts: 2, lastError: null, nextAttemptAt: null });
    expect(sent?.sentAt).not.toBeNull();
    // Nothing is sent twice, and the body, which held the link, is no longer stored.
    expect(await sender.sendDue()).toBe(0);
    expect(smtp.received).toHaveLength(1);
    const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, 'while.down@test.university.edu'));
    expect(row?.body).toBeNull();
  });

  it('sends only the newest link when a reset came before the first e-mail went out', async () => {
    const port = await unusedPort();
    const sender = senderFor(`smtp://127.0.0.1:${port}`);
    const { user, setPasswordUrl: first } = await createAccount('reset.early@test.university.edu');
    await sender.sendDue();
    const reset = await app.inject({ method: 'POST', url: `/api/admin/users/${user.id}/reset-password`, headers: { cookie: admin } });
    const second = SetPasswordLinkSchema.parse(reset.json()).setPasswordUrl;
    expect((await listed('reset.early@test.university.edu')).setPasswordMail).toMatchObject({ state: 'queued', attempts: 0 });

    const smtp = await smtpServer({ port });
    await sender.sendDue();
    expect(smtp.received).toHaveLength(1);
    expect(subjectOf(smtp.received[0]!.data)).toBe('University Portal: choose a new password');
    expect(smtp.received[0]!.data).toContain(second);
    expect(smtp.received[0]!.data).not.toContain(first);
  });

  it('drops the e-mail of a link used before it went out', async () => {
    const port = await unusedPort();
    const sender = senderFor(`smtp://127.0.0.1:${port}`);
    const { setPasswordUrl } = await createAccount('used.early@test.university.edu');
    const token = new URL(setPasswordUrl).hash.replace(/^#token=/, '');
    const used = await app.inject({ method: 'POST', url: '/api/auth/set-password', payload: { token, password: 'violet kettle marches sideways' } });
    expect(used.statusCode, used.body).toBe(204);

    const smtp = await smtpServer({ port });
    expect(await sender.sendDue()).toBe(0);
    expect(smtp.received).toHaveLength(0);
    expect((await listed('used.early@test.university.edu')).setPasswordMail).toBeNull();
  });

  it("drops the e-mail of an account disabled before it went out", async () => {
    const port = await unusedPort();
    const sender = senderFor(`smtp://127.0.0.1:${port}`);
    const { user } = await createAccount('disabled.early@test.university.edu');
    const off = await app.inject({ method: 'PATCH', url: `/api/admin/users/${user.id}`, headers: { cookie: admin }, payload: { disabled: true } });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().setPasswordMail).toBeNull();

    const smtp = await smtpServer({ port });
    expect(await sender.sendDue()).toBe(0);
    expect(smtp.received).toHaveLength(0);
  });

  it('gives up at once when the mail server refuses the recipient for good, with its words', async () => {
    const smtp = await smtpServer({ refuse: ['no.such.box@test.university.edu'] });
    const sender = senderFor(smtp.url);
    await createAccount('no.such.box@test.university.edu');
    await sender.sendDue();
    const failed = (await listed('no.such.box@test.university.edu')).setPasswordMail;
    expect(failed).toMatchObject({ state: 'failed', attempts: 1, nextAttemptAt: null });
    expect(failed?.lastError).toMatch(/^The mail server answered 550.*no such user here/);
    expect(await sender.sendDue()).toBe(0);
    expect(smtp.received).toHaveLength(0);
  });

  it('goes out by itself: a running sender hears of the new account and sends its e-mail', async () => {
    const smtp = await smtpServer();
    // Polling only once a minute: the message is sent because the sender was told of it.
    await senderFor(smtp.url, database, { pollIntervalMs: 60_000 }).start();
    const { setPasswordUrl } = await createAccount('told@test.university.edu');
    await expect.poll(() => smtp.received.length, { timeout: 10_000 }).toBe(1);
    expect(smtp.received[0]!.data).toContain(setPasswordUrl);
    await expect.poll(async () => (await listed('told@test.university.edu')).setPasswordMail?.state, { timeout: 5_000 }).toBe('sent');
  });

  it('is not e-mailed at all when e-mail is not set up', async () => {
    const plain = await buildApp({ database, config: { ...TEST_APP_CONFIG } });
    cleanups.push(() => plain.close());
    const answer = await plain.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: { cookie: admin },
      payload: { email: 'no.mail@test.university.edu', name: 'No Mail', role: 'faculty' },
    });
    expect(answer.statusCode, answer.body).toBe(201);
    const created = CreatedUserSchema.parse(answer.json());
    expect(created.emailed).toBe(false);
    expect(created.user.setPasswordMail).toBeNull();
    expect(await database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, 'no.mail@test.university.edu'))).toEqual([]);
  });
});

describe('the outbox', () => {
  it('keeps nothing of a transaction that rolled back', async () => {
    const before = (await outboxStats(database.db)).depth;
    await expect(
      database.db.transaction(async (tx) => {
        await queueMail(tx, { to: 'rolled.back@test.university.edu', subject: 'Never', text: 'Never sent' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect((await outboxStats(database.db)).depth).toBe(before);
  });

  it('gives up a message not sent before it expired, keeping the last reason', async () => {
    const port = await unusedPort();
    const sender = senderFor(`smtp://127.0.0.1:${port}`);
    const id = await queueMail(database.db, { to: 'late@test.university.edu', subject: 'Late', text: 'Too late', expiresAt: new Date(Date.now() + 60_000) });
    await sender.sendDue();
    await database.db.update(mailOutbox).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(mailOutbox.id, id));
    const smtp = await smtpServer({ port });
    expect(await sender.sendDue()).toBe(0);
    expect(smtp.received).toHaveLength(0);
    const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row).toMatchObject({ status: 'failed', body: null, attempts: 1 });
    expect(row?.lastError).toMatch(/^Not sent before it expired: Could not reach the mail server/);
  });

  it('says how many messages wait and how long the oldest has waited', async () => {
    const smtp = await smtpServer();
    const sender = senderFor(smtp.url);
    await sender.sendDue();
    expect(await outboxStats(database.db)).toEqual({ depth: 0, oldestAgeSeconds: null });
    await queueMail(database.db, { to: 'one@test.university.edu', subject: 'One', text: '1' });
    await database.db.update(mailOutbox).set({ createdAt: new Date(Date.now() - 90_000) }).where(eq(mailOutbox.recipient, 'one@test.university.edu'));
    await queueMail(database.db, { to: 'two@test.university.edu', subject: 'Two', text: '2' });
    const stats = await outboxStats(database.db);
    expect(stats.depth).toBe(2);
    expect(stats.oldestAgeSeconds).toBeGreaterThanOrEqual(90);
    await sender.sendDue();
    expect(await outboxStats(database.db)).toEqual({ depth: 0, oldestAgeSeconds: null });
  });

  it('forgets finished messages after 90 days, and keeps those still waiting', async () => {
    const smtp = await smtpServer();
    const old = await queueMail(database.db, { to: 'old@test.university.edu', subject: 'Old', text: 'Old' });
    const waiting = await queueMail(database.db, { to: 'waiting@test.university.edu', subject: 'Waiting', text: 'Waiting' });
    await database.db.update(mailOutbox).set({ status: 'sent', body: null, finishedAt: new Date(Date.now() - 91 * 86_400_000) }).where(eq(mailOutbox.id, old));
    await database.db.update(mailOutbox).set({ createdAt: new Date(Date.now() - 91 * 86_400_000) }).where(eq(mailOutbox.id, waiting));
    await senderFor(smtp.url).sendDue();
    expect(await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, old))).toEqual([]);
    expect(await database.db.select({ status: mailOutbox.status }).from(mailOutbox).where(eq(mailOutbox.id, waiting))).toEqual([{ status: 'sent' }]);
  });

  it('retries later and later, a day apart at most', () => {
    expect([1, 2, 3, 4].map((failures) => retryDelay(failures, 30_000, 24 * 3_600_000))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelay(20, 30_000, 24 * 3_600_000)).toBe(24 * 3_600_000);
    expect(retryDelay(500, 30_000, 24 * 3_600_000)).toBe(24 * 3_600_000);
  });

  it('two senders on one database send every message exactly once', async () => {
    // On PostgreSQL, two processes' worth: each sender has its own connections to the database.
    let first: Pick<Database, 'db' | 'listen'> = database;
    let second: Pick<Database, 'db' | 'listen'> = database;
    if (onPostgres) {
      const copy = await createPostgresCopy(process.env.TEST_DATABASE_URL!);
      const one = await openDatabase({ databaseUrl: copy.url });
      const two = await openDatabase({ databaseUrl: copy.url });
      cleanups.push(async () => {
        await one.close();
        await two.close();
        await copy.drop();
      });
      [first, second] = [one, two];
    }
    const smtp = await smtpServer();
    await senderFor(smtp.url).sendDue();
    smtp.received.length = 0;
    const subjects = Array.from({ length: 40 }, (_, i) => `Message ${i + 1}`);
    for (const subject of subjects) await queueMail(first.db, { to: 'many@test.university.edu', subject, text: subject });

    const a = senderFor(smtp.url, first, { batchSize: 3 });
    const b = senderFor(smtp.url, second, { batchSize: 3 });
    const tried = await Promise.all([a.sendDue(), b.sendDue(), a.sendDue(), b.sendDue()]);
    expect(tried.reduce((sum, n) => sum + n, 0)).toBe(40);
    expect(smtp.received.map((mail) => subjectOf(mail.data)).sort()).toEqual([...subjects].sort());
    const rows = await first.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, 'many@test.university.edu'));
    expect(rows.map((row) => [row.status, row.attempts])).toEqual(rows.map(() => ['sent', 1]));
  });
});
