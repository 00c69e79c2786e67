import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreatedUserSchema, SetPasswordLinkSchema, UsersPageSchema } from '../../../shared/schemas/admin-users';
import { SET_PASSWORD_LINK_MESSAGE } from '../../../shared/schemas/auth';
import { buildApp } from '../../app';
import { setPasswordTokens, trustedDevices } from '../../db/schema';
import { createTestContext, TEST_PASSWORD, type TestContext, TEST_APP_CONFIG } from '../../test/test-app';
import { readMail, startSmtp, type TestSmtp } from '../../test/smtp';
import { createTestDatabase, type TestDatabase } from '../../test/test-db';
import { addUser } from '../accounts/service';
import { MailSender } from '../mail/sender';

const STRONG = 'violet kettle marches sideways';

function tokenOf(url: string): string {
  return new URL(url).hash.replace(/^#token=/, '');
}

async function signIn(app: FastifyInstance, email: string, password: string) {
  return app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password, role: 'faculty', remember: false } });
}

function cookieOf(answer: { cookies: { name: string; value: string }[] }, name = 'portal_session'): string {
  const cookie = answer.cookies.find((c) => c.name === name);
  expect(cookie, `${name} cookie`).toBeDefined();
  return `${name}=${cookie!.value}`;
}

describe('POST /api/auth/set-password', () => {
  let ctx: TestContext;
  let admin: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.signIn('admin', { email: 'links-admin@test.university.edu' });
  }, 60_000);
  afterAll(() => ctx.close());

  const setPassword = (token: string, password: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/auth/set-password', payload: { token, password } });

  async function newAccount(email: string) {
    const answer = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: { cookie: admin },
      payload: { email, name: 'Link Person', role: 'faculty' },
    });
    expect(answer.statusCode, answer.body).toBe(201);
    return CreatedUserSchema.parse(answer.json());
  }

  it('is public: the link sets the password once, then the account signs in with it', async () => {
    const { setPasswordUrl } = await newAccount('first.link@test.university.edu');
    expect((await signIn(ctx.app, 'first.link@test.university.edu', STRONG)).statusCode).toBe(401);
    const answer = await setPassword(tokenOf(setPasswordUrl), STRONG);
    expect(answer.statusCode, answer.body).toBe(204);
    const signedIn = await signIn(ctx.app, 'first.link@test.university.edu', STRONG);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const page = UsersPageSchema.parse((await ctx.app.inject({ method: 'GET', url: '/api/admin/users?q=first.link', headers: { cookie: admin } })).json());
    expect(page.users[0]).toMatchObject({ hasPassword: true });
    expect(page.users[0]?.lastSignInAt).not.toBeNull();

    const again = await setPassword(tokenOf(setPasswordUrl), 'another quite long passphrase');
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(SET_PASSWORD_LINK_MESSAGE);
    expect((await signIn(ctx.app, 'first.link@test.university.edu', STRONG)).statusCode).toBe(200);
  });

  it('stores only the hash of the token', async () => {
    const { user, setPasswordUrl } = await newAccount('hashed.link@test.university.edu');
    const [row] = await ctx.database.db.select().from(setPasswordTokens).where(eq(setPasswordTokens.userId, user.id));
    expect(row?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.tokenHash).not.toContain(tokenOf(setPasswordUrl));
  });

  it('refuses a weak password with the rule\'s words and keeps the link for another try', async () => {
    const { setPasswordUrl } = await newAccount('weak.link@test.university.edu');
    const token = tokenOf(setPasswordUrl);
    for (const weak of ['password1234', 'qwerty123456', '1234567890']) {
      const answer = await setPassword(token, weak);
      expect(answer.statusCode, weak).toBe(400);
      expect(answer.json().message).toBe('Choose a less common password');
    }
    const short = await setPassword(token, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('Passwords need at least 10 characters');
    expect((await setPassword(token, STRONG)).statusCode).toBe(204);
  });

  it('a second link cancels the first', async () => {
    const { user, setPasswordUrl: first } = await newAccount('two.links@test.university.edu');
    const reset = await ctx.app.inject({ method: 'POST', url: `/api/admin/users/${user.id}/reset-password`, headers: { cookie: admin } });
    const second = SetPasswordLinkSchema.parse(reset.json()).setPasswordUrl;
    expect(second).not.toBe(first);
    const old = await setPassword(tokenOf(first), STRONG);
    expect(old.statusCode).toBe(400);
    expect(old.json().message).toBe(SET_PASSWORD_LINK_MESSAGE);
    expect((await setPassword(tokenOf(second), STRONG)).statusCode).toBe(204);
  });

  it('an expired link fails', async () => {
    const { user, setPasswordUrl } = await newAccount('expired.link@test.university.edu');
    await ctx.database.db
      .update(setPasswordTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(setPasswordTokens.userId, user.id));
    const answer = await setPassword(tokenOf(setPasswordUrl), STRONG);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toBe(SET_PASSWORD_LINK_MESSAGE);
  });

  it("a disabled account's link does not work", async () => {
    const { user, setPasswordUrl } = await newAccount('disabled.link@test.university.edu');
    const off = await ctx.app.inject({ method: 'PATCH', url: `/api/admin/users/${user.id}`, headers: { cookie: admin }, payload: { disabled: true } });
    expect(off.statusCode).toBe(200);
    const answer = await setPassword(tokenOf(setPasswordUrl), STRONG);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toBe(SET_PASSWORD_LINK_MESSAGE);
  });

  it('a made-up or missing token gets 400 with the same message', async () => {
    const madeUp = await setPassword('x'.repeat(43), STRONG);
    expect(madeUp.statusCode).toBe(400);
    expect(madeUp.json().message).toBe(SET_PASSWORD_LINK_MESSAGE);
    const missing = await ctx.app.inject({ method: 'POST', url: '/api/auth/set-password', payload: { password: STRONG } });
    expect(missing.statusCode).toBe(400);
  });

  it("ends the account's sign-in sessions and cancels its device cookies", async () => {
    await addUser(ctx.database.db, { email: 'has.sessions@test.university.edu', name: 'Has Sessions', role: 'faculty', password: TEST_PASSWORD });
    const before = await signIn(ctx.app, 'has.sessions@test.university.edu', TEST_PASSWORD);
    const session = cookieOf(before);
    const page = UsersPageSchema.parse((await ctx.app.inject({ method: 'GET', url: '/api/admin/users?q=has.sessions', headers: { cookie: admin } })).json());
    const id = page.users[0]!.id;
    expect(await ctx.database.db.select().from(trustedDevices).where(eq(trustedDevices.userId, id))).toHaveLength(1);

    const reset = await ctx.app.inject({ method: 'POST', url: `/api/admin/users/${id}/reset-password`, headers: { cookie: admin } });
    // Until the link is used, the old password still works.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/classes', headers: { cookie: session } })).statusCode).toBe(200);
    expect((await setPassword(tokenOf(SetPasswordLinkSchema.parse(reset.json()).setPasswordUrl), STRONG)).statusCode).toBe(204);

    expect((await ctx.app.inject({ method: 'GET', url: '/api/classes', headers: { cookie: session } })).statusCode).toBe(401);
    expect(await ctx.database.db.select().from(trustedDevices).where(eq(trustedDevices.userId, id))).toHaveLength(0);
    expect((await signIn(ctx.app, 'has.sessions@test.university.edu', TEST_PASSWORD)).statusCode).toBe(401);
    expect((await signIn(ctx.app, 'has.sessions@test.university.edu', STRONG)).statusCode).toBe(200);
  });
});

describe('set-password links by e-mail, through a real SMTP server', () => {
  let smtp: TestSmtp;
  let sender: MailSender;
  let database: TestDatabase;
  let app: FastifyInstance;
  let admin: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    database = await createTestDatabase();
    const settings = { url: smtp.url, from: 'office@example.edu' };
    app = await buildApp({
      database,
      config: {
        ...TEST_APP_CONFIG,
        publicUrl: 'https://attendance.example.edu',
        smtp: settings,
      },
    });
    await app.ready();
    // The mail outbox's sender, as the server runs it beside the app.
    sender = new MailSender({ database, smtp: settings, log: { info: () => undefined, warn: () => undefined, error: () => undefined } });
    await sender.start();
    await addUser(database.db, { email: 'mail.admin@test.university.edu', name: 'Mail Admin', role: 'admin', password: TEST_PASSWORD });
    admin = cookieOf(await signIn(app, 'mail.admin@test.university.edu', TEST_PASSWORD));
  }, 60_000);
  afterAll(async () => {
    await sender.stop();
    await app.close();
    await database.destroy();
    await smtp.close();
  });

  it('e-mails the link built on PORTAL_PUBLIC_URL, and still shows it once in the answer', async () => {
    const answer = await app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: { cookie: admin },
      payload: { email: 'mailed@test.university.edu', name: 'Mailed Person', role: 'faculty' },
    });
    expect(answer.statusCode, answer.body).toBe(201);
    const { setPasswordUrl } = CreatedUserSchema.parse(answer.json());
    expect(setPasswordUrl).toMatch(/^https:\/\/attendance\.example\.edu\/set-password#token=/);

    await expect.poll(() => smtp.received.length, { timeout: 10_000 }).toBe(1);
    const mail = smtp.received[0]!;
    expect(mail.from).toBe('office@example.edu');
    expect(mail.to).toEqual(['mailed@test.university.edu']);
    expect(mail.data).toContain('Subject: Your University Portal account: choose your password');
    expect(mail.data).toContain(setPasswordUrl);
    expect(mail.data).toContain('72 hours');

    const reset = await app.inject({
      method: 'POST',
      url: `/api/admin/users/${CreatedUserSchema.parse(answer.json()).user.id}/reset-password`,
      headers: { cookie: admin },
    });
    const second = SetPasswordLinkSchema.parse(reset.json()).setPasswordUrl;
    await expect.poll(() => smtp.received.length, { timeout: 10_000 }).toBe(2);
    expect(smtp.received[1]!.data).toContain(second);
  });

  it.each([
    {
      language: null,
      subject: 'University Portal: choose a new password',
      lines: [
        'Hello {name},',
        '',
        'An administrator has made you a link to choose a new password for the University Portal.',
        'Open this link to choose your password:',
        '',
        '{url}',
        '',
        'The link works once, for 72 hours. If you did not expect it, ignore this e-mail.',
      ],
    },
    {
      language: 'hi',
      subject: 'University Portal: नया पासवर्ड चुनें',
      lines: [
        'नमस्ते {name},',
        '',
        'एक व्यवस्थापक ने University Portal का नया पासवर्ड चुनने के लिए आपको एक लिंक भेजा है।',
        'अपना पासवर्ड चुनने के लिए यह लिंक खोलें:',
        '',
        '{url}',
        '',
        'यह लिंक केवल एक बार, 72 घंटे तक काम करता है। यदि आपको इसकी अपेक्षा नहीं थी, तो इस ईमेल को अनदेखा करें।',
      ],
    },
    {
      language: 'te',
      subject: 'University Portal: కొత్త పాస్‌వర్డ్‌ను ఎంచుకోండి',
      lines: [
        'నమస్తే {name},',
        '',
        'ఒక నిర్వాహకులు University Portal కోసం కొత్త పాస్‌వర్డ్‌ను ఎంచుకోవడానికి మీకు ఒక లింక్‌ను పంపారు.',
        'మీ పాస్‌వర్డ్‌ను ఎంచుకోవడానికి ఈ లింక్‌ను తెరవండి:',
        '',
        '{url}',
        '',
        'ఈ లింక్ ఒక్కసారి మాత్రమే, 72 గంటల పాటు పనిచేస్తుంది. మీరు దీన్ని ఆశించకపోతే, ఈ ఈమెయిల్‌ను పట్టించుకోకండి.',
      ],
    },
  ])('e-mails a new link in the language the account chose ($language; none: English)', async ({ language, subject, lines }) => {
    const email = `chose.${language ?? 'none'}@test.university.edu`;
    const name = `Chose ${language ?? 'none'}`;
    const account = await addUser(database.db, { email, name, role: 'faculty', password: TEST_PASSWORD });
    if (language) {
      const own = cookieOf(await signIn(app, email, TEST_PASSWORD));
      const chosen = await app.inject({ method: 'PUT', url: '/api/me/language', headers: { cookie: own }, payload: { language } });
      expect(chosen.statusCode, chosen.body).toBe(200);
    }

    const before = smtp.received.length;
    const reset = await app.inject({ method: 'POST', url: `/api/admin/users/${account.id}/reset-password`, headers: { cookie: admin } });
    expect(reset.statusCode, reset.body).toBe(200);
    const url = SetPasswordLinkSchema.parse(reset.json()).setPasswordUrl;
    await expect.poll(() => smtp.received.filter((mail) => mail.to.includes(email)).length, { timeout: 10_000 }).toBe(1);
    expect(smtp.received.length).toBe(before + 1);
    const mail = readMail(smtp.received.find((received) => received.to.includes(email))!);
    expect(mail.subject).toBe(subject);
    expect(mail.text.trimEnd()).toBe(lines.join('\n').replace('{name}', name).replace('{url}', url));
  });
});
