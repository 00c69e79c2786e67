import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../../shared/dates';
import type { AttendanceRegister } from '../../../shared/schemas/attendance';
import type { Checkin } from '../../../shared/schemas/checkins';
import type { Correction } from '../../../shared/schemas/corrections';
import { ErasureSchema } from '../../../shared/schemas/personal-data';
import { writeBackup } from '../../db/backup';
import { auditLog, users } from '../../db/schema';
import { withStaffApp, type TestContext } from '../../test/test-app';
import { CLI, recordAudit } from '../audit/service';
import { findCounterDifferences } from '../counters/service';
import { ERASE_CONFIRM_MESSAGE } from './service';

let ctx: TestContext;
let faculty: string;
let admin: string;

withStaffApp((made) => ({ ctx, faculty, admin } = made));

const folder = mkdtempSync(path.join(tmpdir(), 'erase-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// Distinctive enough that finding them anywhere in a backup means they were left behind.
const PIN = 'ZQ7731K';
const NAME = 'Zephyrine Quillfeather';
const EMAIL = 'Zephyrine.Q@students.example.edu';
const REASON = 'Zephyrine was at the dentist, appointment card attached';
const MESSAGE = 'Quillfeather family asks about the timetable';
const OTHER = 'ZQ7732K';
const day = addDays(todayIn('UTC'), -4);

const call = (method: 'GET' | 'POST' | 'PUT', url: string, cookie?: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}), remoteAddress: '10.8.0.1' });

async function studentWithEverything(): Promise<string> {
  const student = await ctx.signIn('student', { pin: PIN, email: EMAIL, className: 'CSE5' });
  await ctx.database.db.update(users).set({ name: NAME }).where(eq(users.pin, PIN));
  await ctx.signIn('student', { pin: OTHER, className: 'CSE5' });
  await ctx.database.db.execute(sql`update students set name = ${NAME} where pin = ${PIN}`);
  const records = (status: string) => [{ pin: PIN, status }, { pin: OTHER, status: 'present' }];
  // Sent with an Idempotency-Key: its kept answer names the student too (decision 46).
  const saved = await ctx.app.inject({
    method: 'PUT',
    url: `/api/attendance/CSE5/${day}`,
    headers: { cookie: faculty, 'idempotency-key': 'a3c1f0de-5b7e-4c2a-9d41-6f2e8b0c7d13' },
    payload: { records: records('absent') },
  });
  expect(saved.statusCode).toBe(200);
  const asked = await call('POST', '/api/corrections', student, { date: day, reason: REASON });
  expect(asked.statusCode).toBe(201);
  expect((await call('POST', `/api/corrections/${(asked.json() as Correction).id}/accept`, faculty, {})).statusCode).toBe(200);
  expect((await call('POST', '/api/registrations', student, { name: NAME, designation: 'Student of CSE', pin: PIN })).statusCode).toBe(201);
  const sent = await ctx.app.inject({
    method: 'POST',
    url: '/api/contact',
    payload: { name: NAME, email: EMAIL.toLowerCase(), subject: 'Timetable', message: MESSAGE },
    remoteAddress: '10.8.0.2',
  });
  expect(sent.statusCode).toBe(201);
  await recordAudit(ctx.database.db, CLI, 'account.create', EMAIL, { name: NAME, role: 'student', pin: PIN });
  expect((await call('GET', `/api/admin/students/${PIN}/export`, admin)).statusCode).toBe(200);
  // A self check-in today with the student's device, which faculty then remove.
  const opened = await call('POST', '/api/checkins', faculty, { className: 'CSE5' });
  expect(opened.statusCode).toBe(201);
  const checkin = (opened.json() as { id: string }).id;
  const token = ((await call('GET', `/api/checkins/${checkin}`, faculty)).json() as Checkin).code!.token;
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  deviceKey = Buffer.from(await crypto.subtle.exportKey('raw', pair.publicKey)).toString('base64url');
  const signedAt = Date.now();
  const signed = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, new TextEncoder().encode(`portal-checkin\n${token}\n${signedAt}`));
  const signature = Buffer.from(signed).toString('base64url');
  expect((await call('POST', '/api/checkins/scan', student, { token, deviceKey, signature, signedAt })).statusCode).toBe(200);
  const removed = await call('POST', `/api/checkins/${checkin}/remove`, faculty, { pin: PIN, reason: `${NAME} left early` });
  expect(removed.statusCode).toBe(200);
  return student;
}

let deviceKey = '';

describe('erasing a student', () => {
  let student: string;
  let before: AttendanceRegister;

  it('asks for the PIN typed again, and is for admins only', async () => {
    student = await studentWithEverything();
    before = (await call('GET', `/api/attendance/CSE5/${day}`, faculty)).json() as AttendanceRegister;
    const wrong = await call('POST', `/api/admin/students/${PIN}/erase`, admin, { confirm: OTHER });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: ERASE_CONFIRM_MESSAGE });
    expect((await call('POST', `/api/admin/students/${PIN}/erase`, admin, {})).statusCode).toBe(400);
    expect((await call('POST', `/api/admin/students/${PIN}/erase`, faculty, { confirm: PIN })).statusCode).toBe(403);
    expect((await call('POST', `/api/admin/students/${PIN}/erase`, student, { confirm: PIN })).statusCode).toBe(403);
    expect((await call('POST', `/api/admin/students/${PIN}/erase`, undefined, { confirm: PIN })).statusCode).toBe(401);
    const nobody = await call('POST', '/api/admin/students/NOBODY77/erase', admin, { confirm: 'nobody77' });
    expect(nobody.statusCode).toBe(404);
    // Nothing was erased by any of these.
    expect((await call('GET', '/api/me/export', student)).statusCode).toBe(200);
  });

  let pseudonym: string;
  it('deletes the account, profile, requests and messages, and keeps the registers under a pseudonym', async () => {
    const res = await call('POST', `/api/admin/students/${PIN.toLowerCase()}/erase`, admin, { confirm: ` ${PIN.toLowerCase()} ` });
    expect(res.statusCode).toBe(200);
    const erasure = ErasureSchema.parse(res.json());
    pseudonym = erasure.pseudonym;
    expect(pseudonym).toMatch(/^ERASED-[0-9A-F]{8}$/);
    // Two marks: the register of `day`, and today's, made by the check-in.
    expect(erasure).toMatchObject({ account: true, profile: true, marks: 2, corrections: 1, contactMessages: 1, checkins: 1, deviceKeys: 1 });
    expect(erasure.auditEntries).toBeGreaterThanOrEqual(3);

    // Signed out everywhere: the account and its sessions are gone.
    expect((await call('GET', '/api/me/export', student)).statusCode).toBe(401);
    // The register holds the same marks and counts, the student's under the pseudonym.
    const after = (await call('GET', `/api/attendance/CSE5/${day}`, faculty)).json() as AttendanceRegister;
    expect(after.records.map((r) => r.status)).toEqual(before.records.map((r) => r.status));
    expect(after.records.find((r) => r.pin === pseudonym)).toMatchObject({ name: pseudonym, status: 'present' });
    expect(after.records.find((r) => r.pin === OTHER)).toBeDefined();
    // What `portal verify` checks: every counter agrees with the marks.
    expect(await findCounterDifferences(ctx.database.db)).toEqual([]);
    // The erased student's data, as an admin would download it: only the pseudonym's marks.
    const data = (await call('GET', `/api/admin/students/${pseudonym}/export`, admin)).json();
    expect(data).toMatchObject({ account: null, profile: null, corrections: [], contactMessages: [], roster: { name: pseudonym } });
    expect((await call('GET', `/api/admin/students/${PIN}/export`, admin)).statusCode).toBe(404);

    const [entry] = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'student.erase'));
    expect(entry).toMatchObject({ target: pseudonym, detail: expect.objectContaining({ marks: 2, account: true }) });
  });

  it('leaves none of the old PIN, name, e-mail or texts anywhere in a backup of the database', async () => {
    const file = path.join(folder, 'after-erasure.backup');
    await writeBackup(ctx.database, file);
    const text = gunzipSync(readFileSync(file)).toString('utf8');
    expect(text).toContain(pseudonym);
    expect(text).toContain(OTHER);
    for (const gone of [PIN, NAME, 'Zephyrine', 'Quillfeather', EMAIL, EMAIL.toLowerCase(), REASON, MESSAGE, deviceKey]) {
      expect(text.toLowerCase(), gone).not.toContain(gone.toLowerCase());
    }
  });

  it('keeps the audit trail append-only for everything else', async () => {
    await expect(ctx.database.db.execute(sql`update audit_log set actor = 'someone'`)).rejects.toThrow();
    await expect(ctx.database.db.execute(sql`delete from audit_log`)).rejects.toThrow();
    await expect(ctx.database.db.execute(sql`truncate audit_log`)).rejects.toThrow();
    // The erasure's permission ended with its transaction.
    await expect(
      ctx.database.db.transaction(async (tx) => {
        await tx.execute(sql`update audit_log set actor = 'someone' where id = 1`);
      }),
    ).rejects.toThrow();
    const rows = await ctx.database.db.select().from(auditLog);
    expect(rows.some((row) => row.actor === 'someone')).toBe(false);
  });

  it('refuses to erase a pseudonym again', async () => {
    const res = await call('POST', `/api/admin/students/${pseudonym}/erase`, admin, { confirm: pseudonym });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: `${pseudonym} is already erased` });
  });
});
