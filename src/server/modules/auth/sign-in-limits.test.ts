import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedSecret } from '../../db/secrets';
import { createTestContext, TEST_PASSWORD, type TestContext } from '../../test/test-app';
import { addUser, disableUser, setPassword } from '../accounts/service';
import { afterPasswordChange } from './service';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

interface Attempt {
  email: string;
  password: string;
  address?: string;
  cookies?: Record<string, string>;
}

function attempt({ email, password, address = '10.20.0.1', cookies = {} }: Attempt) {
  const cookie = Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
  return ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password, role: 'faculty', remember: false },
    remoteAddress: address,
    headers: cookie ? { cookie } : {},
  });
}

async function account(email: string): Promise<void> {
  await addUser(ctx.database.db, { email, name: 'Dr. Limit', role: 'faculty', password: TEST_PASSWORD });
}

describe('sign-in limits under attack', () => {
  it('answers at most 5 of 40 simultaneous wrong passwords for one e-mail with 401, the rest with 429', async () => {
    await account('burst@uni.edu');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => attempt({ email: 'burst@uni.edu', password: `wrong-${i}`, address: `10.21.0.${i + 1}` })),
    );
    const statuses = answers.map((a) => a.statusCode);
    // Exactly the limit's worth get to the password check; all the others are refused before it.
    expect(statuses.filter((s) => s === 401).length).toBe(5);
    expect(statuses.filter((s) => s === 401).length + statuses.filter((s) => s === 429).length).toBe(40);
  }, 120_000);

  it('lets the owner in from a browser that signed in before, after a stranger used up the e-mail failures', async () => {
    await account('owner@uni.edu');
    const first = await attempt({ email: 'owner@uni.edu', password: TEST_PASSWORD, address: '10.22.0.1' });
    expect(first.statusCode).toBe(200);
    const device = first.cookies.find((c) => c.name === 'portal_device');
    expect(device?.httpOnly).toBe(true);
    expect(new Date(device!.expires!).getTime() - Date.now()).toBeGreaterThan(360 * 86_400_000);

    // A stranger, from the owner's own lab address, exhausts the e-mail's limit.
    for (let i = 0; i < 6; i += 1) await attempt({ email: 'owner@uni.edu', password: `guess-${i}`, address: '10.22.0.1' });
    const locked = await attempt({ email: 'owner@uni.edu', password: TEST_PASSWORD, address: '10.22.0.1' });
    expect(locked.statusCode).toBe(429);

    const owner = await attempt({
      email: 'owner@uni.edu',
      password: TEST_PASSWORD,
      address: '10.22.0.1',
      cookies: { portal_device: device!.value },
    });
    expect(owner.statusCode).toBe(200);
    // The device is remembered: no new device cookie is set.
    expect(owner.cookies.find((c) => c.name === 'portal_device')).toBeUndefined();
  });

  it('ignores a device cookie whose signature is wrong', async () => {
    await account('forged@uni.edu');
    const ok = await attempt({ email: 'forged@uni.edu', password: TEST_PASSWORD, address: '10.27.0.1' });
    const device = ok.cookies.find((c) => c.name === 'portal_device')!.value;
    const forged = `${device.slice(0, device.lastIndexOf('.'))}.AAAA`;
    for (let i = 0; i < 5; i += 1) await attempt({ email: 'forged@uni.edu', password: `f-${i}`, address: '10.27.0.2' });
    const res = await attempt({ email: 'forged@uni.edu', password: TEST_PASSWORD, cookies: { portal_device: forged } });
    expect(res.statusCode).toBe(429);
  });

  it('signs cookies with one key kept in the database, the same for every process', async () => {
    const first = await sharedSecret(ctx.database.db, 'test-key');
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(await sharedSecret(ctx.database.db, 'test-key')).toBe(first);
    expect(await sharedSecret(ctx.database.db, 'test-key', 'x'.repeat(40))).toBe('x'.repeat(40));
  });

  it('counts a device cookie only for its own account', async () => {
    await account('alice@uni.edu');
    await account('bob@uni.edu');
    const alice = await attempt({ email: 'alice@uni.edu', password: TEST_PASSWORD, address: '10.23.0.1' });
    const device = alice.cookies.find((c) => c.name === 'portal_device')!.value;
    for (let i = 0; i < 5; i += 1) {
      expect((await attempt({ email: 'bob@uni.edu', password: `x-${i}`, cookies: { portal_device: device } })).statusCode).toBe(401);
    }
    expect((await attempt({ email: 'bob@uni.edu', password: TEST_PASSWORD, cookies: { portal_device: device } })).statusCode).toBe(429);
  });

  it('limits a device on its own, so that it cannot be used to guess forever', async () => {
    await account('guarded@uni.edu');
    const ok = await attempt({ email: 'guarded@uni.edu', password: TEST_PASSWORD, address: '10.24.0.1' });
    const device = ok.cookies.find((c) => c.name === 'portal_device')!.value;
    for (let i = 0; i < 10; i += 1) {
      expect((await attempt({ email: 'guarded@uni.edu', password: `y-${i}`, cookies: { portal_device: device } })).statusCode).toBe(401);
    }
    const blocked = await attempt({ email: 'guarded@uni.edu', password: TEST_PASSWORD, cookies: { portal_device: device } });
    expect(blocked.statusCode).toBe(429);
  });

  it('a password change cancels the device cookies and ends the other sign-in sessions', async () => {
    await account('reset@uni.edu');
    const signedIn = await attempt({ email: 'reset@uni.edu', password: TEST_PASSWORD, address: '10.25.0.1' });
    const device = signedIn.cookies.find((c) => c.name === 'portal_device')!.value;
    const session = signedIn.cookies.find((c) => c.name === 'portal_session')!.value;

    const user = await setPassword(ctx.database.db, 'reset@uni.edu', 'a new and unusual passphrase');
    await afterPasswordChange(ctx.database.db, user.id);

    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: `portal_session=${session}` } });
    expect(me.json()).toEqual({ user: null });
    for (let i = 0; i < 5; i += 1) await attempt({ email: 'reset@uni.edu', password: `z-${i}`, address: '10.25.0.2' });
    const withOldDevice = await attempt({
      email: 'reset@uni.edu',
      password: 'a new and unusual passphrase',
      cookies: { portal_device: device },
    });
    expect(withOldDevice.statusCode).toBe(429);
  });

  it('lets a lab of students behind one address make their typos: a sign-in that succeeds is not counted', async () => {
    for (let i = 0; i < 60; i += 1) await account(`lab${i}@uni.edu`);
    // 60 typos and 60 sign-ins from the lab's one address: 120 attempts, 60 of them failures,
    // under the address limit of 100 only because the successes are taken back.
    for (let i = 0; i < 60; i += 1) {
      expect((await attempt({ email: `lab${i}@uni.edu`, password: 'typo', address: '10.26.0.1' })).statusCode).toBe(401);
      expect((await attempt({ email: `lab${i}@uni.edu`, password: TEST_PASSWORD, address: '10.26.0.1' })).statusCode).toBe(200);
    }
  }, 180_000);

  it('does not count the right password on the wrong tab, and counts a disabled account like any failure', async () => {
    await account('tabs@uni.edu');
    const wrongTab = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'tabs@uni.edu', password: TEST_PASSWORD, role: 'student' },
        remoteAddress: '10.28.0.1',
      });
    for (let i = 0; i < 8; i += 1) expect((await wrongTab()).statusCode).toBe(403);
    expect((await attempt({ email: 'tabs@uni.edu', password: TEST_PASSWORD, address: '10.28.0.1' })).statusCode).toBe(200);

    await account('gone@uni.edu');
    await disableUser(ctx.database.db, 'gone@uni.edu');
    for (let i = 0; i < 5; i += 1) {
      expect((await attempt({ email: 'gone@uni.edu', password: TEST_PASSWORD, address: '10.28.0.2' })).statusCode).toBe(401);
    }
    expect((await attempt({ email: 'gone@uni.edu', password: TEST_PASSWORD, address: '10.28.0.2' })).statusCode).toBe(429);
  });
});

describe('passwords', () => {
  it('refuses common passwords wherever one is set', async () => {
    for (const password of ['password1234', 'qwerty123456', '1234567890']) {
      await expect(
        addUser(ctx.database.db, { email: `weak-${password}@uni.edu`, name: 'Weak', role: 'faculty', password }),
      ).rejects.toThrow('Choose a less common password');
    }
    await account('strong@uni.edu');
    await expect(setPassword(ctx.database.db, 'strong@uni.edu', 'qwerty123456')).rejects.toThrow('Choose a less common password');
  });
});
