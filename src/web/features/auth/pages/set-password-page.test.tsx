import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CreatedUserSchema } from '../../../../shared/schemas/admin-users';
import { SET_PASSWORD_LINK_MESSAGE } from '../../../../shared/schemas/auth';
import { routes } from '../../../app/router';
import { renderRoutes } from '../../../test/render';
import { startTestServer } from '../../../test/server';
import { MISSING_TOKEN_MESSAGE } from './set-password-page';

let fragment: string;
const EMAIL = 'set-password-page@uni.edu';

startTestServer({
  seed: async ({ app, signIn }) => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: { cookie: await signIn('admin') },
      payload: { email: EMAIL, name: 'Page Person', role: 'faculty' },
    });
    fragment = new URL(CreatedUserSchema.parse(created.json()).setPasswordUrl).hash;
  },
});

async function choose(user: ReturnType<typeof userEvent.setup>, password: string, again = password) {
  const first = screen.getByLabelText(/^New password\s*\*?$/);
  const second = screen.getByLabelText(/^New password again/);
  await user.clear(first);
  await user.type(first, password);
  await user.clear(second);
  await user.type(second, again);
  await user.click(screen.getByRole('button', { name: 'Set password' }));
}

describe('/set-password', () => {
  it('reads the token from the fragment, takes it out of the address, refuses a weak password and sets a strong one', async () => {
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, `/set-password${fragment}`);
    await screen.findByRole('heading', { name: 'Choose your password' }, { timeout: 10_000 });
    expect(router.state.location.hash).toBe('');
    expect(router.state.location.pathname).toBe('/set-password');

    await choose(user, 'violet kettle marches', 'violet kettle marched');
    expect(await screen.findByText('The two passwords are not the same')).toBeInTheDocument();

    await choose(user, 'password1234');
    expect(await screen.findByText('Choose a less common password')).toBeInTheDocument();

    await choose(user, 'violet kettle marches sideways');
    expect(await screen.findByText(/Your password is set/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');

    const signIn = await fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, password: 'violet kettle marches sideways', role: 'faculty', remember: false }),
    });
    expect(signIn.status).toBe(200);
  });

  it('says so when the link was already used', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, `/set-password${fragment}`);
    await screen.findByRole('heading', { name: 'Choose your password' }, { timeout: 10_000 });
    await choose(user, 'another long passphrase entirely');
    expect(await screen.findByText(SET_PASSWORD_LINK_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Set password' })).not.toBeInTheDocument();
  });

  it('says so when the link has no token', async () => {
    renderRoutes(routes, '/set-password');
    expect(await screen.findByText(MISSING_TOKEN_MESSAGE, undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByLabelText(/^New password\s*\*?$/)).not.toBeInTheDocument();
  });
});
