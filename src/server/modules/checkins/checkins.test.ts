import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../../shared/dates';
import type { AttendanceChange, AttendanceRegister } from '../../../shared/schemas/attendance';
import type { Checkin, ScanResult } from '../../../shared/schemas/checkins';
import { addUser } from '../accounts/service';
import { findCounterDifferences } from '../counters/service';
import { putStudents } from '../roster/service';
import { createTestContext, TEST_PASSWORD, type TestContext } from '../../test/test-app';
import { SLOT_MS } from './codes';

/** The check-ins' clock: the tests move it; a second into a 10-second slot to begin with. */
let now = 0;
const clock = () => new Date(now);

let ctx: TestContext;
let faculty: string;
let admin: string;
let today: string;

const CAMPUS = '10.20.0.0/16';

beforeAll(async () => {
  now = (Math.floor(Date.now() / SLOT_MS) + 1) * SLOT_MS + 1_000;
  ctx = await createTestContext({ campusNetworks: [CAMPUS] }, { clock });
  today = todayIn('UTC', clock());
  [faculty, admin] = await Promise.all([ctx.signIn('faculty'), ctx.signIn('admin')]);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

const inject = (method: 'GET' | 'POST' | 'PUT', url: string, cookie: string | undefined, payload?: object, remoteAddress?: string) =>
  ctx.app.inject({ method, url, ...(cookie ? { headers: { cookie } } : {}), ...(payload ? { payload } : {}), ...(remoteAddress ? { remoteAddress } : {}) });

const student = (pin: string, className: string) => ctx.signIn('student', { pin, className });

async function open(cookie: string, body: object): Promise<string> {
  const res = await inject('POST', '/api/checkins', cookie, body);
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

async function view(id: string): Promise<Checkin> {
  const res = await inject('GET', `/api/checkins/${id}`, faculty);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Checkin;
}

async function tokenOf(id: string): Promise<string> {
  const code = (await view(id)).code;
  if (!code) throw new Error('the check-in is closed');
  return code.token;
}

const scan = (cookie: string, body: object, remoteAddress?: string) => inject('POST', '/api/checkins/scan', cookie, body, remoteAddress);

async function register(className: string, period = 0): Promise<AttendanceRegister> {
  return (await inject('GET', `/api/attendance/${className}/${today}${period ? `?period=${period}` : ''}`, faculty)).json() as AttendanceRegister;
}

async function markOf(className: string, pin: string) {
  return (await register(className)).records.find((record) => record.pin === pin);
}

/** A browser's device as WebCrypto makes it: a non-extractable P-256 key pair. */
async function newDevice() {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  const deviceKey = Buffer.from(await crypto.subtle.exportKey('raw', pair.publicKey)).toString('base64url');
  return {
    deviceKey,
    async proof(subject: string) {
      const signedAt = now;
      const data = new TextEncoder().encode(`portal-checkin\n${subject}\n${signedAt}`);
      const signature = Buffer.from(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, data)).toString('base64url');
      return { deviceKey, signature, signedAt };
    },
  };
}

async function scanWith(cookie: string, token: string, device: Awaited<ReturnType<typeof newDevice>> | null, remoteAddress?: string) {
  return scan(cookie, { token, ...(device ? await device.proof(token) : {}) }, remoteAddress);
}

describe('opening and closing a check-in', () => {
  it('refuses a bad length, an unknown class, a late threshold past the end, students and the signed out', async () => {
    for (const minutes of [0, 31, 2.5]) {
      const res = await inject('POST', '/api/checkins', faculty, { className: 'CSE7', minutes });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('minutes is a whole number from 1 to 30');
    }
    expect((await inject('POST', '/api/checkins', faculty, { className: 'NOPE' })).statusCode).toBe(404);
    const late = await inject('POST', '/api/checkins', faculty, { className: 'CSE7', minutes: 5, lateAfterMinutes: 5 });
    expect(late.statusCode).toBe(400);
    const pupil = await student('OPEN01', 'CSE7');
    expect((await inject('POST', '/api/checkins', pupil, { className: 'CSE7' })).statusCode).toBe(403);
    expect((await inject('POST', '/api/checkins', undefined, { className: 'CSE7' })).statusCode).toBe(401);
    // A lecture the timetable does not give that day cannot take self check-ins until its register is saved.
    const lecture = await inject('POST', '/api/checkins', faculty, { className: 'CSE7', period: 3 });
    expect(lecture.statusCode).toBe(400);
  });

  it('opens one check-in per register, for 10 minutes by default; admins too; a closed one makes room', async () => {
    const res = await inject('POST', '/api/checkins', faculty, { className: 'CSE7' });
    expect(res.statusCode).toBe(201);
    const opened = res.json() as { id: string; closesAt: string };
    expect(opened.closesAt).toBe(new Date(now + 10 * 60_000).toISOString());

    const again = await inject('POST', '/api/checkins', admin, { className: 'CSE7', minutes: 5 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'A check-in is already open for this register: close it first' });

    const closed = await inject('POST', `/api/checkins/${opened.id}/close`, faculty);
    expect(closed.statusCode).toBe(200);
    expect(closed.json()).toMatchObject({ state: 'closed', code: null, closedAt: clock().toISOString() });
    // Closing again changes nothing.
    expect((await inject('POST', `/api/checkins/${opened.id}/close`, faculty)).json()).toMatchObject({ closedAt: clock().toISOString() });

    const next = await open(admin, { className: 'CSE7', minutes: 1 });
    // Its minute runs out: the register can take another.
    now += 61_000;
    expect((await view(next)).state).toBe('closed');
    await open(faculty, { className: 'CSE7', minutes: 30 });
    expect((await inject('GET', `/api/checkins/${next}`, await student('OPEN02', 'CSE7'))).statusCode).toBe(403);
    expect((await inject('GET', '/api/checkins/not-an-id', faculty)).statusCode).toBe(400);
    expect((await inject('GET', '/api/checkins/00000000-0000-4000-8000-000000000000', faculty)).statusCode).toBe(404);
  });
});

describe('scanning the code', () => {
  let id: string;
  const pupils: Record<string, string> = {};

  beforeAll(async () => {
    for (const pin of ['SCAN01', 'SCAN02', 'SCAN03', 'SCAN04', 'SCAN05', 'SCAN06', 'SCAN07']) pupils[pin] = await student(pin, 'CSE1');
    id = await open(faculty, { className: 'CSE1', minutes: 10 });
  });

  it('shows faculty the code of the slot, its typed form and when it ends', async () => {
    const checkin = await view(id);
    expect(checkin).toMatchObject({ class: 'CSE1', date: today, period: 0, state: 'open', entries: [], checkedIn: 0, refusedCount: 0 });
    const slot = Math.floor(now / SLOT_MS);
    expect(checkin.code?.token).toMatch(new RegExp(`^${id}\\.${slot}\\.[A-Za-z0-9_-]{16}$`));
    expect(checkin.code?.url).toMatch(new RegExp(`/c/${checkin.code?.token.replace(/\./g, '\\.')}$`));
    expect(checkin.code?.typedCode).toMatch(/^[A-Z2-7]{6}$/);
    expect(checkin.code?.slotEndsAt).toBe(new Date((slot + 1) * SLOT_MS).toISOString());
  });

  it('accepts a token in its slot and in the next (with 2 seconds more), not after', async () => {
    const start = Math.floor(now / SLOT_MS) * SLOT_MS;
    const token = await tokenOf(id);
    const first = await scan(pupils.SCAN01!, { token });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ checkinId: id, class: 'CSE1', date: today, period: 0, status: 'present', markKept: false });

    now = start + SLOT_MS + 5_000;
    expect((await scan(pupils.SCAN02!, { token })).statusCode).toBe(200);
    now = start + 21_999;
    expect((await scan(pupils.SCAN03!, { token })).statusCode).toBe(200);
    now = start + 22_000;
    const old = await scan(pupils.SCAN04!, { token });
    expect(old.statusCode).toBe(400);
    expect(old.json()).toEqual({ message: 'This code has expired: scan the code on the screen again' });

    // Written into the register: present with the time of the check-in, everyone else absent, the history says self.
    const sheet = await register('CSE1');
    expect(sheet.records.find((r) => r.pin === 'SCAN01')).toMatchObject({ status: 'present', checkedInAt: expect.any(String) });
    expect(sheet.records.find((r) => r.pin === 'SCAN04')).toMatchObject({ status: 'absent' });
    expect(sheet.records.find((r) => r.pin === 'SCAN04')?.checkedInAt).toBeUndefined();
    const history = (await inject('GET', `/api/attendance/CSE1/${today}/history`, faculty)).json() as AttendanceChange[];
    expect(history.filter((c) => c.source === 'self').map((c) => c.pin).sort()).toEqual(['SCAN01', 'SCAN02', 'SCAN03']);
    expect(history.find((c) => c.pin === 'SCAN01')).toMatchObject({ oldStatus: null, newStatus: 'present', changedBy: 'Test student' });
    expect((await view(id)).refusedCount).toBe(1);
  });

  it('refuses a forged mac, a token of another check-in and what is not a token, as 400', async () => {
    const token = await tokenOf(id);
    const forged = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    expect((await scan(pupils.SCAN04!, { token: forged })).json()).toEqual({ message: 'This code is not valid: scan the code on the screen again' });
    const other = await open(faculty, { className: 'CSE8' });
    const theirs = await tokenOf(other);
    const swapped = `${id}${theirs.slice(other.length)}`;
    expect((await scan(pupils.SCAN04!, { token: swapped })).statusCode).toBe(400);
    expect((await scan(pupils.SCAN04!, { token: 'not a token' })).statusCode).toBe(400);
    expect((await scan(pupils.SCAN04!, {})).statusCode).toBe(400);
    expect((await view(id)).refusedCount).toBe(3);
    // Faculty cannot check in.
    expect((await scan(faculty, { token })).statusCode).toBe(403);
  });

  it('accepts the typed code, in any case and with spaces, and refuses a wrong one', async () => {
    const typed = (await view(id)).code!.typedCode;
    const wrong = await scan(pupils.SCAN05!, { code: typed === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA' });
    expect(wrong.statusCode).toBe(400);
    const res = await scan(pupils.SCAN05!, { code: `${typed.slice(0, 3).toLowerCase()} ${typed.slice(3)}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ checkinId: id, status: 'present' });
    expect((await view(id)).refusedCount).toBe(4);
  });

  it('answers a repeat with the same result', async () => {
    const first = (await scan(pupils.SCAN05!, { code: (await view(id)).code!.typedCode })).json() as ScanResult;
    now += 30_000;
    const again = await scan(pupils.SCAN01!, { token: await tokenOf(id) });
    expect(again.statusCode).toBe(200);
    const firstOf01 = (await view(id)).entries.find((e) => e.pin === 'SCAN01')!;
    expect(again.json()).toMatchObject({ status: 'present', at: firstOf01.at });
    expect(first.status).toBe('present');
  });

  it('never changes a mark faculty set', async () => {
    // Faculty save the register: SCAN06 excused; SCAN07's absence is left as the check-in made it.
    const sheet = await register('CSE1');
    const records = sheet.records.map((r) => ({ pin: r.pin, status: r.pin === 'SCAN06' ? 'excused' : r.status }));
    const saved = await inject('PUT', `/api/attendance/CSE1/${today}`, faculty, { records });
    expect(saved.statusCode).toBe(200);
    // The save's answer keeps the self check-ins as such.
    expect((saved.json() as AttendanceRegister).records.find((r) => r.pin === 'SCAN01')?.checkedInAt).toEqual(expect.any(String));

    const kept = await scan(pupils.SCAN06!, { token: await tokenOf(id) });
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({ status: 'excused', markKept: true });
    expect(await markOf('CSE1', 'SCAN06')).toMatchObject({ status: 'excused' });

    const written = await scan(pupils.SCAN07!, { token: await tokenOf(id) });
    expect(written.json()).toMatchObject({ status: 'present', markKept: false });
  });

  it('refuses a student of another class (403), counted', async () => {
    const outsider = await student('SCAN90', 'CSE2');
    const before = (await view(id)).refusedCount;
    const res = await scan(outsider, { token: await tokenOf(id) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'You are not on the CSE1 roster' });
    expect((await view(id)).refusedCount).toBe(before + 1);
  });

  it('gives faculty back a check-in they remove: the mark as before, the reason in the history', async () => {
    const reason = 'Scanned from a photo sent by a friend';
    const res = await inject('POST', `/api/checkins/${id}/remove`, faculty, { pin: 'scan02', reason });
    expect(res.statusCode, res.body).toBe(200);
    const entry = (res.json() as Checkin).entries.find((e) => e.pin === 'SCAN02');
    expect(entry?.removed).toMatchObject({ reason });
    expect(await markOf('CSE1', 'SCAN02')).toMatchObject({ status: 'absent' });
    expect((await markOf('CSE1', 'SCAN02'))?.checkedInAt).toBeUndefined();
    const history = (await inject('GET', `/api/attendance/CSE1/${today}/history`, faculty)).json() as AttendanceChange[];
    expect(history[0]).toMatchObject({ pin: 'SCAN02', oldStatus: 'present', newStatus: 'absent', reason, source: 'faculty', changedBy: 'Test faculty' });

    // Removed: the student cannot check in again; removing twice is 404; a reason is needed.
    const again = await scan(pupils.SCAN02!, { token: await tokenOf(id) });
    expect(again.statusCode).toBe(409);
    expect((await inject('POST', `/api/checkins/${id}/remove`, faculty, { pin: 'SCAN02', reason })).statusCode).toBe(404);
    expect((await inject('POST', `/api/checkins/${id}/remove`, faculty, { pin: 'SCAN03', reason: ' ' })).statusCode).toBe(400);
    expect((await inject('POST', `/api/checkins/${id}/remove`, pupils.SCAN03!, { pin: 'SCAN03', reason })).statusCode).toBe(403);
  });

  it('refuses a closed check-in (409), counted', async () => {
    const token = await tokenOf(id);
    await inject('POST', `/api/checkins/${id}/close`, faculty);
    const before = (await view(id)).refusedCount;
    const res = await scan(pupils.SCAN04!, { token });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'This check-in is closed' });
    const closed = await view(id);
    expect(closed.refusedCount).toBe(before + 1);
    expect(closed.checkedIn).toBe(5);
  });
});

describe('late, campus networks and the limit', () => {
  it('marks late after lateAfterMinutes', async () => {
    const early = await student('LATE01', 'CSE2');
    const tardy = await student('LATE02', 'CSE2');
    const id = await open(faculty, { className: 'CSE2', minutes: 10, lateAfterMinutes: 2 });
    expect((await scan(early, { token: await tokenOf(id) })).json()).toMatchObject({ status: 'present' });
    now += 2 * 60_000;
    expect((await scan(tardy, { token: await tokenOf(id) })).json()).toMatchObject({ status: 'late' });
    expect(await markOf('CSE2', 'LATE02')).toMatchObject({ status: 'late' });
  });

  it('accepts a campus-only check-in from the campus networks only (403 elsewhere)', async () => {
    const pupil = await student('CAMP01', 'CSE3');
    const id = await open(faculty, { className: 'CSE3', campusOnly: true });
    const outside = await scan(pupil, { token: await tokenOf(id) }, '192.168.1.7');
    expect(outside.statusCode).toBe(403);
    expect(outside.json().message).toContain('campus network');
    expect((await scan(pupil, { token: await tokenOf(id) }, '10.20.3.4')).statusCode).toBe(200);
    const other = await student('CAMP02', 'CSE3');
    expect((await scan(other, { token: await tokenOf(id) }, '::ffff:10.20.9.9')).statusCode).toBe(200);
    expect((await view(id)).refusedCount).toBe(1);
  });

  it('answers 429 after 10 scans a minute from one student', async () => {
    const pupil = await student('RATE01', 'CSE4');
    for (let i = 0; i < 10; i += 1) expect((await scan(pupil, { token: `bad-${i}` })).statusCode).toBe(400);
    const limited = await scan(pupil, { token: 'bad-10' });
    expect(limited.statusCode).toBe(429);
    // Another student is not held back.
    expect((await scan(await student('RATE02', 'CSE4'), { token: 'bad' })).statusCode).toBe(400);
  });
});

describe('device keys', () => {
  it('flags one device for two students, a new device, and no key; a shared address is no flag', async () => {
    const [a, b, c, d] = await Promise.all(['DEV01', 'DEV02', 'DEV03', 'DEV04'].map((pin) => student(pin, 'CSE5')));
    const [phoneA, phoneB, phoneC, phoneA2] = await Promise.all([newDevice(), newDevice(), newDevice(), newDevice()]);
    const lab = '10.20.1.1';
    const first = await open(faculty, { className: 'CSE5' });
    expect((await scanWith(a!, await tokenOf(first), phoneA, lab)).statusCode).toBe(200);
    expect((await scanWith(b!, await tokenOf(first), phoneB, lab)).statusCode).toBe(200);
    expect((await scanWith(c!, await tokenOf(first), phoneC, lab)).statusCode).toBe(200);
    expect((await scanWith(d!, await tokenOf(first), null, lab)).statusCode).toBe(200);
    const flagsOf = async (id: string) => Object.fromEntries((await view(id)).entries.map((e) => [e.pin, e.flags]));
    expect(await flagsOf(first)).toEqual({ DEV01: [], DEV02: [], DEV03: [], DEV04: ['no-device-key'] });

    // The next check-in of the register: DEV01 on another phone, DEV03 checks DEV02 in with their own phone.
    await inject('POST', `/api/checkins/${first}/close`, faculty);
    const second = await open(faculty, { className: 'CSE5' });
    expect((await scanWith(a!, await tokenOf(second), phoneA2, lab)).statusCode).toBe(200);
    expect((await scanWith(c!, await tokenOf(second), phoneC, lab)).statusCode).toBe(200);
    expect((await scanWith(b!, await tokenOf(second), phoneC, lab)).statusCode).toBe(200);
    expect(await flagsOf(second)).toEqual({ DEV01: ['new-device'], DEV03: ['shared-device'], DEV02: ['shared-device', 'new-device'] });
  });

  it('flags a signature that does not verify, and refuses a key that is not one', async () => {
    const pupil = await student('DEV10', 'CSE6');
    const phone = await newDevice();
    const id = await open(faculty, { className: 'CSE6' });
    const token = await tokenOf(id);
    const proof = await phone.proof('some other token');
    expect((await scan(pupil, { token, deviceKey: 'AAAA' })).statusCode).toBe(400);
    expect((await scan(pupil, { token, ...proof })).statusCode).toBe(200);
    expect((await view(id)).entries[0]?.flags).toEqual(['invalid-signature']);
    await inject('POST', `/api/checkins/${id}/close`, faculty);
  });
});

describe('a scan while signed out', () => {
  let id: string;

  beforeAll(async () => {
    await putStudents(ctx.database.db, [
      { pin: 'AWAY01', name: 'Away One', className: 'CSE6' },
      { pin: 'AWAY02', name: 'Away Two', className: 'CSE6' },
    ]);
    await addUser(ctx.database.db, { email: 'away01@test.university.edu', name: 'Away One', role: 'student', pin: 'AWAY01', password: TEST_PASSWORD });
    await addUser(ctx.database.db, { email: 'away02@test.university.edu', name: 'Away Two', role: 'student', pin: 'AWAY02', password: TEST_PASSWORD });
    id = await open(faculty, { className: 'CSE6', minutes: 20 });
  });

  /** The `name=value` of a cookie the answer sets. */
  function setCookie(res: { headers: Record<string, unknown> }, name: string): string {
    const headers = [res.headers['set-cookie']].flat() as string[];
    const found = headers.find((header) => header.startsWith(`${name}=`));
    if (!found) throw new Error(`no ${name} cookie`);
    return found.split(';')[0]!;
  }

  async function signInWith(email: string, scanCookie: string): Promise<string> {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { cookie: scanCookie },
      payload: { email, password: TEST_PASSWORD, role: 'student', remember: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    return setCookie(res, 'portal_session');
  }

  it('keeps the scan while the student signs in, and checks them in with a code now expired but valid when scanned', async () => {
    const token = await tokenOf(id);
    const visit = await inject('GET', `/c/${token}`, undefined);
    expect(visit.statusCode).toBe(302);
    expect(visit.headers.location).toBe('/login?returnUrl=%2Fc%2Fdone');
    const kept = setCookie(visit, 'portal_scan');
    expect(visit.headers['set-cookie']).toEqual(expect.stringMatching(/HttpOnly/));

    now += 90_000;
    const session = await signInWith('away01@test.university.edu', kept);
    // Checked in by the sign-in itself.
    expect(await markOf('CSE6', 'AWAY01')).toMatchObject({ status: 'present', checkedInAt: expect.any(String) });

    // The page's call after the sign-in answers the same result (and brings the device's key), then the cookie goes.
    const phone = await newDevice();
    // The browser back from the sign-in at /c/done goes to the web's scan page, which completes the kept scan with the device's key.
    const back = await inject('GET', '/c/done', `${session}; ${kept}`);
    expect(back.headers.location).toBe('/scan#done');
    const pending = await inject('POST', '/api/checkins/scan/pending', `${session}; ${kept}`, await phone.proof('pending'));
    expect(pending.statusCode, pending.body).toBe(200);
    expect(pending.json()).toMatchObject({ checkinId: id, status: 'present', at: new Date(now - 90_000).toISOString() });
    expect(pending.headers['set-cookie']).toEqual(expect.stringMatching(/^portal_scan=;/));
    expect((await view(id)).entries.find((e) => e.pin === 'AWAY01')?.flags).toEqual([]);

    // Signed in, the QR's address goes to the web's scan page, which signs the scan; the token in the fragment.
    const token2 = await tokenOf(id);
    const done = await inject('GET', `/c/${token2}`, session);
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe(`/scan#${token2}`);
    const wrong = await inject('GET', '/c/not-a-token', session);
    expect(wrong.headers.location).toBe('/scan#not-a-token');
    expect((await inject('POST', '/api/checkins/scan/pending', session, {})).statusCode).toBe(404);
    const staff = await inject('GET', `/c/${await tokenOf(id)}`, faculty);
    expect(staff.headers.location).toBe(`/checkin-result?${new URLSearchParams({ error: 'Only students check in' })}`);
  });

  it('refuses a scan kept more than 3 minutes', async () => {
    const visit = await inject('GET', `/c/${await tokenOf(id)}`, undefined);
    const kept = setCookie(visit, 'portal_scan');
    now += 3 * 60_000 + 1_000;
    const session = await signInWith('away02@test.university.edu', kept);
    // Joined the roster after the register was made: no mark, as before the scan.
    expect(await markOf('CSE6', 'AWAY02')).toBeUndefined();
    const pending = await inject('POST', '/api/checkins/scan/pending', `${session}; ${kept}`, {});
    expect(pending.statusCode).toBe(400);
    expect(pending.json()).toEqual({ message: 'Your scan is more than 3 minutes old: scan the code on the screen again' });
    // A forged cookie is no scan.
    const forged = kept.replace(/\.[^.]*$/, '.forged');
    expect((await inject('POST', '/api/checkins/scan/pending', `${session}; ${forged}`, {})).statusCode).toBe(404);
    expect(await markOf('CSE6', 'AWAY02')).toBeUndefined();
  });
});

describe('the counters', () => {
  it('stay right through every check-in and removal (portal verify)', async () => {
    expect(await findCounterDifferences(ctx.database.db)).toEqual([]);
  });
});
