import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  CONTACT_SENT_MESSAGE,
  type ContactFormValues,
  type ContactMessage,
} from '../../../shared/schemas/contact';
import { buildApp } from '../../app';
import { DEMO_CONTACT } from '../../config';
import { contactMessages } from '../../db/schema';
import { withFacultyApp, type TestContext, TEST_APP_CONFIG } from '../../test/test-app';

let ctx: TestContext;
let faculty: string;

withFacultyApp((made) => ({ ctx, faculty } = made));

// Sending is rate-limited per address; each call comes from its own address unless a test says otherwise.
let addressCounter = 0;
function nextAddress(): string {
  addressCounter += 1;
  return `10.2.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

type Body = Partial<Record<keyof ContactFormValues, unknown>>;

function send(body: Body, remoteAddress = nextAddress()) {
  return ctx.app.inject({ method: 'POST', url: '/api/contact', payload: body, remoteAddress });
}

let subjectCounter = 0;
function message(extra: Body = {}): Body {
  subjectCounter += 1;
  return {
    name: 'Priya Sharma',
    email: 'priya.sharma@example.com',
    phone: '+91 98765 43210',
    subject: `Admission query ${subjectCounter}`,
    message: 'When does the next semester start?',
    ...extra,
  };
}

async function rowsWithSubject(subject: unknown) {
  return ctx.database.db.select().from(contactMessages).where(eq(contactMessages.subject, String(subject)));
}

function inbox(cookie?: string) {
  return ctx.app.inject({ method: 'GET', url: '/api/contact', ...(cookie ? { headers: { cookie } } : {}) });
}

/** `cookie` null: signed out. */
function markRead(id: number | string, read: unknown, cookie: string | null = faculty) {
  return ctx.app.inject({
    method: 'PATCH',
    url: `/api/contact/${id}`,
    payload: { read },
    ...(cookie ? { headers: { cookie } } : {}),
  });
}

describe('GET /api/contact/info', () => {
  it('gives anyone the address, phone and e-mail for the page', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/contact/info' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(DEMO_CONTACT);
  });

  it('shows the configured details', async () => {
    const contact = { address: '1 College Road', phone: '+44 20 7946 0000', email: 'hello@college.example' };
    const app = await buildApp({
      database: ctx.database,
      config: { ...TEST_APP_CONFIG, contact },
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/contact/info' });
      expect(res.json()).toEqual(contact);
    } finally {
      await app.close();
    }
  });
});

describe('POST /api/contact', () => {
  it('stores the message before it answers 201', async () => {
    const body = message({ name: '  Priya Sharma ', subject: ' Fees ', message: 'Line one\nLine two' });
    const res = await send(body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: CONTACT_SENT_MESSAGE });
    // The answer has been sent: the row must already be there.
    const rows = await rowsWithSubject('Fees');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: 'Priya Sharma',
      email: 'priya.sharma@example.com',
      phone: '+91 98765 43210',
      message: 'Line one\nLine two',
      readAt: null,
      forwardedAt: null,
      forwardError: null,
      forwardAttempts: 0,
    });
  });

  it('accepts a message without a phone number and stores it as absent', async () => {
    for (const phone of [undefined, '', '   ', null]) {
      const body = message({ phone });
      const res = await send(body);
      expect(res.statusCode, String(phone)).toBe(201);
      const [row] = await rowsWithSubject(body.subject);
      expect(row?.phone).toBeNull();
    }
  });

  it.each([
    ['name missing', { name: undefined }, 'body.name', 'Full Name is required'],
    ['name blank', { name: '   ' }, 'body.name', 'Full Name is required'],
    ['name too long', { name: 'a'.repeat(201) }, 'body.name', 'Full Name has at most 200 characters'],
    ['name not text', { name: 7 }, 'body.name', 'Full Name is required'],
    ['email missing', { email: undefined }, 'body.email', 'Email is required'],
    ['email blank', { email: ' ' }, 'body.email', 'Email is required'],
    ['email without domain', { email: 'priya@' }, 'body.email', 'Please enter a valid email address'],
    ['email without top-level domain', { email: 'priya@localhost' }, 'body.email', 'Please enter a valid email address'],
    ['email with spaces', { email: 'priya sharma@example.com' }, 'body.email', 'Please enter a valid email address'],
    ['email too long', { email: `${'a'.repeat(250)}@example.com` }, 'body.email', 'Email has at most 254 characters'],
    ['phone with letters', { phone: 'call me maybe' }, 'body.phone', 'Please enter a valid phone number'],
    ['phone too short', { phone: '12' }, 'body.phone', 'Please enter a valid phone number'],
    ['phone too long', { phone: '1'.repeat(41) }, 'body.phone', 'Phone Number has at most 40 characters'],
    ['subject missing', { subject: undefined }, 'body.subject', 'Subject is required'],
    ['subject blank', { subject: '' }, 'body.subject', 'Subject is required'],
    ['subject too long', { subject: 's'.repeat(201) }, 'body.subject', 'Subject has at most 200 characters'],
    ['message missing', { message: undefined }, 'body.message', 'Message is required'],
    ['message blank', { message: '\n\t ' }, 'body.message', 'Message is required'],
    ['message too long', { message: 'm'.repeat(5001) }, 'body.message', 'Message has at most 5000 characters'],
  ])('refuses a message with the %s', async (_case, change, path, text) => {
    const body = message(change);
    const res = await send(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(text);
    expect(res.json().errors).toEqual([{ path, message: text }]);
    expect(await rowsWithSubject(body.subject)).toHaveLength(0);
  });

  it('names every problem at once', async () => {
    const res = await send({ name: '', email: 'x', subject: '', message: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { path: string }) => e.path).sort()).toEqual(
      ['body.email', 'body.message', 'body.name', 'body.subject'],
    );
  });

  it('accepts every field at its longest', async () => {
    const body = message({
      name: 'n'.repeat(200),
      email: `${'e'.repeat(64)}@${'d'.repeat(60)}.example.com`,
      phone: `+${'1'.repeat(39)}`,
      subject: `long ${'s'.repeat(195)}`,
      message: 'm'.repeat(5000),
    });
    const res = await send(body);
    expect(res.statusCode).toBe(201);
    expect(await rowsWithSubject(body.subject)).toHaveLength(1);
  });

  it('refuses a body that is not a JSON object', async () => {
    const sendRaw = (payload: string, contentType: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/contact',
        payload,
        headers: { 'content-type': contentType },
        remoteAddress: nextAddress(),
      });
    expect((await sendRaw('name=x', 'application/x-www-form-urlencoded')).statusCode).toBe(415);
    const array = await sendRaw('[]', 'application/json');
    expect(array.statusCode).toBe(400);
    expect(array.json().message).toBe('Send the message as a JSON object');
  });

  it('answers a filled-in hidden field like a success but stores nothing', async () => {
    const body = message({ website: 'http://cheap-pills.example' });
    const res = await send(body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: CONTACT_SENT_MESSAGE });
    expect(await rowsWithSubject(body.subject)).toHaveLength(0);

    const empty = message({ website: '' });
    expect((await send(empty)).statusCode).toBe(201);
    expect(await rowsWithSubject(empty.subject)).toHaveLength(1);
  });

  it('throttles one address after thirty messages in ten minutes', async () => {
    const address = '10.99.0.1';
    // The default limit: 30 messages per address per 10 minutes, enough for a lab behind one address.
    for (let i = 0; i < 30; i += 1) expect((await send(message(), address)).statusCode).toBe(201);
    const blocked = message();
    const res = await send(blocked, address);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ message: 'Too many requests. Please wait a moment and try again.' });
    expect(await rowsWithSubject(blocked.subject)).toHaveLength(0);
    expect((await send(message(), '10.99.0.2')).statusCode).toBe(201);
  });

  it('never echoes what was sent into the answer', async () => {
    const res = await send(message({ message: '<script>alert(1)</script>' }));
    expect(res.body).toBe(JSON.stringify({ message: CONTACT_SENT_MESSAGE }));
  });
});

describe('the inbox', () => {
  it('lists messages newest first with their read and forwarding state', async () => {
    const older = message({ subject: 'Inbox older' });
    const newer = message({ subject: 'Inbox newer', phone: '' });
    await send(older);
    await send(newer);
    const res = await inbox(faculty);
    expect(res.statusCode).toBe(200);
    const list = res.json<ContactMessage[]>();
    const subjects = list.map((m) => m.subject);
    expect(subjects.indexOf('Inbox newer')).toBeLessThan(subjects.indexOf('Inbox older'));
    expect(subjects[0]).toBe('Inbox newer');
    const first = list[0]!;
    expect(first).toEqual({
      id: expect.any(Number),
      name: 'Priya Sharma',
      email: 'priya.sharma@example.com',
      phone: null,
      subject: 'Inbox newer',
      message: 'When does the next semester start?',
      createdAt: expect.any(String),
      read: false,
      // This app has no form service configured: the message lives in the inbox only.
      forwardStatus: 'off',
      forwardedAt: null,
      forwardError: null,
      forwardAttempts: 0,
    });
    expect(new Date(first.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('is for faculty only', async () => {
    expect((await inbox()).statusCode).toBe(401);
    expect((await inbox()).json()).toEqual({ message: 'Please sign in' });
    const student = await ctx.signIn('student');
    const asStudent = await inbox(student);
    expect(asStudent.statusCode).toBe(403);
    expect(asStudent.json()).toEqual({ message: 'This page is for faculty only' });
    const admin = await ctx.signIn('admin');
    expect((await inbox(admin)).statusCode).toBe(200);
  });

  it('marks a message read and unread', async () => {
    const body = message({ subject: 'Toggle me' });
    await send(body);
    const [row] = await rowsWithSubject('Toggle me');
    const id = row!.id;

    const read = await markRead(id, true);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id, read: true, subject: 'Toggle me' });
    const [afterRead] = await rowsWithSubject('Toggle me');
    const firstReadAt = afterRead!.readAt;
    expect(firstReadAt).not.toBeNull();

    // Reading it again keeps the time it was first read.
    await markRead(id, true);
    const [again] = await rowsWithSubject('Toggle me');
    expect(again!.readAt?.getTime()).toBe(firstReadAt!.getTime());

    const listed = (await inbox(faculty)).json<ContactMessage[]>().find((m) => m.id === id);
    expect(listed?.read).toBe(true);

    const unread = await markRead(id, false);
    expect(unread.statusCode).toBe(200);
    expect(unread.json().read).toBe(false);
    const [afterUnread] = await rowsWithSubject('Toggle me');
    expect(afterUnread!.readAt).toBeNull();
  });

  it('refuses a read flag that is not true or false', async () => {
    await send(message({ subject: 'Bad flag' }));
    const [row] = await rowsWithSubject('Bad flag');
    const res = await markRead(row!.id, 'yes');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('read must be true or false');
  });

  it('answers 404 for a message that does not exist', async () => {
    for (const id of ['999999', '0', 'abc', '1.5', '99999999999', '-1']) {
      const res = await markRead(id, true);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ message: 'Message not found' });
    }
  });

  it('lets only faculty mark messages', async () => {
    await send(message({ subject: 'Not yours' }));
    const [row] = await rowsWithSubject('Not yours');
    const student = await ctx.signIn('student');
    expect((await markRead(row!.id, true, student)).statusCode).toBe(403);
    expect((await markRead(row!.id, true, null)).statusCode).toBe(401);
    const [after] = await rowsWithSubject('Not yours');
    expect(after!.readAt).toBeNull();
  });
});

describe('API description', () => {
  it('documents the contact routes', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = Object.keys(res.json().paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/contact', '/api/contact/info', '/api/contact/{id}']));
  });
});
