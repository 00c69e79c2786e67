import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../../shared/dates';
import type { Checkin } from '../../../shared/schemas/checkins';
import { PersonalDataSchema, type PersonalData } from '../../../shared/schemas/personal-data';
import { auditLog, mailOutbox, signInSessions, totpCredentials, totpRecoveryCodes, users } from '../../db/schema';
import { CLI, recordAudit } from '../audit/service';
import { withStaffApp, type TestContext } from '../../test/test-app';

let ctx: TestContext;
let faculty: string;
let admin: string;

withStaffApp((made) => ({ ctx, faculty, admin } = made));

const PIN = 'EXP01';
const EMAIL = 'export.student@test.university.edu';
const day = addDays(todayIn('UTC'), -2);

const get = (url: string, cookie?: string) => ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const post = (url: string, cookie: string, payload: object, remoteAddress = '10.7.0.1') =>
  ctx.app.inject({ method: 'POST', url, headers: { cookie }, payload, remoteAddress });

/** A student with an account, a profile and photo, two saves of a mark, a correction, a message and TOTP on. */
async function studentWithData(): Promise<string> {
  const cookie = await ctx.signIn('student', { pin: PIN, email: EMAIL, className: 'CSE3' });
  const put = (status: string) =>
    ctx.app.inject({ method: 'PUT', url: `/api/attendance/CSE3/${day}`, headers: { cookie: faculty }, payload: { records: [{ pin: PIN, status }] } });
  expect((await put('absent')).statusCode).toBe(200);
  expect((await put('late')).statusCode).toBe(200);
  expect((await post('/api/corrections', cookie, { date: day, reason: 'I came in on time, the bus was early.' })).statusCode).toBe(201);
  const photo = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#aa3366' } }).png().toBuffer();
  const registered = await post('/api/registrations', faculty, {
    name: 'Export Student',
    designation: 'CSE',
    pin: PIN,
    photo: `data:image/png;base64,${photo.toString('base64')}`,
  });
  expect(registered.statusCode).toBe(201);
  const sent = await ctx.app.inject({
    method: 'POST',
    url: '/api/contact',
    payload: { name: 'Export Student', email: EMAIL.toUpperCase(), subject: 'My marks', message: 'Please check my marks of last week.' },
    remoteAddress: '10.7.0.2',
  });
  expect(sent.statusCode).toBe(201);
  const [account] = await ctx.database.db.select().from(users).where(eq(users.email, EMAIL));
  await ctx.database.db.insert(totpCredentials).values({ userId: account!.id, secret: 'JBSWY3DPEHPK3PXPSECRETEXPORT', enabledAt: new Date() });
  await ctx.database.db.insert(totpRecoveryCodes).values({ userId: account!.id, codeHash: 'recovery-code-hash-of-export-student' });
  // An e-mail to the student whose text holds a one-time link.
  await ctx.database.db.insert(mailOutbox).values({
    recipient: EMAIL,
    subject: 'Set your password',
    body: 'Open https://portal.example/set-password#token-of-export-student-secret',
    expiresAt: new Date(Date.now() + 3600_000),
  });
  // Entries that name the student (by e-mail, by PIN in the detail) and one that does not.
  await recordAudit(ctx.database.db, CLI, 'account.reset-password', EMAIL, { how: 'password set' });
  await recordAudit(ctx.database.db, CLI, 'account.create', 'someone.else@test.university.edu', { name: 'X', role: 'student', pin: 'EXP011' });
  await recordAudit(ctx.database.db, CLI, 'account.create', 'other@test.university.edu', { name: 'Y', role: 'student', pin: PIN });
  return cookie;
}

describe('exporting a student\'s data', () => {
  let student: string;

  it('gives the student everything held about them, as a JSON download', async () => {
    student = await studentWithData();
    const res = await get('/api/me/export', student);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="personal-data-EXP01.json"');
    const data: PersonalData = PersonalDataSchema.parse(res.json());
    expect(data.pin).toBe(PIN);
    expect(data.roster).toMatchObject({ pin: PIN, name: `Student ${PIN}`, className: 'CSE3', withdrawnAt: null });
    expect(data.account).toMatchObject({ email: EMAIL, role: 'student', hasPassword: true, twoStepSignIn: true, singleSignOn: false });
    expect(data.account!.signedInBrowsers).toBeGreaterThanOrEqual(1);
    expect(data.profile).toMatchObject({ name: 'Export Student', designation: 'CSE', status: 'approved' });
    // The stored photo (re-encoded on upload) comes back whole as a data URL.
    const [, type, base64] = /^data:(image\/[a-z]+);base64,(.+)$/.exec(data.profile!.photo ?? '') ?? [];
    expect(type).toBeDefined();
    expect((await sharp(Buffer.from(base64!, 'base64')).metadata()).width).toBe(40);
    expect(data.marks).toEqual([
      expect.objectContaining({
        className: 'CSE3',
        date: day,
        period: 0,
        status: 'late',
        changes: [expect.objectContaining({ from: null, to: 'absent' }), expect.objectContaining({ from: 'absent', to: 'late' })],
      }),
    ]);
    expect(data.corrections).toEqual([expect.objectContaining({ date: day, reason: 'I came in on time, the bus was early.', state: 'open' })]);
    expect(data.emails).toEqual([expect.objectContaining({ subject: 'Set your password', status: 'queued', sentAt: null })]);
    expect(data.contactMessages).toEqual([expect.objectContaining({ subject: 'My marks', message: 'Please check my marks of last week.' })]);
    expect(data.auditEntries.map((e) => e.target)).toEqual(
      expect.arrayContaining([EMAIL, 'other@test.university.edu']),
    );
    expect(data.auditEntries.map((e) => e.target)).not.toContain('someone.else@test.university.edu');
  });

  it('never holds the password hash, the TOTP secret, recovery codes or sign-in tokens', async () => {
    const text = (await get('/api/me/export', student)).body;
    const [account] = await ctx.database.db.select().from(users).where(eq(users.email, EMAIL));
    const secrets = [
      account!.passwordHash!,
      ...(await ctx.database.db.select().from(totpCredentials).where(eq(totpCredentials.userId, account!.id))).map((r) => r.secret),
      ...(await ctx.database.db.select().from(totpRecoveryCodes).where(eq(totpRecoveryCodes.userId, account!.id))).map((r) => r.codeHash),
      ...(await ctx.database.db.select().from(signInSessions).where(eq(signInSessions.userId, account!.id))).map((r) => r.id),
      student.replace(/^portal_session=/, ''),
      'token-of-export-student-secret',
    ];
    expect(secrets.length).toBeGreaterThanOrEqual(6);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/passwordHash|password_hash|\$argon2/);
  });

  it('gives an admin any student\'s data and records that in the trail', async () => {
    const res = await get(`/api/admin/students/${PIN.toLowerCase()}/export`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="personal-data-EXP01.json"');
    expect(PersonalDataSchema.parse(res.json()).account?.email).toBe(EMAIL);
    const [entry] = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'student.export'));
    expect(entry).toMatchObject({ target: PIN, actor: expect.stringMatching(/^admin/) });
  });

  it("holds the student's check-ins and the keys of their devices", async () => {
    const opened = await post('/api/checkins', faculty, { className: 'CSE3' });
    expect(opened.statusCode).toBe(201);
    const id = (opened.json() as { id: string }).id;
    const token = ((await get(`/api/checkins/${id}`, faculty)).json() as Checkin).code!.token;
    const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
    const deviceKey = Buffer.from(await crypto.subtle.exportKey('raw', pair.publicKey)).toString('base64url');
    const signedAt = Date.now();
    const signed = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, new TextEncoder().encode(`portal-checkin\n${token}\n${signedAt}`));
    const signature = Buffer.from(signed).toString('base64url');
    expect((await post('/api/checkins/scan', student, { token, deviceKey, signature, signedAt })).statusCode).toBe(200);
    const data = PersonalDataSchema.parse((await get('/api/me/export', student)).json());
    expect(data.checkins).toEqual([
      expect.objectContaining({ className: 'CSE3', date: todayIn('UTC'), period: 0, status: 'present', markKept: false, flags: [], removedAt: null }),
    ]);
    expect(data.deviceKeys).toEqual([expect.objectContaining({ publicKey: deviceKey })]);
  });

  it('is refused to anyone else, and is a 404 for a PIN nothing is held about', async () => {
    expect((await get('/api/me/export')).statusCode).toBe(401);
    expect((await get('/api/me/export', faculty)).statusCode).toBe(403);
    expect((await get('/api/me/export', admin)).statusCode).toBe(403);
    expect((await get(`/api/admin/students/${PIN}/export`, faculty)).statusCode).toBe(403);
    expect((await get(`/api/admin/students/${PIN}/export`, student)).statusCode).toBe(403);
    expect((await get(`/api/admin/students/${PIN}/export`)).statusCode).toBe(401);
    const missing = await get('/api/admin/students/NOBODY99/export', admin);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Nothing is held about PIN NOBODY99' });
    expect((await get('/api/admin/students/bad%20pin!/export', admin)).statusCode).toBe(400);
  });
});
