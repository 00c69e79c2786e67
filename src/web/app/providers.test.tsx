import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { meQueryKey } from '../lib/session';
import { renderRoutes } from '../test/render';
import { startSignedInApp } from '../test/server';
import { routes } from './router';

startSignedInApp('faculty', { email: 'expiring-faculty@uni.edu' });

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
