import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { NotificationSettingsSchema } from '../../../../shared/schemas/alerts';
import { routes } from '../../../app/router';
import { renderRoutes } from '../../../test/render';
import { startSignedInApp } from '../../../test/server';

startSignedInApp('student', { email: 'alert-emails-student@uni.edu', pin: '22MAIL1' });

describe('/account, Alert e-mails', () => {
  it('shows the stored choice (a daily digest unless chosen), saves another as soon as it is chosen, and keeps it', async () => {
    const user = userEvent.setup();
    const { unmount } = renderRoutes(routes, '/account');
    const section = await screen.findByRole('region', { name: 'Alert e-mails' }, { timeout: 10_000 });
    const group = await within(section).findByRole('radiogroup', { name: 'How alerts reach you by e-mail' });
    expect(within(group).getAllByRole('radio').map((radio) => radio.getAttribute('value'))).toEqual(['immediate', 'daily', 'weekly', 'never']);
    expect(within(group).getByRole('radio', { name: 'A daily digest at 07:30' })).toBeChecked();

    await user.click(within(group).getByRole('radio', { name: 'Never: only in the portal' }));
    expect(await within(section).findByRole('status')).toHaveTextContent('Saved: Never: only in the portal.');
    expect(within(group).getByRole('radio', { name: 'Never: only in the portal' })).toBeChecked();
    expect(NotificationSettingsSchema.parse(await (await fetch('/api/me/notification-settings')).json())).toEqual({ email: 'never' });

    // Opened again, the page shows the stored choice.
    unmount();
    renderRoutes(routes, '/account');
    const again = await screen.findByRole('radiogroup', { name: 'How alerts reach you by e-mail' }, { timeout: 10_000 });
    await waitFor(() => expect(within(again).getByRole('radio', { name: 'Never: only in the portal' })).toBeChecked());
  });
});
