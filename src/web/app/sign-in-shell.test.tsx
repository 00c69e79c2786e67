import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRoot, type Root } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { addUser } from '../../server/modules/accounts/service';
import { createInjectFetch, signInThroughFetch } from '../../server/test/inject-fetch';
import { createTestContext, TEST_PASSWORD, type TestContext } from '../../server/test/test-app';
import { isSignInPath, startSignIn } from './sign-in-shell';

let ctx: TestContext;
/** Every question the page asked, as `METHOD path`. */
const asked: string[] = [];
let root: Root | undefined;

beforeAll(async () => {
  ctx = await createTestContext();
  await addUser(ctx.database.db, { email: 'shell-faculty@uni.edu', name: 'Shell Faculty', role: 'faculty', password: TEST_PASSWORD });
  const injectFetch = createInjectFetch(ctx.app);
  vi.stubGlobal('fetch', (async (input, init) => {
    asked.push(`${init?.method ?? 'GET'} ${String(input)}`);
    return injectFetch(input, init);
  }) as typeof fetch);
}, 60_000);
afterEach(async () => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  await fetch('/api/auth/logout', { method: 'POST' });
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await ctx.close();
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
    await signInThroughFetch(fetch, 'shell-faculty@uni.edu', 'faculty');
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
});
