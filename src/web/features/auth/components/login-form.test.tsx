import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createInjectFetch } from '../../../../server/test/inject-fetch';
import { createTestContext, TEST_PASSWORD, type TestContext } from '../../../../server/test/test-app';
import { addUser } from '../../../../server/modules/accounts/service';
import { renderRoutes } from '../../../test/render';
import { LoginPage } from '../pages/login-page';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  await addUser(ctx.database.db, { email: 'meera@uni.edu', name: 'Meera Iyer', role: 'faculty', password: TEST_PASSWORD });
  vi.stubGlobal('fetch', createInjectFetch(ctx.app));
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await ctx.close();
});

function renderLogin(path = '/login') {
  return renderRoutes(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/dashboard', element: <h1>Dashboard reached</h1> },
      { path: '/faculty', element: <h1>Student screen reached</h1> },
      { path: '/attendance/:class', element: <h1>Register reached</h1> },
    ],
    path,
  );
}

describe('LoginForm', () => {
  it('keeps Login disabled until the form is valid and names each problem', async () => {
    const user = userEvent.setup();
    renderLogin();
    const form = await screen.findByRole('form', { name: 'Faculty login' });
    const button = within(form).getByRole('button', { name: 'Login' });
    expect(button).toBeDisabled();

    await user.type(within(form).getByRole('textbox', { name: 'Email' }), 'meera');
    await user.click(within(form).getByLabelText(/^Password/));
    await user.tab();
    expect(await within(form).findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(await within(form).findByText('Password is required')).toBeInTheDocument();
    expect(button).toBeDisabled();

    await user.type(within(form).getByRole('textbox', { name: 'Email' }), '@uni.edu');
    await user.type(within(form).getByLabelText(/^Password/), 'anything');
    await waitFor(() => expect(button).toBeEnabled());
  });

  it('shows the server message after a failed sign-in', async () => {
    const user = userEvent.setup();
    renderLogin();
    const form = await screen.findByRole('form', { name: 'Faculty login' });
    await user.type(within(form).getByRole('textbox', { name: 'Email' }), 'meera@uni.edu');
    await user.type(within(form).getByLabelText(/^Password/), 'not the password');
    await user.click(within(form).getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Login failed: Invalid credentials');
    expect(within(form).getByRole('button', { name: 'Login' })).toBeEnabled();
  });

  it('refuses the Student tab for a faculty account with a clear message', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.click(await screen.findByRole('tab', { name: 'Student' }));
    const form = await screen.findByRole('form', { name: 'Student login' });
    await user.type(within(form).getByRole('textbox', { name: 'Email' }), 'meera@uni.edu');
    await user.type(within(form).getByLabelText(/^Password/), TEST_PASSWORD);
    await user.click(within(form).getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Login failed: This is a faculty account. Please use the Faculty tab to sign in.',
    );
  });

  it('shows Success and goes back to the page that asked for sign-in', async () => {
    const user = userEvent.setup();
    const { router } = renderLogin('/login?returnUrl=%2Fattendance%2FCSE2');
    const form = await screen.findByRole('form', { name: 'Faculty login' });
    await user.type(within(form).getByRole('textbox', { name: 'Email' }), 'meera@uni.edu');
    await user.type(within(form).getByLabelText(/^Password/), TEST_PASSWORD);
    await user.click(within(form).getByRole('button', { name: 'Login' }));
    expect(await within(form).findByRole('button', { name: 'Success' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Register reached' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/attendance/CSE2');
  });
});
