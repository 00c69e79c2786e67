import { eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INVALID_TOTP_MESSAGE,
  PENDING_SIGN_IN_MESSAGE,
  TOTP_PASSWORD_MESSAGE,
  TOTP_SETUP_REQUIRED_MESSAGE,
  TOTP_STAFF_REQUIRED_MESSAGE,
} from '../../../shared/schemas/auth';
import { auditLog, totpCredentials, users } from '../../db/schema';
import { createTestContext, TEST_PASSWORD, type TestContext } from '../../test/test-app';
import { addUser } from '../accounts/service';
import { TOO_MANY_ATTEMPTS } from './service';
import { base32Encode } from './totp';

/** Codes as an authenticator app computes them, by an implementation other than the portal's. */
function app(secret: string) {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
}
const codeAt = (secret: string, offsetSteps: number) => app(secret).generate({ timestamp: Date.now() + offsetSteps * 30_000 });

/** Waits until the current 30-second step has at least 3 seconds left, so a step boundary cannot fall inside a check. */
async function awayFromStepEdge(): Promise<void> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 3_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

let ctx: TestContext;
let counter = 0;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

async function account(role: 'faculty' | 'admin' = 'faculty') {
  counter += 1;
  const email = `totp${counter}@test.university.edu`;
  await addUser(ctx.database.db, { email, name: `TOTP ${counter}`, role, password: TEST_PASSWORD });
  return email;
}

function cookieOf(res: { cookies: { name: string; value: string }[] }, name: string): string | undefined {
  return res.cookies.find((c) => c.name === name && c.value !== '')?.value;
}

function passwordStep(email: string, address = '10.20.0.1') {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: TEST_PASSWORD, role: 'faculty', remember: false },
    remoteAddress: address,
  });
}

function secondStep(pending: string | undefined, body: Record<string, unknown>, address = '10.20.0.1') {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/auth/totp/verify',
    payload: body,
    headers: pending ? { cookie: `portal_pending=${pending}` } : {},
    remoteAddress: address,
  });
}

/** An account with TOTP on and the secret known to the test, as the app on the phone holds it. */
async function accountWithTotp(): Promise<{ email: string; secret: string }> {
  const email = await account();
  const secret = base32Encode(crypto.getRandomValues(new Uint8Array(20)));
  const [user] = await ctx.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  await ctx.database.db.insert(totpCredentials).values({ userId: user!.id, secret, enabledAt: new Date() });
  return { email, secret };
}

async function pendingFor(email: string): Promise<string> {
  const res = await passwordStep(email);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ totpRequired: true });
  // No session until the second step.
  expect(cookieOf(res, 'portal_session')).toBeUndefined();
  return cookieOf(res, 'portal_pending')!;
}

describe('setting up TOTP', () => {
  it('gives a 160-bit secret and an otpauth address, is on only after a code from the app, and answers ten recovery codes', async () => {
    const email = await account();
    const session = `portal_session=${cookieOf(await passwordStep(email), 'portal_session')}`;
    const setup = await ctx.app.inject({ method: 'POST', url: '/api/auth/totp/setup', payload: {}, headers: { cookie: session } });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl } = setup.json() as { secret: string; otpauthUrl: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const parsed = OTPAuth.URI.parse(otpauthUrl) as OTPAuth.TOTP;
    expect(parsed.secret.base32).toBe(secret);
    expect(parsed.label).toBe(email);
    expect(parsed.issuer).toBe('University Portal');

    // Not on yet: the password alone still signs in.
    expect((await passwordStep(email)).json()).toHaveProperty('user');
    const wrong = await ctx.app.inject({ method: 'POST', url: '/api/auth/totp/enable', payload: { code: '000000' }, headers: { cookie: session } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(INVALID_TOTP_MESSAGE);

    await awayFromStepEdge();
    const enable = await ctx.app.inject({ method: 'POST', url: '/api/auth/totp/enable', payload: { code: codeAt(secret, 0) }, headers: { cookie: session } });
    expect(enable.statusCode).toBe(200);
    const { recoveryCodes } = enable.json() as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const status = await ctx.app.inject({ method: 'GET', url: '/api/auth/totp', headers: { cookie: session } });
    expect(status.json()).toEqual({ enabled: true, recoveryCodesLeft: 10, required: false });

    // From now on the password is only the first step; the code of the next step completes it.
    const pending = await pendingFor(email);
    const signedIn = await secondStep(pending, { code: codeAt(secret, 1) });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().user.email).toBe(email);
    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: `portal_session=${cookieOf(signedIn, 'portal_session')}` } });
    expect(me.json().user.email).toBe(email);

    // Setting up again or turning it off needs the current password.
    const again = await ctx.app.inject({ method: 'POST', url: '/api/auth/totp/setup', payload: { password: 'not it' }, headers: { cookie: session } });
    expect(again.statusCode).toBe(403);
    expect(again.json().message).toBe(TOTP_PASSWORD_MESSAGE);
    const off = await ctx.app.inject({ method: 'POST', url: '/api/auth/totp/disable', payload: { password: TEST_PASSWORD }, headers: { cookie: session } });
    expect(off.statusCode).toBe(204);
    expect((await passwordStep(email)).json()).toHaveProperty('user');
  });
});

describe('the second step', () => {
  it('takes the current step and one either side, each once, and never an expired or an older one', async () => {
    const { email, secret } = await accountWithTotp();
    await awayFromStepEdge();
    const expired = codeAt(secret, -2);
    const previous = codeAt(secret, -1);
    const current = codeAt(secret, 0);
    const next = codeAt(secret, 1);

    let pending = await pendingFor(email);
    expect((await secondStep(pending, { code: expired })).json().message).toBe(INVALID_TOTP_MESSAGE);
    expect((await secondStep(pending, { code: previous })).statusCode).toBe(200);

    // The pending sign-in is used up.
    expect((await secondStep(pending, { code: current })).json().message).toBe(PENDING_SIGN_IN_MESSAGE);

    pending = await pendingFor(email);
    // The previous step's code has been used; so has every step before the last one used.
    expect((await secondStep(pending, { code: previous })).statusCode).toBe(401);
    expect((await secondStep(pending, { code: current })).statusCode).toBe(200);
    pending = await pendingFor(email);
    expect((await secondStep(pending, { code: current })).statusCode).toBe(401);
    expect((await secondStep(pending, { code: next })).statusCode).toBe(200);
  });

  it('takes a recovery code once, however it is typed', async () => {
    const email = await account();
    const session = `portal_session=${cookieOf(await passwordStep(email), 'portal_session')}`;
    const { secret } = (await ctx.app.inject({ method: 'POST', url: '/api/auth/totp/setup', payload: {}, headers: { cookie: session } })).json();
    await awayFromStepEdge();
    const { recoveryCodes } = (
      await ctx.app.inject({ method: 'POST', url: '/api/auth/totp/enable', payload: { code: codeAt(secret, 0) }, headers: { cookie: session } })
    ).json() as { recoveryCodes: string[] };

    const typed = ` ${recoveryCodes[3]!.toLowerCase().replace('-', ' ')} `;
    expect((await secondStep(await pendingFor(email), { recoveryCode: typed })).statusCode).toBe(200);
    const reused = await secondStep(await pendingFor(email), { recoveryCode: recoveryCodes[3] });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().message).toBe(INVALID_TOTP_MESSAGE);
    const status = await ctx.app.inject({ method: 'GET', url: '/api/auth/totp', headers: { cookie: session } });
    expect(status.json().recoveryCodesLeft).toBe(9);
  });

  it('counts wrong codes toward the sign-in limits, and needs the cookie of the browser that gave the password', async () => {
    const { email, secret } = await accountWithTotp();
    expect((await secondStep(undefined, { code: codeAt(secret, 0) })).json().message).toBe(PENDING_SIGN_IN_MESSAGE);
    expect((await secondStep('forged.cookie', { code: codeAt(secret, 0) })).statusCode).toBe(401);

    const pending = await pendingFor(email);
    for (let i = 0; i < 5; i += 1) expect((await secondStep(pending, { code: '123456' }, '10.20.9.9')).statusCode).toBe(401);
    const locked = await secondStep(pending, { code: codeAt(secret, 0) }, '10.20.9.9');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toBe(TOO_MANY_ATTEMPTS);
  });

  it('refuses a body with neither or both kinds of code', async () => {
    const { email } = await accountWithTotp();
    const pending = await pendingFor(email);
    expect((await secondStep(pending, {})).statusCode).toBe(400);
    expect((await secondStep(pending, { code: '123456', recoveryCode: 'ABCDE-FGHIJ' })).statusCode).toBe(400);
    expect((await secondStep(pending, { code: '12345' })).statusCode).toBe(400);
  });
});

describe('administration', () => {
  it('lets an admin reset an account’s TOTP, with an audit entry; faculty may not', async () => {
    const { email } = await accountWithTotp();
    const [target] = await ctx.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const faculty = await ctx.signIn('faculty');
    const refused = await ctx.app.inject({ method: 'POST', url: `/api/admin/users/${target!.id}/reset-totp`, headers: { cookie: faculty } });
    expect(refused.statusCode).toBe(403);

    const admin = await ctx.signIn('admin');
    const reset = await ctx.app.inject({ method: 'POST', url: `/api/admin/users/${target!.id}/reset-totp`, headers: { cookie: admin } });
    expect(reset.statusCode).toBe(204);
    expect((await passwordStep(email)).json()).toHaveProperty('user');
    const entries = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'account.reset-totp'));
    expect(entries.map((e) => e.target)).toContain(email);
    const missing = await ctx.app.inject({ method: 'POST', url: '/api/admin/users/not-an-id/reset-totp', headers: { cookie: admin } });
    expect(missing.statusCode).toBe(404);
  });
});

describe('PORTAL_REQUIRE_TOTP=staff', () => {
  it('holds a staff sign-in to the TOTP setup until it is on, and keeps it from being turned off', async () => {
    const strict = await createTestContext({ requireTotp: 'staff' });
    try {
      const email = 'strict-faculty@test.university.edu';
      await addUser(strict.database.db, { email, name: 'Strict', role: 'faculty', password: TEST_PASSWORD });
      const login = await strict.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: TEST_PASSWORD, role: 'faculty' } });
      expect(login.json()).toMatchObject({ user: { email }, totpSetupRequired: true });
      const session = `portal_session=${cookieOf(login, 'portal_session')}`;

      const held = await strict.app.inject({ method: 'GET', url: '/api/classes', headers: { cookie: session } });
      expect(held.statusCode).toBe(403);
      expect(held.json().message).toBe(TOTP_SETUP_REQUIRED_MESSAGE);
      const me = await strict.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: session } });
      expect(me.json()).toMatchObject({ user: { email }, totpSetupRequired: true });
      expect((await strict.app.inject({ method: 'GET', url: '/api/auth/totp', headers: { cookie: session } })).json()).toMatchObject({ required: true });

      const { secret } = (await strict.app.inject({ method: 'POST', url: '/api/auth/totp/setup', payload: {}, headers: { cookie: session } })).json();
      await awayFromStepEdge();
      const enable = await strict.app.inject({ method: 'POST', url: '/api/auth/totp/enable', payload: { code: codeAt(secret, 0) }, headers: { cookie: session } });
      expect(enable.statusCode).toBe(200);
      expect((await strict.app.inject({ method: 'GET', url: '/api/classes', headers: { cookie: session } })).statusCode).toBe(200);

      const off = await strict.app.inject({ method: 'POST', url: '/api/auth/totp/disable', payload: { password: TEST_PASSWORD }, headers: { cookie: session } });
      expect(off.statusCode).toBe(403);
      expect(off.json().message).toBe(TOTP_STAFF_REQUIRED_MESSAGE);
    } finally {
      await strict.close();
    }
  });
});
