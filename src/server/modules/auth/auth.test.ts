import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInSessions, users } from '../../db/schema';
import { API_SECURITY_HEADERS } from '../../plugins/security-headers';
import { createTestContext, TEST_PASSWORD, type TestContext } from '../../test/test-app';
import { addUser, disableUser } from '../accounts/service';
import { hashToken } from './service';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  await addUser(ctx.database.db, { email: 'Prof.Rao@Uni.edu', name: 'Prof Rao', role: 'faculty', password: TEST_PASSWORD });
});
afterAll(async () => ctx.close());

function login(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: body, headers });
}

describe('POST /api/auth/login', () => {
  it('signs in with a browser-session cookie that is HttpOnly and SameSite=Lax, stored only as a hash', async () => {
    const res = await login({ email: 'prof.rao@uni.edu', password: TEST_PASSWORD, role: 'faculty', remember: false });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ email: 'Prof.Rao@Uni.edu', name: 'Prof Rao', role: 'faculty' });
    const cookie = res.cookies.find((c) => c.name === 'portal_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.expires).toBeUndefined();

    const [row] = await ctx.database.db.select().from(signInSessions).where(eq(signInSessions.id, hashToken(cookie.value)));
    expect(row).toBeDefined();
    expect(row!.persistent).toBe(false);
    const hours = (row!.expiresAt.getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
    const byToken = await ctx.database.db.select().from(signInSessions).where(eq(signInSessions.id, cookie.value));
    expect(byToken).toHaveLength(0);

    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: `portal_session=${cookie.value}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.role).toBe('faculty');
  });

  it('keeps a Remember me session for 30 days', async () => {
    const res = await login({ email: 'prof.rao@uni.edu', password: TEST_PASSWORD, role: 'faculty', remember: true });
    const cookie = res.cookies.find((c) => c.name === 'portal_session')!;
    const days = (new Date(cookie.expires!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it('answers a wrong password and an unknown email the same way', async () => {
    const wrong = await login({ email: 'prof.rao@uni.edu', password: 'nope', role: 'faculty' });
    const unknown = await login({ email: 'nobody@uni.edu', password: 'nope', role: 'faculty' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Invalid credentials' });
    expect(unknown.json()).toEqual({ message: 'Invalid credentials' });
  });

  it('refuses the wrong tab with a clear message', async () => {
    const res = await login({ email: 'prof.rao@uni.edu', password: TEST_PASSWORD, role: 'student' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('This is a faculty account. Please use the Faculty tab to sign in.');
  });

  it('refuses a disabled account and ends its sessions', async () => {
    const cookie = await ctx.signIn('faculty', { email: 'leaving@uni.edu' });
    await disableUser(ctx.database.db, 'leaving@uni.edu');
    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(me.json()).toEqual({ user: null });
    const guarded = await ctx.app.inject({ method: 'GET', url: '/api/classes', headers: { cookie } });
    expect(guarded.statusCode).toBe(401);
    const res = await login({ email: 'leaving@uni.edu', password: TEST_PASSWORD, role: 'faculty' });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Invalid credentials');
  });

  it('throttles repeated failures for one email', async () => {
    await addUser(ctx.database.db, { email: 'target@uni.edu', name: 'Target', role: 'faculty', password: TEST_PASSWORD });
    for (let i = 0; i < 5; i += 1) {
      expect((await login({ email: 'target@uni.edu', password: `guess-${i}`, role: 'faculty' })).statusCode).toBe(401);
    }
    const blocked = await login({ email: 'target@uni.edu', password: TEST_PASSWORD, role: 'faculty' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many failed sign-in attempts/);
  });

  it('gives the specification wording for invalid fields', async () => {
    const res = await login({ email: 'not-an-email', password: '', role: 'faculty' });
    expect(res.statusCode).toBe(400);
    const messages = (res.json().errors as { message: string }[]).map((e) => e.message);
    expect(messages).toContain('Please enter a valid email address');
    expect(messages).toContain('Password is required');
  });

  it('refuses a sign-in posted from another site', async () => {
    const res = await login(
      { email: 'prof.rao@uni.edu', password: TEST_PASSWORD, role: 'faculty' },
      { origin: 'https://evil.example' },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Requests from other sites are not accepted');
  });
});

describe('sessions', () => {
  it('logout deletes the session and clears the cookie', async () => {
    const cookie = await ctx.signIn('faculty');
    const out = await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(out.statusCode).toBe(204);
    expect(out.cookies.find((c) => c.name === 'portal_session')?.value).toBe('');
    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ user: null });
  });

  it('an expired session is signed out', async () => {
    const cookie = await ctx.signIn('student');
    const token = cookie.split('=')[1]!;
    await ctx.database.db.update(signInSessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(signInSessions.id, hashToken(token)));
    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ user: null });
    const guarded = await ctx.app.inject({ method: 'GET', url: `/api/students/${encodeURIComponent('X1')}`, headers: { cookie } });
    expect(guarded.statusCode).toBe(401);
    expect(guarded.json()).toEqual({ message: 'Please sign in' });
  });

  it('a student sees their own PIN in /me', async () => {
    const cookie = await ctx.signIn('student', { pin: 'PIN-ME-1' });
    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(me.json().user).toMatchObject({ role: 'student', pin: 'PIN-ME-1' });
  });

  it('keeps the language an account chooses, and its other sign-ins see it at once', async () => {
    const email = 'lang.rao@uni.edu';
    await addUser(ctx.database.db, { email, name: 'Lang Rao', role: 'faculty', password: TEST_PASSWORD });
    const cookieOf = async () => {
      const res = await login({ email, password: TEST_PASSWORD, role: 'faculty', remember: false });
      const cookie = res.cookies.find((c) => c.name === 'portal_session')!;
      return `portal_session=${cookie.value}`;
    };
    const here = await cookieOf();
    const elsewhere = await cookieOf();
    const me = async (cookie: string) => (await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).json().user;
    expect((await me(elsewhere)).language).toBeUndefined();

    const chosen = await ctx.app.inject({ method: 'PUT', url: '/api/me/language', headers: { cookie: here }, payload: { language: 'te' } });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json().user).toMatchObject({ email, language: 'te' });
    expect((await me(elsewhere)).language).toBe('te');
    const [row] = await ctx.database.db.select({ language: users.language }).from(users).where(eq(users.email, email));
    expect(row!.language).toBe('te');
    // A new sign-in answers with it too.
    expect((await login({ email, password: TEST_PASSWORD, role: 'faculty', remember: false })).json().user.language).toBe('te');

    const refused = await ctx.app.inject({ method: 'PUT', url: '/api/me/language', headers: { cookie: here }, payload: { language: 'fr' } });
    expect(refused.statusCode).toBe(400);
    const signedOut = await ctx.app.inject({ method: 'PUT', url: '/api/me/language', payload: { language: 'hi' } });
    expect(signedOut.statusCode).toBe(401);

    const cleared = await ctx.app.inject({ method: 'PUT', url: '/api/me/language', headers: { cookie: here }, payload: { language: null } });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().user.language).toBeUndefined();
    expect((await me(elsewhere)).language).toBeUndefined();
  });

  it('passwords are stored as argon2id hashes', async () => {
    const [row] = await ctx.database.db.select().from(users).where(eq(users.email, 'Prof.Rao@Uni.edu'));
    expect(row!.passwordHash!.startsWith('$argon2id$')).toBe(true);
  });
});

describe('bad input never gives a 500', () => {
  it('malformed JSON', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: '{"email": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'The request body is not valid JSON' });
  });
  it('wrong types and missing fields', async () => {
    const res = await login({ email: 42, role: 'teacher' });
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().message).toBe('string');
  });
  it('an oversized body', async () => {
    const res = await login({ email: 'a@b.co', password: 'x'.repeat(300_000), role: 'faculty' });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'The request body is too large' });
  });
  it('an unknown API route', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('No route for GET /api/nothing-here');
  });
});

describe('service routes', () => {
  it('health names the database', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.json()).toEqual({
      status: 'ok',
      database: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
    });
  });
  it('publishes an OpenAPI document built from the route schemas', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/api/auth/login');
  });
  it("sends the pages' security headers on every page, the same each time", async () => {
    const first = await ctx.app.inject({ method: 'GET', url: '/login' });
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(first.headers['content-security-policy']).toContain("default-src 'self'");
    expect(first.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-[\w+/=]+'/);
    expect(first.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(first.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(first.headers['cross-origin-opener-policy']).toBe('same-origin');
    for (const url of ['/login', '/faculty-details', '/assets/nothing-here.js', '/api-like-page']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy'], url).toBe(first.headers['content-security-policy']);
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });
  it("sends the API's own security headers on every answer of the API, errors included", async () => {
    for (const url of ['/api/health', '/api/auth/me', '/api/nothing-here', '/api/reports/dashboard?x=1']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect(res.headers[name], `${url} ${name}`).toBe(value);
      // None of the headers that concern documents only.
      expect(res.headers['cross-origin-opener-policy'], url).toBeUndefined();
      expect(res.headers['x-dns-prefetch-control'], url).toBeUndefined();
    }
    expect(API_SECURITY_HEADERS['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(API_SECURITY_HEADERS['x-content-type-options']).toBe('nosniff');
    // The API's documentation is a page: it keeps a page's headers, not the API's policy.
    const docs = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.headers['content-security-policy']).not.toBe(API_SECURITY_HEADERS['content-security-policy']);
    expect(docs.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});
