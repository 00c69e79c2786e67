import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { OIDC_ERROR_MESSAGES } from '../../../../shared/schemas/auth';
import { renderRoutes } from '../../../test/render';
import { startTestServer } from '../../../test/server';
import { LoginRoute } from '../pages/login-route';

// The provider is only reached when someone presses the button; the page needs its name.
const server = startTestServer({
  config: { oidc: { issuer: 'http://127.0.0.1:9', clientId: 'portal', clientSecret: 'secret', name: 'Riverside Account', emailVerified: 'require' } },
});

describe('single sign-on on the sign-in page', () => {
  it('offers "Sign in with <name>" on both tabs, for the tab’s role and with the returnUrl', async () => {
    const user = userEvent.setup();
    renderRoutes([{ path: '/login', element: <LoginRoute /> }], '/login?returnUrl=%2Ffaculty-details');
    const faculty = await screen.findByRole('link', { name: 'Sign in with Riverside Account' });
    expect(faculty).toHaveAttribute('href', '/api/auth/oidc/start?role=faculty&returnUrl=%2Ffaculty-details');
    expect(screen.getByRole('form', { name: 'Faculty login' })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Student' }));
    const panel = screen.getByRole('tabpanel', { name: 'Student' });
    expect(within(panel).getByRole('link', { name: 'Sign in with Riverside Account' })).toHaveAttribute(
      'href',
      '/api/auth/oidc/start?role=student&returnUrl=%2Ffaculty-details',
    );
  });

  it('asks how people sign in once per page load: shown again, the page has the answer at once', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      asked.push(String(input));
      return server.fetch(input, init);
    });
    const first = renderRoutes([{ path: '/login', element: <LoginRoute /> }], '/login');
    expect(await screen.findByRole('link', { name: 'Sign in with Riverside Account' })).toBeInTheDocument();
    first.unmount();
    asked.length = 0;
    // As after a sign-out: the same page in the same page load.
    renderRoutes([{ path: '/login', element: <LoginRoute /> }], '/login');
    expect(screen.getByRole('link', { name: 'Sign in with Riverside Account' })).toBeInTheDocument();
    await screen.findByRole('form', { name: 'Faculty login' });
    expect(asked.filter((url) => url.includes('/api/auth/options'))).toEqual([]);
  });

  it('says why a single sign-on came back', async () => {
    renderRoutes([{ path: '/login', element: <LoginRoute /> }], '/login?sso=unknown');
    expect(await screen.findByRole('alert')).toHaveTextContent(OIDC_ERROR_MESSAGES.unknown);
  });
});
