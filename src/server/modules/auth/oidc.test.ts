import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../accounts/service';
import { startTestIdentityProvider, type TestIdentityProvider } from '../../test/oidc-provider';
import { createTestContext, TEST_PASSWORD, type TestContext } from '../../test/test-app';

const PORTAL = 'http://portal.test';
let idp: TestIdentityProvider;
let ctx: TestContext;

beforeAll(async () => {
  idp = await startTestIdentityProvider({
    redirectUris: [`${PORTAL}/api/auth/oidc/callback`],
    accounts: [
      { sub: 'fac-1', email: 'Lecturer@Uni.edu', email_verified: true },
      { sub: 'stu-1', email: 'learner@uni.edu', email_verified: true },
      { sub: 'unverified-1', email: 'lecturer@uni.edu', email_verified: false },
      { sub: 'stranger-1', email: 'nobody@uni.edu', email_verified: true },
      { sub: 'silent-1', email: 'quiet@uni.edu' },
    ],
  });
  ctx = await createTestContext({
    publicUrl: PORTAL,
    oidc: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, name: 'Campus Account', emailVerified: 'require' },
  });
  await addUser(ctx.database.db, { email: 'lecturer@uni.edu', name: 'Lecturer', role: 'faculty', password: TEST_PASSWORD });
  await addUser(ctx.database.db, { email: 'quiet@uni.edu', name: 'Quiet', role: 'faculty', password: TEST_PASSWORD });
  await ctx.signIn('student', { email: 'learner@uni.edu' });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await idp?.close();
});

function cookieOf(res: { cookies: { name: string; value: string }[] }, name: string): string | undefined {
  return res.cookies.find((c) => c.name === name && c.value !== '')?.value;
}

/** Starts a single sign-on on a tab, signs in at the provider as `sub`, and brings the answer back to the portal. */
async function sso(sub: string, options: { role?: 'faculty' | 'student'; returnUrl?: string } = {}) {
  const query = new URLSearchParams({ role: options.role ?? 'faculty', ...(options.returnUrl ? { returnUrl: options.returnUrl } : {}) });
  const start = await ctx.app.inject({ method: 'GET', url: `/api/auth/oidc/start?${query}` });
  expect(start.statusCode).toBe(302);
  const authorization = new URL(start.headers.location as string);
  const browserCookie = cookieOf(start, 'portal_oidc')!;
  const callbackUrl = await idp.authorize(authorization.href, sub);
  const finish = (cookie: string | undefined) =>
    ctx.app.inject({ method: 'GET', url: `${callbackUrl.pathname}${callbackUrl.search}`, headers: cookie ? { cookie: `portal_oidc=${cookie}` } : {} });
  return { authorization, callbackUrl, browserCookie, finish, response: await finish(browserCookie) };
}

describe('single sign-on with OpenID Connect', () => {
  it('says how the portal signs people in', async () => {
    const options = await ctx.app.inject({ method: 'GET', url: '/api/auth/options' });
    expect(options.json()).toEqual({ passwordLogin: true, sso: { name: 'Campus Account' } });
  });

  it('sends the browser to the provider with state, nonce and a PKCE challenge, and the callback signs the account in', async () => {
    const { authorization, response } = await sso('fac-1');
    expect(authorization.origin).toBe(idp.issuer);
    for (const parameter of ['state', 'nonce', 'code_challenge']) expect(authorization.searchParams.get(parameter)).toBeTruthy();
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('redirect_uri')).toBe(`${PORTAL}/api/auth/oidc/callback`);

    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/dashboard');
    const session = cookieOf(response, 'portal_session');
    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: `portal_session=${session}` } });
    expect(me.json().user.email).toBe('lecturer@uni.edu');
  });

  it('goes back to a returnUrl inside the portal, and never to another site', async () => {
    expect((await sso('fac-1', { returnUrl: '/faculty-details?x=1' })).response.headers.location).toBe('/faculty-details?x=1');
    expect((await sso('fac-1', { returnUrl: 'https://evil.example/steal' })).response.headers.location).toBe('/dashboard');
    expect((await sso('fac-1', { returnUrl: '//evil.example' })).response.headers.location).toBe('/dashboard');
  });

  it('refuses an e-mail the provider has not verified, or never says it has, and an e-mail with no account', async () => {
    for (const [sub, reason] of [
      ['unverified-1', 'unverified'],
      ['silent-1', 'unverified'],
      ['stranger-1', 'unknown'],
    ] as const) {
      const { response } = await sso(sub);
      expect(response.headers.location, sub).toBe(`/login?sso=${reason}`);
      expect(cookieOf(response, 'portal_session'), sub).toBeUndefined();
    }
  });

  it('applies the tab’s role rule', async () => {
    const { response } = await sso('stu-1', { role: 'faculty' });
    expect(response.headers.location).toBe('/login?sso=role-student');
    expect(cookieOf(response, 'portal_session')).toBeUndefined();
    const right = await sso('stu-1', { role: 'student' });
    expect(right.response.headers.location).toBe('/faculty');
  });

  it('takes a callback once, and only in the browser that started it', async () => {
    const first = await sso('fac-1');
    expect(first.response.headers.location).toBe('/dashboard');
    const replayed = await first.finish(first.browserCookie);
    expect(replayed.headers.location).toBe('/login?sso=expired');
    expect(cookieOf(replayed, 'portal_session')).toBeUndefined();

    const other = await sso('fac-1').then(async (flow) => flow);
    // A different browser (no cookie, or a forged one) gets nothing from a stolen callback address.
    const { callbackUrl } = other;
    for (const cookie of [undefined, 'forged']) {
      const stolen = await ctx.app.inject({ method: 'GET', url: `${callbackUrl.pathname}${callbackUrl.search}`, headers: cookie ? { cookie: `portal_oidc=${cookie}` } : {} });
      expect(stolen.headers.location).toBe('/login?sso=expired');
    }
  });

  it('refuses an ID token whose signature does not fit its content', async () => {
    idp.tamperWithIdTokens(true);
    try {
      const { response } = await sso('fac-1');
      expect(response.headers.location).toBe('/login?sso=failed');
      expect(cookieOf(response, 'portal_session')).toBeUndefined();
    } finally {
      idp.tamperWithIdTokens(false);
    }
  });

  it('matches the provider’s sub from the first sign-in on', async () => {
    // The account was tied to fac-1 above; the unverified identity with the same e-mail is another sub.
    const { response } = await sso('unverified-1');
    expect(response.headers.location).toBe('/login?sso=unverified');
    expect((await sso('fac-1')).response.headers.location).toBe('/dashboard');
  });
});

describe('PORTAL_PASSWORD_LOGIN=false', () => {
  it('refuses password sign-in when single sign-on is the only way', async () => {
    const ssoOnly = await createTestContext({
      publicUrl: PORTAL,
      passwordLogin: false,
      oidc: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, name: 'Campus Account', emailVerified: 'require' },
    });
    try {
      await addUser(ssoOnly.database.db, { email: 'pw@uni.edu', name: 'Pw', role: 'faculty', password: TEST_PASSWORD });
      const login = await ssoOnly.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'pw@uni.edu', password: TEST_PASSWORD, role: 'faculty' } });
      expect(login.statusCode).toBe(403);
      expect((await ssoOnly.app.inject({ method: 'GET', url: '/api/auth/options' })).json()).toEqual({ passwordLogin: false, sso: { name: 'Campus Account' } });
    } finally {
      await ssoOnly.close();
    }
  });
});
