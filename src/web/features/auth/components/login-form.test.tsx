import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createInjectFetch } from '../../../../server/test/inject-fetch';
import { TEST_PASSWORD } from '../../../../server/test/test-app';
import { addUser } from '../../../../server/modules/accounts/service';
import { eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { totpCredentials, users } from '../../../../server/db/schema';
import { INVALID_TOTP_MESSAGE } from '../../../../shared/schemas/auth';
import { renderRoutes } from '../../../test/render';
import { startTestServer } from '../../../test/server';
import { LoginRoute } from '../pages/login-route';

const server = startTestServer({
  seed: ({ database: { db } }) => addUser(db, { email: 'meera@uni.edu', name: 'Meera Iyer', role: 'faculty', password: TEST_PASSWORD }),
});

function renderLogin(path = '/login') {
  return renderRoutes(
    [
      { path: '/login', element: <LoginRoute /> },
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

  it('asks for the code from the app after the right password of an account with two-step sign-in', async () => {
    const email = 'two-step@uni.edu';
    await addUser(server.ctx.database.db, { email, name: 'Two Step', role: 'faculty', password: TEST_PASSWORD });
    const [row] = await server.ctx.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const secret = new OTPAuth.Secret({ size: 20 });
    await server.ctx.database.db.insert(totpCredentials).values({ userId: row!.id, secret: secret.base32, enabledAt: new Date() });
    const totp = new OTPAuth.TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 });
    // A step boundary must not fall between computing the code and checking it.
    if (30_000 - (Date.now() % 30_000) < 3_000) await new Promise((resolve) => setTimeout(resolve, 3_100));

    // Signed out: a cookie jar of its own.
    vi.stubGlobal('fetch', createInjectFetch(server.ctx.app));
    const user = userEvent.setup();
    renderLogin();
    const form = await screen.findByRole('form', { name: 'Faculty login' });
    await user.type(within(form).getByRole('textbox', { name: 'Email' }), email);
    await user.type(within(form).getByLabelText(/^Password/), TEST_PASSWORD);
    await user.click(within(form).getByRole('button', { name: 'Login' }));

    const step = await screen.findByRole('form', { name: 'Two-step sign-in' });
    const code = within(step).getByRole('textbox', { name: 'Code' });
    await waitFor(() => expect(code).toHaveFocus());
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await user.type(code, '000000');
    await user.click(within(step).getByRole('button', { name: 'Verify' }));
    expect(await within(step).findByRole('alert')).toHaveTextContent(INVALID_TOTP_MESSAGE);

    await user.type(within(step).getByRole('textbox', { name: 'Code' }), totp.generate());
    await user.click(within(step).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard reached' })).toBeInTheDocument();
  });
});
