import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { putStudents } from '../../../../server/modules/roster/service';
import { routes } from '../../../app/router';
import { renderRoutes } from '../../../test/render';
import { startSignedInApp } from '../../../test/server';

// A fresh install: the seeded classes, nobody on the roster, no term, no faculty.
const server = startSignedInApp('admin', { email: 'first-admin@uni.edu' });

describe('/admin, the setup checklist', () => {
  it('is where a fresh install opens for the first admin, with what is left to do', async () => {
    const { router } = renderRoutes(routes, '/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'), { timeout: 10_000 });
    expect(await screen.findByRole('heading', { name: 'Set up the portal' }, { timeout: 10_000 })).toBeInTheDocument();
    const steps = within(screen.getByRole('list', { name: 'Setup checklist' })).getAllByRole('listitem');
    expect(steps.map((step) => step.textContent)).toEqual([
      expect.stringMatching(/Classes.*Done.*8 classes on the dashboard/),
      expect.stringMatching(/Roster.*To do.*Nobody is on the roster yet/),
      expect.stringMatching(/Terms.*To do.*No term yet/),
      expect.stringMatching(/Accounts.*To do.*No faculty account yet/),
    ]);
    expect(within(steps[1]!).getByRole('link', { name: 'Upload the roster' })).toHaveAttribute('href', '/admin/roster');

    // A backup of the whole database, one link away: the file the server sends for it.
    const backup = screen.getByRole('link', { name: 'Download a backup' });
    const file = await fetch(backup.getAttribute('href')!);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename=".+"$/);
    expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it('says the portal is set up once every step is done', async () => {
    await putStudents(server.ctx.database.db, [{ pin: 'SETUP1', name: 'Setup Student', className: 'CSE1' }]);
    await server.ctx.signIn('faculty');
    const today = new Date().toISOString().slice(0, 10);
    const year = Number(today.slice(0, 4));
    const created = await fetch('/api/admin/terms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'This year', startsOn: `${year - 1}-01-01`, endsOn: `${year + 1}-12-31` }),
    });
    expect(created.status).toBe(201);

    renderRoutes(routes, '/admin');
    expect(await screen.findByRole('heading', { name: 'The portal is set up' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText('The current term is This year.')).toBeInTheDocument();
    expect(screen.getByText('1 student on the roster.')).toBeInTheDocument();
  });
});
