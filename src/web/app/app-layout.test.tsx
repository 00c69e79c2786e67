import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { User } from '../../shared/schemas/auth';
import { offlineStore, type QueuedSave } from '../lib/offline-store';
import { meQueryKey } from '../lib/session';
import { renderRoutes } from '../test/render';
import { startSignedInApp } from '../test/server';
import { routes } from './router';

const EMAIL = 'signing-out-faculty@uni.edu';
const PIN = '22S0UT1';
/** Every answer the page got, as `METHOD path status`. */
const answers: string[] = [];
/** Requests to hold unanswered until they are aborted, and the signals of those held. */
let holding: ((path: string) => boolean) | undefined;
const held: { path: string; signal: AbortSignal | null | undefined }[] = [];
/** Whether every held request had been dropped when the sign-out was sent. */
let droppedBeforeSignOut: boolean | undefined;
/** Requests sent and not yet answered, the held ones aside. */
let inFlight = 0;
/** When the page last sent a request (the held ones aside). */
let lastSent = 0;

/**
 * Until the page has gone quiet: every request answered and none sent for a while. A page sends
 * some requests only once others are answered (the open corrections' count after who is signed in).
 */
async function pageSettled(): Promise<void> {
  await waitFor(() => {
    expect(inFlight).toBe(0);
    expect(performance.now() - lastSent).toBeGreaterThan(150);
  }, { timeout: 5_000 });
}

const server = startSignedInApp('faculty', {
  email: EMAIL,
  seed: async ({ signIn }) => {
    await signIn('student', { pin: PIN });
  },
  wrapFetch: (serverFetch) =>
    (async (input, init) => {
      if (holding?.(String(input))) {
        held.push({ path: String(input), signal: init?.signal });
        return new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
        });
      }
      if (String(input) === '/api/auth/logout') droppedBeforeSignOut = held.every(({ signal }) => signal?.aborted === true);
      inFlight += 1;
      lastSent = performance.now();
      try {
        const response = await serverFetch(input, init);
        // As a browser's fetch: an answer that arrives after its request was dropped never reaches the page.
        if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
        answers.push(`${init?.method ?? 'GET'} ${String(input)} ${response.status}`);
        return response;
      } finally {
        inFlight -= 1;
      }
    }) as typeof fetch,
});

describe('signing out', () => {
  it('goes to /login without the page asking for its data again, and forgets what was fetched', async () => {
    const user = userEvent.setup();
    const { router, queryClient } = renderRoutes(routes, `/faculty?pin=${PIN}`);
    expect(await screen.findByText(`PIN: ${PIN}`, undefined, { timeout: 10_000 })).toBeInTheDocument();
    await pageSettled();
    answers.length = 0;
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 10_000 });
    expect(router.state.location.search).toBe('');
    expect(await screen.findByRole('form', { name: 'Faculty login' })).toBeInTheDocument();
    // Give a stray refetch the time to happen.
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The sign-in page asks how people sign in here once per page load (nobody's data); nothing else is asked.
    expect(answers.filter((answer) => answer !== 'GET /api/auth/options 200')).toEqual(['POST /api/auth/logout 204']);
    expect(queryClient.getQueryData(meQueryKey)).toBeNull();
    // Only the sign-in state and the university's branding (nobody's) stay.
    expect(queryClient.getQueryCache().getAll().filter((query) => !['auth', 'branding'].includes(String(query.queryKey[0])))).toEqual([]);
  });

  it("drops what the page is still asking, so that no answer comes back refused after the session ends", async () => {
    await server.signIn(EMAIL, 'faculty');
    const user = userEvent.setup();
    holding = (path) => path.startsWith('/api/reports/dashboard');
    try {
      renderRoutes(routes, '/faculty-details');
      expect(await screen.findByRole('heading', { level: 1, name: 'Faculty Dashboard' }, { timeout: 10_000 })).toBeInTheDocument();
      await waitFor(() => expect(held).toHaveLength(1));
      await pageSettled();
      answers.length = 0;
      await user.click(screen.getByRole('button', { name: 'Sign out' }));
      expect(await screen.findByRole('form', { name: 'Faculty login' }, { timeout: 10_000 })).toBeInTheDocument();
      // The dashboard's request was dropped before the session ended, not left to come back refused.
      expect(droppedBeforeSignOut).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(answers.filter((answer) => answer !== 'GET /api/auth/options 200')).toEqual(['POST /api/auth/logout 204']);
    } finally {
      holding = undefined;
    }
  });

  it('with register saves waiting on the device, asks first in a dialog; staying keeps the session, signing out keeps the saves', async () => {
    await server.signIn(EMAIL, 'faculty');
    const user = userEvent.setup();
    const { router, queryClient } = renderRoutes(routes, `/faculty?pin=${PIN}`);
    expect(await screen.findByText(`PIN: ${PIN}`, undefined, { timeout: 10_000 })).toBeInTheDocument();
    await pageSettled();
    const me = queryClient.getQueryData<User>(meQueryKey)!;
    // Two saves of this user's waiting (as the register page leaves them offline), and one of another user's.
    const save = (id: string, userId: string, className: string): QueuedSave => ({
      id,
      class: className,
      date: '2026-11-23',
      period: 0,
      body: { records: [{ pin: PIN, status: 'present' }], markedAt: '2026-11-23T09:05:00+05:30' },
      ifMatch: '"none"',
      queuedAt: new Date().toISOString(),
      userId,
    });
    const saves = [save('a', me.id, 'CSE3'), save('b', me.id, 'CSE4'), save('c', 'someone else', 'CSE5')];
    for (const queued of saves) await offlineStore().putQueued(queued);
    try {
      answers.length = 0;
      await user.click(screen.getByRole('button', { name: 'Sign out' }));
      const dialog = await screen.findByRole('dialog', { name: 'Sign out with saves waiting?' });
      expect(dialog).toHaveTextContent('2 register saves have not reached the server yet. Signing out keeps them on this device');
      // The safe answer has the focus; Escape is the same answer.
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Stay signed in' })).toHaveFocus());
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(router.state.location.pathname).toBe('/faculty');
      expect(answers).toEqual([]);

      await user.click(screen.getByRole('button', { name: 'Sign out' }));
      await user.click(within(await screen.findByRole('dialog', { name: 'Sign out with saves waiting?' })).getByRole('button', { name: 'Sign out' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 10_000 });
      expect(answers.filter((answer) => answer !== 'GET /api/auth/options 200')).toEqual(['POST /api/auth/logout 204']);
      // The saves stay on the device, for their users' next sign-in here.
      expect((await offlineStore().queued()).map((queued) => queued.id).sort()).toEqual(['a', 'b', 'c']);
    } finally {
      for (const queued of saves) await offlineStore().deleteQueued(queued.id);
    }
  });
});
