import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { createMemoryRouter, Link, Navigate, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders, createQueryClient } from './providers';
import { MAIN_CONTENT_ID, RootLayout } from './route-focus';

function Page({ title, to }: { title: string; to: string }) {
  return (
    <main id={MAIN_CONTENT_ID}>
      <h1>{title}</h1>
      <Link to={to}>Next page</Link>
    </main>
  );
}

/** The root layout over two pages and a redirect, in StrictMode as the app renders it (portal-app.tsx). */
function renderApp(path: string) {
  const router = createMemoryRouter(
    [
      {
        element: <RootLayout />,
        children: [
          { path: 'one', element: <Page title="Page one" to="/two" /> },
          { path: 'two', element: <Page title="Page two" to="/one" /> },
          { path: 'old', element: <Navigate to="/two" replace /> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <StrictMode>
      <AppProviders queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
  return router;
}

/** Long enough for a heading's focus, were one asked for, to have happened. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 200)));

describe('focus and the skip link', () => {
  it('leaves focus alone on a fresh load: the first Tab reaches Skip to main content', async () => {
    renderApp('/one');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page one' })).toBeVisible();
    await settle();
    expect(document.body).toHaveFocus();
    await userEvent.setup().tab();
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toHaveFocus();
  });

  it('leaves focus alone when the first page redirects before it shows', async () => {
    renderApp('/old');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page two' })).toBeVisible();
    await settle();
    expect(document.body).toHaveFocus();
  });

  it('moves focus to the heading of the page a link opens, and of the page Back returns to', async () => {
    const user = userEvent.setup();
    const router = renderApp('/one');
    await screen.findByRole('heading', { level: 1, name: 'Page one' });
    await user.click(screen.getByRole('link', { name: 'Next page' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Page two' })).toHaveFocus();
    await act(() => router.navigate(-1));
    expect(await screen.findByRole('heading', { level: 1, name: 'Page one' })).toHaveFocus();
  });
});
