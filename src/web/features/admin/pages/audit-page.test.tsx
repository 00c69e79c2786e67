import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CLI, recordAudit } from '../../../../server/modules/audit/service';
import { routes } from '../../../app/router';
import { renderRoutes } from '../../../test/render';
import { startTestServer } from '../../../test/server';

const ADMIN = 'audit-page-admin@uni.edu';
const FACULTY = 'audit-page-faculty@uni.edu';

const server = startTestServer({
  seed: async ({ signIn, database: { db } }) => {
    await signIn('admin', { email: ADMIN });
    await signIn('faculty', { email: FACULTY });
    // 60 entries: more than one page.
    for (let i = 1; i <= 58; i += 1) await recordAudit(db, CLI, 'class.update', `Class ${i}`, { position: i });
    await recordAudit(db, CLI, 'term.create', 'Spring 2027');
    await recordAudit(db, { id: null, label: ADMIN }, 'roster.import', 'roster', { added: 3 });
  },
});

describe('/admin/audit', () => {
  it('lists the newest entries first, pages to older ones, and filters by action', async () => {
    await server.signIn(ADMIN, 'admin');
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/audit');
    await screen.findByRole('table', { name: 'Audit trail' }, { timeout: 10_000 });
    // The table is drawn again when the filter changes: look it up each time.
    const rows = () => within(screen.getByRole('table', { name: 'Audit trail' })).getAllByRole('row').slice(1);
    expect(rows()[0]).toHaveTextContent('Roster imported');
    expect(rows()[0]).toHaveTextContent('added: 3');
    expect(rows()).toHaveLength(50);

    await user.click(screen.getByRole('button', { name: 'Show older entries' }));
    await waitFor(() => expect(rows()).toHaveLength(60));
    expect(rows()[59]).toHaveTextContent('Class 1');
    expect(screen.queryByRole('button', { name: 'Show older entries' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Action' }));
    // Mantine's dropdown opens with a transition that jsdom never runs: the option stays hidden.
    await user.click(await screen.findByRole('option', { name: 'Term created', hidden: true }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]).toHaveTextContent('Spring 2027');
    expect(rows()[0]).toHaveTextContent('cli');
  });

  it('tells faculty the page is for administrators, and the server refuses them', async () => {
    await server.signIn(FACULTY, 'faculty');
    renderRoutes(routes, '/admin/audit');
    expect(await screen.findByText('This page is for administrators only', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect((await fetch('/api/admin/audit')).status).toBe(403);
  });
});
