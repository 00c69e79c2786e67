import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AlertSettingsSchema } from '../../../../shared/schemas/alerts';
import { routes } from '../../../app/router';
import { renderRoutes } from '../../../test/render';
import { startSignedInApp } from '../../../test/server';

startSignedInApp('admin', { email: 'alerts-page-admin@uni.edu', config: { alertThreshold: 80 } });

describe('/admin/alerts', () => {
  it('shows the threshold, and switches a rule off and on again, saved', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/alerts');
    expect(await screen.findByRole('heading', { level: 2, name: 'Alerts' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Alerts' })).toHaveAttribute('aria-current', 'page');
    const threshold = await screen.findByRole('region', { name: 'Threshold' });
    expect(within(threshold).getByText('80%')).toBeInTheDocument();
    expect(threshold).toHaveTextContent('Set by PORTAL_THRESHOLD');

    const rules = screen.getByRole('region', { name: 'Rules' });
    const switches = within(rules).getAllByRole('switch');
    expect(switches.map((s) => (s as HTMLInputElement).checked)).toEqual([true, true, true]);
    // Each rule with its description (the threshold in it).
    expect(rules).toHaveTextContent('falls below 80% after at least 5 lectures held');
    const consecutive = within(rules).getByRole('switch', { name: 'Absent three times in a row' });

    await user.click(consecutive);
    expect(await screen.findByText('Absent three times in a row is now off.')).toBeInTheDocument();
    expect(consecutive).not.toBeChecked();
    const stored = async () => AlertSettingsSchema.parse(await (await fetch('/api/admin/alerts')).json()).rules;
    expect(await stored()).toContainEqual({ rule: 'consecutive-absences', enabled: false });

    await user.click(consecutive);
    expect(await screen.findByText('Absent three times in a row is now on.')).toBeInTheDocument();
    await waitFor(() => expect(consecutive).toBeChecked());
    expect((await stored()).every((rule) => rule.enabled)).toBe(true);
  });
});
