import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CLI } from '../../../../server/modules/audit/service';
import { createTerm } from '../../../../server/modules/terms/service';
import { addDays, todayIn } from '../../../../shared/dates';
import { routes } from '../../../app/router';
import { renderRoutes } from '../../../test/render';
import { startSignedInApp } from '../../../test/server';

const server = startSignedInApp('admin', { email: 'terms-page-admin@uni.edu' });
const today = todayIn('UTC');

describe('/admin/terms', () => {
  it('says so when there is no term yet', async () => {
    renderRoutes(routes, '/admin/terms');
    expect(await screen.findByText('No terms yet.', undefined, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('lists the terms newest first with the current one marked, renames one, and shows a refusal in the server\'s words', async () => {
    await createTerm(server.ctx.database.db, CLI, { name: 'Earlier term', startsOn: addDays(today, -200), endsOn: addDays(today, -100) }, 'UTC');
    await createTerm(server.ctx.database.db, CLI, { name: 'This term', startsOn: addDays(today, -10), endsOn: addDays(today, 10) }, 'UTC');
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/terms');
    await screen.findByRole('table', { name: 'Terms' }, { timeout: 10_000 });
    const names = () =>
      within(screen.getByRole('table', { name: 'Terms' }))
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent?.replace(/\s+/g, ' ').trim());
    expect(names()).toEqual(['This term Current', 'Earlier term']);

    // A name another term has: the dialog stays open with the server's message.
    await user.click(screen.getByRole('button', { name: 'Edit Earlier term' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Earlier term' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'this TERM');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('There is already a term named This term');

    await user.clear(name);
    await user.type(name, 'Spring term');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(names()).toEqual(['This term Current', 'Spring term']));
    expect(await screen.findByText('Spring term has been saved.')).toBeInTheDocument();
  });
});
