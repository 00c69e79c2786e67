import { eq } from 'drizzle-orm';
import { PDFParse } from 'pdf-parse';
import { describe, expect, it } from 'vitest';
import {
  DUPLICATE_PIN_MESSAGE,
  REQUIRED_FIELDS_MESSAGE,
  type Profile,
  type RegistrationRequest,
} from '../../../shared/schemas/profiles';
import { profiles } from '../../db/schema';
import { withFacultyApp, type TestContext } from '../../test/test-app';
import { putStudents } from '../roster/service';

let ctx: TestContext;

async function pdfText(buffer: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(buffer) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}
let faculty: string;

withFacultyApp((made) => ({ ctx, faculty } = made));

// Registration is rate-limited per address; each call comes from its own address unless a test says otherwise.
let addressCounter = 0;
function nextAddress(): string {
  addressCounter += 1;
  return `10.1.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

function register(body: Partial<Record<keyof RegistrationRequest, unknown>>, remoteAddress = nextAddress()) {
  return ctx.app.inject({ method: 'POST', url: '/api/registrations', payload: body, remoteAddress });
}

/** A registration by someone signed in: faculty's, and a student's own, are approved at once. */
function registerAs(cookie: string, body: Partial<Record<keyof RegistrationRequest, unknown>>) {
  return ctx.app.inject({ method: 'POST', url: '/api/registrations', payload: body, headers: { cookie }, remoteAddress: nextAddress() });
}

let pinCounter = 0;
/** A new PIN on the roster (registration takes roster PINs only). */
async function freshPin(): Promise<string> {
  pinCounter += 1;
  const pin = `22B81A${String(pinCounter).padStart(4, '0')}`;
  await putStudents(ctx.database.db, [{ pin, name: `Roster ${pin}`, className: 'CSE2' }]);
  return pin;
}

const student = (pin: string) => ({ name: 'Ananya Reddy', designation: 'CSE, 3rd year', pin });

describe('POST /api/registrations', () => {
  it('saves a profile with every field and returns it with 201', async () => {
    const pin = await freshPin();
    const links = {
      imageUrl: 'https://images.example.edu/ananya.jpg',
      imageAlt: 'Profile image of Ananya Reddy',
      linkedin: 'https://www.linkedin.com/in/ananya',
      github: 'https://github.com/ananya',
      leetcode: 'https://leetcode.com/ananya',
      resume: 'https://drive.example.com/resume.pdf',
      portfolio: 'http://ananya.dev',
    };
    const res = await register({ ...student(pin), ...links });
    expect(res.statusCode).toBe(201);
    const body: Profile = res.json();
    expect(body).toMatchObject({
      pin,
      name: 'Ananya Reddy',
      designation: 'CSE, 3rd year',
      ...links,
      email: null,
      phone: null,
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(body.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(Object.keys(body).sort()).toEqual(
      [
        'id', 'pin', 'name', 'designation', 'imageUrl', 'photoUrl', 'imageAlt', 'linkedin', 'github', 'leetcode',
        'resume', 'portfolio', 'email', 'phone', 'status', 'createdAt', 'updatedAt',
      ].sort(),
    );
  });

  it('trims the PIN and the texts, and stores empty optional fields as absent', async () => {
    const pin = await freshPin();
    const res = await register({
      name: '  Rahul Sharma ',
      designation: ' ECE ',
      pin: `  ${pin}  `,
      imageUrl: '',
      imageAlt: '',
      linkedin: '   ',
      github: '',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      pin,
      name: 'Rahul Sharma',
      designation: 'ECE',
      imageUrl: null,
      imageAlt: null,
      linkedin: null,
      github: null,
      leetcode: null,
    });
    const [row] = await ctx.database.db.select().from(profiles).where(eq(profiles.pin, pin));
    expect(row?.linkedin).toBeNull();
  });

  it('leaves the alt text empty when only the image is given (the form fills it in)', async () => {
    const res = await register({ ...student(await freshPin()), imageUrl: 'https://img.example.com/a.png' });
    expect(res.statusCode).toBe(201);
    expect(res.json().imageAlt).toBeNull();
  });

  it.each([
    ['name missing', { designation: 'CSE', pin: 'P1' }],
    ['designation missing', { name: 'A', pin: 'P1' }],
    ['PIN missing', { name: 'A', designation: 'CSE' }],
    ['name blank', { name: '', designation: 'CSE', pin: 'P1' }],
    ['name only spaces', { name: '   ', designation: 'CSE', pin: 'P1' }],
    ['designation only spaces', { name: 'A', designation: ' \t ', pin: 'P1' }],
    ['PIN only spaces', { name: 'A', designation: 'CSE', pin: '   ' }],
    ['name not text', { name: 42, designation: 'CSE', pin: 'P1' }],
    ['nothing at all', {}],
  ])('requires name, designation and PIN (%s)', async (_case, body) => {
    const res = await register(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(REQUIRED_FIELDS_MESSAGE);
  });

  it('refuses a PIN that is already registered, whatever the spaces around it', async () => {
    const pin = await freshPin();
    expect((await register(student(pin))).statusCode).toBe(201);
    const again = await register({ ...student(` ${pin} `), name: 'Someone Else' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: DUPLICATE_PIN_MESSAGE });
  });

  it('lets exactly one of two racing registrations for one PIN through', async () => {
    const pin = await freshPin();
    const results = await Promise.all([register(student(pin)), register({ ...student(pin), name: 'Twin' })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().message).toBe(DUPLICATE_PIN_MESSAGE);
    const rows = await ctx.database.db.select().from(profiles).where(eq(profiles.pin, pin));
    expect(rows).toHaveLength(1);
  });

  it.each([
    ['linkedin', 'javascript:alert(document.cookie)', 'LinkedIn URL'],
    ['github', 'JavaScript:alert(1)', 'GitHub URL'],
    ['imageUrl', 'data:image/svg+xml,<svg onload=alert(1)>', 'Profile Image URL'],
    ['resume', 'ftp://files.example.com/resume.pdf', 'Resume Link'],
    ['portfolio', 'www.example.com', 'Portfolio Link'],
    ['leetcode', 'not a link', 'LeetCode URL'],
  ])('refuses a %s that is not http(s): %s', async (field, value, label) => {
    const res = await register({ ...student(await freshPin()), [field]: value });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`${label} must be a link starting with http:// or https://`);
    expect(res.json().errors[0].path).toBe(`body.${field}`);
  });

  it('bounds the lengths of every field', async () => {
    const long = (n: number) => 'a'.repeat(n);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: long(201) }, 'Full Name has at most 200 characters'],
      [{ designation: long(201) }, 'Designation/Branch has at most 200 characters'],
      [{ imageAlt: long(301) }, 'Image Description has at most 300 characters'],
      [{ linkedin: `https://example.com/${long(2048)}` }, 'LinkedIn URL has at most 2048 characters'],
      [{ pin: long(33) }, 'A PIN has at most 32 characters'],
    ];
    for (const [change, message] of cases) {
      const res = await register({ ...student(await freshPin()), ...change });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const atLimit = await register({
      ...student(await freshPin()),
      name: long(200),
      imageAlt: long(300),
      github: `https://example.com/${long(2028)}`,
    });
    expect(atLimit.statusCode).toBe(201);
  });

  it('refuses a PIN with characters a PIN never has', async () => {
    const res = await register({ ...student('<b>1</b>') });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('A PIN holds only letters, digits, - and /');
  });

  it('is open to visitors who are not signed in, lets a whole lab behind one address through, then throttles it', async () => {
    const address = '10.9.9.9';
    // The default limit: 100 per address per 10 minutes, every answer counted.
    for (let i = 0; i < 100; i += 1) {
      expect((await register(student(await freshPin()), address)).statusCode).toBe(201);
    }
    const blocked = await register(student(await freshPin()), address);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ message: 'Too many requests. Please wait a moment and try again.' });
    expect((await register(student(await freshPin()), '10.9.9.10')).statusCode).toBe(201);
  });
});

describe('reading profiles', () => {
  it('lists profiles newest first for faculty', async () => {
    const first = (await registerAs(faculty, { ...student(await freshPin()), name: 'Older' })).json<Profile>();
    const second = (await registerAs(faculty, { ...student(await freshPin()), name: 'Newer' })).json<Profile>();
    const res = await ctx.app.inject({ method: 'GET', url: '/api/registrations', headers: { cookie: faculty } });
    expect(res.statusCode).toBe(200);
    const ids = res.json<Profile[]>().map((p) => p.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(ids.indexOf(second.id)).toBe(0);
  });

  it('shows a student only their own profile in the list', async () => {
    const pin = await freshPin();
    const cookie = await ctx.signIn('student', { pin });
    const before = await ctx.app.inject({ method: 'GET', url: '/api/registrations', headers: { cookie } });
    expect(before.json()).toEqual([]);
    await registerAs(cookie, { ...student(pin), name: 'Me Myself' });
    const after = await ctx.app.inject({ method: 'GET', url: '/api/registrations', headers: { cookie } });
    expect(after.json<Profile[]>().map((p) => p.name)).toEqual(['Me Myself']);
  });

  it('finds a profile by its PIN, whatever its case and spaces, and never by a prefix', async () => {
    const pin = await freshPin();
    await registerAs(faculty, student(pin));
    const found = await ctx.app.inject({ method: 'GET', url: `/api/registrations/by-pin/${pin}`, headers: { cookie: faculty } });
    expect(found.statusCode).toBe(200);
    expect(found.json().pin).toBe(pin);

    const prefix = await ctx.app.inject({
      method: 'GET',
      url: `/api/registrations/by-pin/${pin.slice(0, -1)}`,
      headers: { cookie: faculty },
    });
    expect(prefix.statusCode).toBe(404);
    expect(prefix.json()).toEqual({ message: 'No profile found for this PIN' });

    const lower = await ctx.app.inject({
      method: 'GET',
      url: `/api/registrations/by-pin/${encodeURIComponent(` ${pin.toLowerCase()} `)}`,
      headers: { cookie: faculty },
    });
    expect(lower.statusCode).toBe(200);
    expect(lower.json().pin).toBe(pin);
  });

  it('lets a student read their own profile by PIN and no one else\'s', async () => {
    const own = await freshPin();
    const other = await freshPin();
    await registerAs(faculty, student(own));
    await registerAs(faculty, student(other));
    const cookie = await ctx.signIn('student', { pin: own });
    const mine = await ctx.app.inject({ method: 'GET', url: `/api/registrations/by-pin/${own}`, headers: { cookie } });
    expect(mine.statusCode).toBe(200);
    const theirs = await ctx.app.inject({ method: 'GET', url: `/api/registrations/by-pin/${other}`, headers: { cookie } });
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json()).toEqual({ message: 'Students can only see their own attendance and profile' });
  });

  it('gives the PIN message for a blank PIN', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/registrations/by-pin/%20%20', headers: { cookie: faculty } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Please enter a PIN number');
  });

  it('needs a sign-in', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/registrations' })).statusCode).toBe(401);
    const byPin = await ctx.app.inject({ method: 'GET', url: '/api/registrations/by-pin/%20' });
    expect(byPin.statusCode).toBe(401);
    expect(byPin.json()).toEqual({ message: 'Please sign in' });
  });
});

describe('changing and removing profiles', () => {
  async function newProfile(extra: Record<string, unknown> = {}): Promise<Profile> {
    return (await register({ ...student(await freshPin()), ...extra })).json<Profile>();
  }
  const patch = (id: string, payload: Record<string, unknown>, cookie = faculty) =>
    ctx.app.inject({ method: 'PATCH', url: `/api/registrations/${id}`, payload, headers: { cookie } });
  const remove = (id: string, cookie = faculty) =>
    ctx.app.inject({ method: 'DELETE', url: `/api/registrations/${id}`, headers: { cookie } });

  it('changes only the fields sent, clears a link sent empty, and stamps updatedAt', async () => {
    const profile = await newProfile({ github: 'https://github.com/old', linkedin: 'https://linkedin.com/in/keep' });
    const res = await patch(profile.id, { designation: ' IT ', github: '' });
    expect(res.statusCode).toBe(200);
    const body: Profile = res.json();
    expect(body).toMatchObject({ designation: 'IT', github: null, linkedin: 'https://linkedin.com/in/keep', name: profile.name });
    expect(body.createdAt).toBe(profile.createdAt);
    expect(new Date(body.updatedAt).getTime()).toBeGreaterThan(new Date(profile.updatedAt).getTime());
  });

  it('applies the registration rules to changes', async () => {
    const profile = await newProfile();
    const blank = await patch(profile.id, { name: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe(REQUIRED_FIELDS_MESSAGE);
    const script = await patch(profile.id, { portfolio: 'javascript:alert(1)' });
    expect(script.statusCode).toBe(400);
    expect(script.json().message).toBe('Portfolio Link must be a link starting with http:// or https://');

    const other = await newProfile();
    const taken = await patch(profile.id, { pin: ` ${other.pin}` });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ message: DUPLICATE_PIN_MESSAGE });
  });

  it('removes a profile', async () => {
    const profile = await newProfile();
    const res = await remove(profile.id);
    expect(res.statusCode).toBe(204);
    const lookup = await ctx.app.inject({
      method: 'GET',
      url: `/api/registrations/by-pin/${profile.pin}`,
      headers: { cookie: faculty },
    });
    expect(lookup.statusCode).toBe(404);
    expect((await remove(profile.id)).statusCode).toBe(404);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '1']) {
      const changed = await patch(id, { name: 'X' });
      expect(changed.statusCode).toBe(404);
      expect(changed.json()).toEqual({ message: 'Profile not found' });
      expect((await remove(id)).statusCode).toBe(404);
    }
  });

  it("lets staff change any profile, a student only their own, and nobody signed out", async () => {
    const profile = await newProfile();
    const other = await ctx.signIn('student', { pin: await freshPin() });
    expect((await patch(profile.id, { name: 'Hacked' }, other)).statusCode).toBe(403);
    expect((await remove(profile.id, other)).statusCode).toBe(403);
    const signedOut = await ctx.app.inject({ method: 'DELETE', url: `/api/registrations/${profile.id}` });
    expect(signedOut.statusCode).toBe(401);

    const owner = await ctx.signIn('student', { pin: profile.pin });
    const edited = await patch(profile.id, { designation: 'ECE, 2nd year', github: 'https://github.com/me' }, owner);
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ designation: 'ECE, 2nd year', github: 'https://github.com/me' });
    const moved = await patch(profile.id, { pin: await freshPin() }, owner);
    expect(moved.statusCode).toBe(403);
    expect(moved.json()).toEqual({ message: 'You can register only your own PIN Number' });
    expect((await remove(profile.id, owner)).statusCode).toBe(204);
  });
});

describe('identities no stranger can claim (roster PINs, review of anonymous profiles)', () => {
  const list = (cookie: string, query = '') =>
    ctx.app.inject({ method: 'GET', url: `/api/registrations${query}`, headers: { cookie } });
  const record = (pin: string, cookie: string) =>
    ctx.app.inject({ method: 'GET', url: `/api/students/${encodeURIComponent(pin)}`, headers: { cookie } });

  it('refuses a PIN that is not on the roster', async () => {
    const res = await register(student('99Z99Z9999'));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'This PIN Number is not on the roster' });
  });

  it('stores lower-case and padded PINs as the roster PIN, and refuses them as duplicates', async () => {
    const pin = await freshPin();
    const created = await register(student(`  ${pin.toLowerCase()} `));
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ pin, status: 'pending' });
    const again = await register(student(pin.toLowerCase()));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'User with this PIN already exists' });
  });

  it('keeps a pending profile out of sight: not listed, not on the record, not in the PDF, not to the student', async () => {
    const pin = await freshPin();
    const pending = (await register({ ...student(pin), name: 'A Stranger', linkedin: 'https://evil.example/me' })).json<Profile>();
    expect(pending.status).toBe('pending');

    expect((await list(faculty)).json<Profile[]>().map((p) => p.id)).not.toContain(pending.id);
    expect((await list(faculty, '?status=pending')).json<Profile[]>().map((p) => p.id)).toContain(pending.id);
    const rec = await record(pin, faculty);
    expect(rec.statusCode).toBe(200);
    expect(rec.json().profile).toBeNull();
    expect(rec.json().name).toBe(`Roster ${pin}`);
    const byPin = await ctx.app.inject({ method: 'GET', url: `/api/registrations/by-pin/${pin}`, headers: { cookie: faculty } });
    expect(byPin.statusCode).toBe(404);
    const pdf = await ctx.app.inject({ method: 'GET', url: `/api/students/${pin}/report.pdf`, headers: { cookie: faculty } });
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain(`Roster ${pin}`);
    expect(text).not.toContain('evil.example');
    expect(text).not.toContain('A Stranger');

    const studentCookie = await ctx.signIn('student', { pin });
    expect((await list(studentCookie)).json()).toEqual([]);
    expect((await list(studentCookie, '?status=pending')).json()).toEqual([]);
    expect((await record(pin, studentCookie)).json().profile).toBeNull();
  });

  it("lets the real student replace a stranger's pending profile, approved at once", async () => {
    const pin = await freshPin();
    const stranger = (await register({ ...student(pin), name: 'A Stranger' })).json<Profile>();
    const studentCookie = await ctx.signIn('student', { pin });
    const own = await registerAs(studentCookie, { ...student(pin), name: 'The Real One' });
    expect(own.statusCode).toBe(201);
    expect(own.json()).toMatchObject({ pin, status: 'approved', name: 'The Real One' });
    const ids = (await list(faculty, '?status=all')).json<Profile[]>().map((p) => p.id);
    expect(ids).not.toContain(stranger.id);
    expect((await record(pin, studentCookie)).json().profile).toMatchObject({ name: 'The Real One' });
    // An approved profile is not replaced.
    expect((await registerAs(studentCookie, student(pin))).statusCode).toBe(409);
  });

  it('refuses a student registering another PIN', async () => {
    const studentCookie = await ctx.signIn('student', { pin: await freshPin() });
    const res = await registerAs(studentCookie, student(await freshPin()));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'You can register only your own PIN Number' });
  });

  it('lets faculty approve a pending profile, which then shows, or reject it', async () => {
    const approvePin = await freshPin();
    const toApprove = (await register(student(approvePin))).json<Profile>();
    const approve = (id: string, cookie = faculty) =>
      ctx.app.inject({ method: 'POST', url: `/api/registrations/${id}/approve`, headers: { cookie } });

    const studentCookie = await ctx.signIn('student', { pin: approvePin });
    expect((await approve(toApprove.id, studentCookie)).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'POST', url: `/api/registrations/${toApprove.id}/approve` })).statusCode).toBe(401);
    const approved = await approve(toApprove.id);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().status).toBe('approved');
    expect((await record(approvePin, faculty)).json().profile).toMatchObject({ id: toApprove.id });
    expect((await list(faculty)).json<Profile[]>().map((p) => p.id)).toContain(toApprove.id);

    const toReject = (await register(student(await freshPin()))).json<Profile>();
    const rejected = await ctx.app.inject({ method: 'DELETE', url: `/api/registrations/${toReject.id}`, headers: { cookie: faculty } });
    expect(rejected.statusCode).toBe(204);
    expect((await list(faculty, '?status=all')).json<Profile[]>().map((p) => p.id)).not.toContain(toReject.id);
    expect((await approve('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('approves what faculty register themselves', async () => {
    const res = await registerAs(faculty, student(await freshPin()));
    expect(res.json().status).toBe('approved');
  });
});

describe('API description', () => {
  it('documents the registration and student routes', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/registrations',
        '/api/registrations/by-pin/{pin}',
        '/api/registrations/{id}',
        '/api/students/{pin}',
        '/api/students/{pin}/report.pdf',
      ]),
    );
  });
});
