import { screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createInjectFetch, signInThroughFetch } from '../../server/test/inject-fetch';
import { createTestContext, type TestContext } from '../../server/test/test-app';
import { meQueryKey } from '../lib/session';
import { renderRoutes } from '../test/render';
import { routes } from './router';

let ctx: TestContext;
const EMAIL = 'expiring-faculty@uni.edu';

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.signIn('faculty', { email: EMAIL });
  vi.stubGlobal('fetch', createInjectFetch(ctx.app));
  await signInThroughFetch(fetch, EMAIL, 'faculty');
  // A fresh database and a password hash take a while on a busy machine.
}, 60_000);
afterAll(async () => {
  vi.unstubAllGlobals();
  await ctx.close();
});

describe('a sign-in session that ends while the portal is open', () => {
  it('sends the user to sign in again, with the page they were on as the returnUrl', async () => {
    const { router, queryClient } = renderRoutes(routes, '/dashboard');
    expect(await screen.findByRole('link', { name: /^CSE1/ }, { timeout: 10_000 })).toBeInTheDocument();

    // Signed out elsewhere: the page still believes it is signed in, the server no longer does.
    await fetch('/api/auth/logout', { method: 'POST' });
    const returnTo = '/attendance/CSE1?view=all#marks';
    await router.navigate(returnTo);

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 10_000 });
    expect(new URLSearchParams(router.state.location.search).get('returnUrl')).toBe(returnTo);
    expect(await screen.findByRole('form', { name: 'Faculty login' })).toBeInTheDocument();
    expect(queryClient.getQueryData(meQueryKey)).toBeNull();
  });
});
