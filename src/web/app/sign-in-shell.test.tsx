import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { addUser } from '../../server/modules/accounts/service';
import { TEST_PASSWORD } from '../../server/test/test-app';
import { startTestServer } from '../test/server';
import { isSignInPath, startSignIn } from './sign-in-shell';

/** Every question the page asked, as `METHOD path`. */
const asked: string[] = [];
let root: Root | undefined;

const server = startTestServer({
  seed: ({ database: { db } }) => addUser(db, { email: 'shell-faculty@uni.edu', name: 'Shell Faculty', role: 'faculty', password: TEST_PASSWORD }),
  wrapFetch: (serverFetch) =>
    (async (input, init) => {
      asked.push(`${init?.method ?? 'GET'} ${String(input)}`);
      return serverFetch(input, init);
    }) as typeof fetch,
});
afterEach(async () => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  await fetch('/api/auth/logout', { method: 'POST' });
});

function start(path: string) {
  window.history.replaceState(null, '', path);
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() => startSignIn(root!));
}

describe('the sign-in shell (the first screen, without the app)', () => {
  it('serves / and /login only', () => {
    expect(['/', '/login', '/login/'].every(isSignInPath)).toBe(true);
    expect(['/dashboard', '/register', '/loginx', '/login/x'].some(isSignInPath)).toBe(false);
  });

  it('shows the sign-in page at / as /login, then opens the app at the page the user was going to', async () => {
    const user = userEvent.setup();
    start('/?returnUrl=%2Fregister');
    expect(window.location.pathname).toBe('/login');
    expect(window.location.search).toBe('?returnUrl=%2Fregister');
    const form = await screen.findByRole('form', { name: 'Faculty login' });
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toBeInTheDocument();

    await user.type(within(form).getByRole('textbox', { name: 'Email' }), 'shell-faculty@uni.edu');
    await user.type(within(form).getByLabelText(/^Password/), TEST_PASSWORD);
    asked.length = 0;
    await user.click(within(form).getByRole('button', { name: 'Login' }));
    expect(await within(form).findByRole('button', { name: 'Success' })).toBeInTheDocument();

    expect(await screen.findByRole('heading', { level: 1, name: 'Student Registration' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/register');
    // The app starts from what the sign-in page knew: it does not ask who signed in.
    expect(asked).not.toContain('GET /api/auth/me');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Student Registration' })));
  });

  it('sends someone already signed in to their home page in the app', async () => {
    await server.signIn('shell-faculty@uni.edu', 'faculty');
    start('/login');
    expect(await screen.findByRole('heading', { level: 1, name: 'Faculty Dashboard' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/dashboard');
  });

  it('follows its links into the app, which keeps the sign-in page in the history', async () => {
    const user = userEvent.setup();
    start('/login');
    await user.click(await screen.findByRole('link', { name: 'Contact us' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Contact Us' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/contact-us');

    act(() => window.history.back());
    expect(await screen.findByRole('form', { name: 'Faculty login' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/login');
  });

  it('links the privacy notice and the accessibility statement from its footer, and opens them in the app', async () => {
    const user = userEvent.setup();
    start('/login');
    const footer = await screen.findByRole('contentinfo', { name: 'Notices' });
    expect(within(footer).getByRole('link', { name: 'Accessibility' })).toHaveAttribute('href', '/accessibility');
    await user.click(within(footer).getByRole('link', { name: 'Privacy' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy notice' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/privacy');
  });
});
