import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { totpCredentials, users } from '../../db/schema';
import { TEST_PASSWORD, TEST_APP_CONFIG } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-db';
import { addUser } from '../accounts/service';
import { base32Encode } from './totp';

// Three keys of PORTAL_SECRET, as an operator rotates them: OLD signs, then NEW is put first, then OLD leaves.
const OLD = 'the old signing key, thirty-two characters or more';
const NEW = 'the new signing key, also thirty-two characters long';

let database: TestDatabase;
const apps: FastifyInstance[] = [];

/** A server process on the shared database with PORTAL_SECRET set to these keys. */
async function portalWith(keys: string[]): Promise<FastifyInstance> {
  const app = await buildApp({
    database,
    config: { ...TEST_APP_CONFIG, secret: keys },
  });
  apps.push(app);
  return app;
}

beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(async () => {
  for (const app of apps) await app.close();
  await database.destroy();
});

function cookieOf(res: { cookies: { name: string; value: string }[] }, name: string): string | undefined {
  return res.cookies.find((c) => c.name === name && c.value !== '')?.value;
}

/** The value a signed cookie carries, without its signature. */
const valueOf = (signed: string) => signed.slice(0, signed.lastIndexOf('.'));

function signIn(app: FastifyInstance, email: string, cookie?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: TEST_PASSWORD, role: 'faculty', remember: false },
    headers: cookie ? { cookie } : {},
  });
}

describe('PORTAL_SECRET with several keys', () => {
  let before: FastifyInstance;
  let rotated: FastifyInstance;
  let after: FastifyInstance;

  beforeAll(async () => {
    before = await portalWith([OLD]);
    rotated = await portalWith([NEW, OLD]);
    after = await portalWith([NEW]);
  });

  it('verifies a pending two-step sign-in signed with the old key once the new key is first, and not once the old key is gone', async () => {
    const email = 'rotation.totp@test.university.edu';
    await addUser(database.db, { email, name: 'Rotation', role: 'faculty', password: TEST_PASSWORD });
    const secret = base32Encode(crypto.getRandomValues(new Uint8Array(20)));
    const [user] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    await database.db.insert(totpCredentials).values({ userId: user!.id, secret, enabledAt: new Date() });
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });

    const pendingUnder = async (app: FastifyInstance) => {
      const res = await signIn(app, email);
      expect(res.json()).toEqual({ totpRequired: true });
      return cookieOf(res, 'portal_pending')!;
    };
    // Recovery codes would do as well; a code of each step works once, so each try takes a step of its own.
    const verify = (app: FastifyInstance, pending: string, steps: number) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/totp/verify',
        payload: { code: totp.generate({ timestamp: Date.now() + steps * 30_000 }) },
        headers: { cookie: `portal_pending=${pending}` },
      });

    const stillGood = await verify(rotated, await pendingUnder(before), -1);
    expect(stillGood.statusCode, stillGood.body).toBe(200);
    expect(stillGood.json().user.email).toBe(email);

    const refused = await verify(after, await pendingUnder(before), 0);
    expect(refused.statusCode).toBe(401);
    // The same step again, on a portal that still lists the old key: the refusal used nothing up.
    expect((await verify(rotated, await pendingUnder(before), 0)).statusCode).toBe(200);
  });

  it("keeps a browser's device cookie signed with the old key, signs it again with the new one, and forgets it without the old key", async () => {
    const email = 'rotation.device@test.university.edu';
    await addUser(database.db, { email, name: 'Device', role: 'faculty', password: TEST_PASSWORD });
    const first = await signIn(before, email);
    expect(first.statusCode).toBe(200);
    const oldSigned = cookieOf(first, 'portal_device')!;
    const device = valueOf(oldSigned);

    // Without the old key the browser is a stranger: it gets a new device of its own.
    const stranger = await signIn(after, email, `portal_device=${oldSigned}`);
    expect(stranger.statusCode).toBe(200);
    expect(valueOf(cookieOf(stranger, 'portal_device')!)).not.toBe(device);

    // With the new key first the browser is known, and its cookie comes back signed with the new key.
    const known = await signIn(rotated, email, `portal_device=${oldSigned}`);
    expect(known.statusCode).toBe(200);
    const newSigned = cookieOf(known, 'portal_device')!;
    expect(valueOf(newSigned)).toBe(device);
    expect(newSigned).not.toBe(oldSigned);

    // Which the portal without the old key knows: no new device.
    const later = await signIn(after, email, `portal_device=${newSigned}`);
    expect(later.statusCode).toBe(200);
    expect(cookieOf(later, 'portal_device')).toBeUndefined();
    // And a cookie signed with the current key is not signed again.
    expect(cookieOf(await signIn(rotated, email, `portal_device=${newSigned}`), 'portal_device')).toBeUndefined();
  });
});
