import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { addUser } from '../../../../server/modules/accounts/service';
import { TEST_PASSWORD } from '../../../../server/test/test-app';
import { RequireAuth } from '../../../app/require-auth';
import { renderRoutes } from '../../../test/render';
import { startTestServer } from '../../../test/server';
import AccountPage from './account-page';

startTestServer({
  config: { requireTotp: 'staff' },
  seed: ({ database: { db } }) => addUser(db, { email: 'held@uni.edu', name: 'Held Lecturer', role: 'faculty', password: TEST_PASSWORD }),
  signedInAs: { email: 'held@uni.edu', role: 'faculty' },
});

describe('/account under PORTAL_REQUIRE_TOTP=staff', () => {
  it('sends a held staff member to the setup, turns TOTP on with a code from the app, shows the recovery codes once and lets them in', async () => {
    const user = userEvent.setup();
    renderRoutes(
      [{ element: <RequireAuth />, children: [{ path: '/dashboard', element: <h1>Dashboard reached</h1> }, { path: '/account', element: <AccountPage /> }] }],
      '/dashboard',
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'My account' })).toBeInTheDocument();
    expect(screen.getByText('Set up two-step sign-in to continue')).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Set up two-step sign-in' }));
    const form = await screen.findByRole('form', { name: 'Turn on two-step sign-in' });
    const key = within(form).getByText(/^[A-Z2-7]{4}( [A-Z2-7]{4}){7}$/).textContent!.replace(/\s/g, '');
    const app = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(key), algorithm: 'SHA1', digits: 6, period: 30 });
    expect(await within(form).findByRole('img', { name: 'QR code to scan with your authenticator app' })).toHaveAttribute('src', expect.stringMatching(/^data:image\/svg\+xml/));

    await user.type(within(form).getByRole('textbox', { name: 'Code' }), app.generate());
    await user.click(within(form).getByRole('button', { name: 'Turn on' }));
    const codes = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(codes).getAllByRole('listitem')).toHaveLength(10);
    await user.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(await screen.findByText('On. 10 of 10 recovery codes left.')).toBeInTheDocument();
    // Required here: it cannot be turned off.
    expect(screen.queryByRole('button', { name: 'Turn off' })).not.toBeInTheDocument();
    await waitFor(async () => expect((await (await fetch('/api/classes')).status)).toBe(200));
  });
});
